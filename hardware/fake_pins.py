"""gpiozero's mock pins, with a cable that can be pulled: for buttons, LEDs and the buzzer.

``FakePinFactory`` is a ``MockFactory`` (so ``pin(n).drive_low()`` presses a button) whose
``unplug()`` makes claiming a pin fail and driving an output fail, as a missing GPIO chip or
a busy line does on a Pi; ``replug()`` brings them back.
"""

from __future__ import annotations

import errno
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin


class FakePin(MockPWMPin):  # type: ignore[misc]  # gpiozero ships no type hints
    """A mock pin whose writes fail while its factory is unplugged."""

    def _check(self) -> None:
        if not getattr(self._factory, "plugged", True):
            raise OSError(errno.EIO, f"{self.info.name}: I/O error (unplugged)")

    def _set_state(self, value: Any) -> None:
        self._check()
        super()._set_state(value)

    def _set_frequency(self, value: Any) -> None:
        if value is not None:
            self._check()
        super()._set_frequency(value)


class FakePinFactory(MockFactory):  # type: ignore[misc]
    """Mock pins that can be unplugged (``unplug()``) and plugged back (``replug()``)."""

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("pin_class", FakePin)
        super().__init__(**kw)
        self.plugged = True

    def unplug(self) -> None:
        self.plugged = False

    def replug(self) -> None:
        self.plugged = True

    def pin(self, name: Any, pin_class: Any = None, **kwargs: Any) -> Any:
        if not self.plugged:
            raise OSError(errno.ENODEV, f"GPIO {name}: no such device (unplugged)")
        return super().pin(name, pin_class=pin_class, **kwargs)
