"""The one object the service talks to: readers, buttons, LEDs, buzzer and the OLED.

``TableHardware.from_config(cfg, on_tap, on_action, simulate)`` builds the real parts or
their fakes; ``start()`` begins polling the readers in a thread that never dies of a device.
No device is needed to start: a reader, the screen, the buttons or the lights and buzzer that
are missing, or stop answering, are reported through ``on_status`` (and the journal and
``status()``, which the page shows) and reopened with a growing pause (1 s, 2 s, then every
4 s); the table runs without them meanwhile, and uses them again once they answer.

Callbacks and threads: ``on_tap(role, uid)`` runs on the polling thread, ``on_action(action,
extra_input)`` on gpiozero's button thread (or the caller's, for :meth:`press`); both should
just queue a command for the service. Exceptions they raise are logged, never propagated.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.engine.i18n import Msg, localized
from hardware import power, screens
from hardware.config import HardwareConfig, load_hardware_config
from hardware.display import Display, make_opener
from hardware.fake_reader import FakeReader
from hardware.glance import with_glance
from hardware.hidden_tag import HiddenTag, hint_words
from hardware.idle_screen import IdleScreen
from hardware.navigator import OnAction, PromptNavigator
from hardware.nfc import Mfrc522Reader, TagReader
from hardware.parts import MAX_BACKOFF_S, Part, guarded, quietly, status_json
from hardware.taps import TapDetector

log = logging.getLogger(__name__)

POWER = "power supply"
"""The power supply's name in ``status()`` and ``on_status`` (undervoltage)."""
OnTap = Callable[[str, str], None]
OnStatus = Callable[[str, bool, str], None]
"""``on_status(role, working, message)``: a reader came up, or went missing and why."""


@dataclass
class _ReaderSlot:
    reader: TagReader
    detector: TapDetector
    is_open: bool = False
    retry_at: float = 0.0
    backoff: float = 1.0
    status: tuple[bool, str] | None = None
    hidden: HiddenTag = field(default_factory=HiddenTag)  # a tag left on it hides another


class TableHardware:
    """Facade over the table's devices; build it with :meth:`from_config`."""

    def __init__(self, cfg: HardwareConfig, readers: Mapping[str, TagReader], display: Display,
                 navigator: PromptNavigator, *, buttons: Any = None, feedback: Any = None,
                 on_tap: OnTap, on_status: OnStatus | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 on_action: OnAction | None = None) -> None:
        self.cfg = cfg
        self.display = display
        if display is not None:
            display.language = cfg.display.language  # the screen's own words too
        self.navigator = navigator
        if navigator is not None:
            navigator.language = cfg.display.language  # the dice's names
        self._parts: dict[str, Part] = {}
        self.buttons = buttons
        self.feedback = feedback
        self.pins: Any = None
        """The mock pins when simulating (``pins.pin(6).drive_low()`` presses "next")."""
        self._on_tap = on_tap
        self._on_status = on_status
        self._clock = clock
        self._slots = {role: _ReaderSlot(r, TapDetector(cfg.taps)) for role, r in readers.items()}
        self._lock = threading.Lock()
        self._outbox: list[tuple[dict[str, Any], Any]] = []
        self._on_action = guarded(on_action) if on_action is not None else None
        self._view: Mapping[str, Any] | None = None
        self._page = 0  # the page of the screen shown (screens.game_pages, error_pages)
        self._error: str | None = None  # the error on the screen, if that is what it shows
        self._paged = False  # the screen shown is the game or an error, which turn pages
        self._page_at = 0.0  # when it was turned to
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._power: power.PowerWatch | None = None
        self._idle = IdleScreen()  # the join screens, moved and dimmed (burn-in)

    @classmethod
    def from_config(cls, cfg: HardwareConfig | Mapping[str, Any], on_tap: OnTap,
                    on_action: OnAction, simulate: bool = False,
                    on_status: OnStatus | None = None,
                    pin_factory: Any = None, display_serial: Any = None,
                    clock: Callable[[], float] = time.monotonic,
                    throttled: Callable[[], int | None] | None = None) -> TableHardware:
        """Build from a HardwareConfig or the raw ``[hardware]`` dict. Raises only for a bad
        config: a device that cannot be opened now is reported and retried.

        ``simulate``: fake readers fed by :meth:`virtual_tap`, mock pins (a
        :class:`FakePinFactory`) for buttons, LEDs and buzzer, and luma's dummy display,
        whatever the config says. ``pin_factory`` / ``display_serial``: use these fakes for
        "gpio" parts / the I2C panel instead of the real ones (tests unplug them).
        ``throttled``: reads the Pi's throttled flags (default: :func:`power.read_throttled`
        on real hardware, nothing when simulating).
        """
        if not isinstance(cfg, HardwareConfig):
            cfg = load_hardware_config(cfg)
        readers: dict[str, TagReader] = {}
        for rc in cfg.readers:
            if simulate or rc.kind == "fake":
                readers[rc.role] = FakeReader()
            else:
                readers[rc.role] = Mfrc522Reader(rc.bus, rc.device, rc.rst_pin, spi_hz=rc.spi_hz,
                                                 timeout_s=rc.timeout_s, gain_db=rc.gain_db)
        mock = None
        if simulate or "mock" in (cfg.buttons.kind, cfg.feedback.kind):
            from hardware.fake_pins import FakePinFactory  # gpiozero's mock pins load spidev

            mock = FakePinFactory()
        holder: list[TableHardware] = []
        navigator = PromptNavigator(on_action=lambda a, x: holder[0]._queue_action(a, x))
        table = cls(cfg, readers, Display(), navigator, on_tap=on_tap, on_status=on_status,
                    on_action=on_action, clock=clock)
        holder.append(table)
        table.pins = mock
        if throttled is None and not simulate:
            throttled = power.read_throttled
        if throttled is not None:
            table._power = power.PowerWatch(throttled, table._power_changed)
        opener = make_opener(cfg.display, simulate, serial=display_serial)
        table.display = Display(opener=opener, on_status=table._status_changed, clock=clock)
        table.display.language = cfg.display.language
        if cfg.buttons.kind != "none":
            button_pins = mock if simulate or cfg.buttons.kind == "mock" else pin_factory

            def open_buttons() -> Any:
                from hardware.buttons import ButtonPanel

                return ButtonPanel(cfg.buttons, navigator, pin_factory=button_pins,
                                   on_change=table._redraw, lock=table._lock)

            table._add_part("buttons", open_buttons)
        if cfg.feedback.kind != "none":
            light_pins = mock if simulate or cfg.feedback.kind == "mock" else pin_factory

            def open_feedback() -> Any:
                from hardware.feedback import Feedback

                return Feedback(cfg.feedback, pin_factory=light_pins)

            table._add_part("lights and buzzer", open_feedback)
        return table

    # -- devices other than readers ------------------------------------------------------
    def _add_part(self, name: str, opener: Callable[[], Any]) -> None:
        part = Part(name, opener, self._status_changed)
        self._parts[name] = part
        part.tick(self._clock())

    @property
    def buttons(self) -> Any:
        part = self._parts.get("buttons")
        return part.device if part is not None else self._buttons

    @buttons.setter
    def buttons(self, value: Any) -> None:
        self._buttons = value

    @property
    def feedback(self) -> Any:
        part = self._parts.get("lights and buzzer")
        return part.device if part is not None else self._feedback

    @feedback.setter
    def feedback(self, value: Any) -> None:
        self._feedback = value

    @property
    def language(self) -> str:
        """The table's language on the screen (``[hardware.display] language``)."""
        return self.cfg.display.language

    def tick(self) -> None:
        """Reopen missing devices whose pause has passed and turn the screen's page every
        ``screens.PAGE_S`` (the polling thread calls it)."""
        now = self._clock()
        self._turn_page(now)
        self._wear_less(now)
        if self.display is not None:
            self.display.tick()
        if self._power is not None:
            self._power.tick(now)
        for part in self._parts.values():
            fault = getattr(part.device, "fault", None)
            if fault is not None:
                part.failed(now, Msg("stopped answering: {reason}", reason=str(fault)))
            part.tick(now)

    def status(self) -> dict[str, dict[str, Any]]:
        """Every device: ``{"working": bool, "message": str}`` (None before the first try)."""
        out: dict[str, dict[str, Any]] = {}
        for role, slot in self._slots.items():
            out[f"reader {role}"] = status_json(slot.status)
            if slot.hidden.hint is not None:
                out[f"reader {role}"].update(hint=slot.hidden.hint, message=hint_words(role))
        screen = self.display.status() if self.display is not None else None
        if screen is not None:
            out["screen"] = status_json(screen)
        for name, part in self._parts.items():
            out[name] = status_json(part.status)
        if self._power is not None and self._power.state is not None:
            out[POWER] = self._power.status()
        return out

    def _power_changed(self, working: bool, message: str, state: str) -> None:
        """The undervoltage state changed (PowerWatch logged it): ``on_status`` and, while it
        lasts, the OLED say so once."""
        if state == "now":
            self.show_error(message)
        self._status_changed(POWER, working, message)

    def _status_changed(self, part: str, working: bool, message: str) -> None:
        if self._on_status is not None:
            try:
                self._on_status(part, working, message)
            except Exception:
                log.exception("on_status failed")

    # -- readers ------------------------------------------------------------------------
    def start(self) -> None:
        """Start polling the readers (idempotent)."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._poll_forever, name="readers", daemon=True)
            self._thread.start()

    def stop(self, keep_screen: bool = False) -> None:
        """Stop polling and release every device this object opened; with ``keep_screen``
        the OLED stays lit with what it shows (why the companion could not start)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        for slot in self._slots.values():
            self._close(slot)
        for part in self._parts.values():
            part.close()
        for extra in (self._buttons, self._feedback):
            if extra is not None:
                quietly(extra.close)
        self._buttons = self._feedback = None
        self.display.close(keep_shown=keep_screen)

    def reader_status(self) -> dict[str, tuple[bool, str] | None]:
        """Per role: (working, message) as last reported, or None before the first poll."""
        return {role: slot.status for role, slot in self._slots.items()}

    def poll_once(self) -> None:
        """One pass over the readers (the thread's body; tests may call it directly)."""
        now = self._clock()
        for role, slot in self._slots.items():
            if not slot.is_open:
                if now < slot.retry_at:
                    continue
                try:
                    slot.reader.open()
                except Exception as exc:  # noqa: BLE001 - any driver failure means "retry later"
                    self._failed(role, slot, now, Msg("cannot open: {reason}", reason=str(exc)))
                    continue
                slot.is_open, slot.backoff = True, 1.0
                # The detector keeps the tags it believes on the reader: a chip reset by a
                # brown-out (or a replug) must not tap a token that rests there again. A tag
                # lifted meanwhile is missed by the polls that follow, as ever.
                self._report(role, slot, True, Msg("reader ready"))
            try:
                uid = slot.reader.read_uid()
            except Exception as exc:  # noqa: BLE001
                self._close(slot)
                self._failed(role, slot, now, Msg("stopped answering: {reason}",
                                                  reason=str(exc)))
                continue
            self._watch_crowding(role, slot, now, bool(getattr(slot.reader, "crowded", False)))
            tap = slot.detector.feed(now, uid)
            if tap is not None:
                try:
                    self._on_tap(role, tap)
                except Exception:
                    log.exception("on_tap(%r, %r) failed", role, tap)

    def _watch_crowding(self, role: str, slot: _ReaderSlot, now: float, crowded: bool) -> None:
        """Tell the table (the OLED, ``status()``) when a tag left on the reader hides another
        one, and take the hint back once it has gone."""
        if not slot.hidden.feed(now, crowded):
            return
        words = hint_words(role)
        log.info("reader %r: %s", role, words if crowded else "the hidden tag is read again")
        if crowded:
            self.show_error(words)
            return
        with self._lock:
            shown = self._error == words
        if shown:
            self._redraw()

    def _poll_forever(self) -> None:
        while not self._stop.is_set():
            try:
                self.poll_once()
                self.tick()
            except Exception:  # never let the thread die
                log.exception("reader poll failed")
            self._stop.wait(self.cfg.taps.poll_s)

    def _failed(self, role: str, slot: _ReaderSlot, now: float, message: str) -> None:
        slot.retry_at = now + slot.backoff
        slot.backoff = min(MAX_BACKOFF_S, slot.backoff * 2)
        self._report(role, slot, False, message)

    def _report(self, role: str, slot: _ReaderSlot, working: bool, message: str) -> None:
        if slot.status == (working, message):
            return
        slot.status = (working, message)
        aside = "" if working else " (retrying; the game goes on from the phones)"
        (log.info if working else log.warning)("reader %s: %s%s", role, message, aside)
        if self._on_status is not None:
            try:
                self._on_status(role, working, message)
            except Exception:
                log.exception("on_status failed")

    @staticmethod
    def _close(slot: _ReaderSlot) -> None:
        if slot.is_open:
            slot.is_open = False
            try:
                slot.reader.close()
            except Exception:  # noqa: BLE001 - closing a dead reader may fail too
                log.debug("closing reader failed", exc_info=True)

    def virtual_tap(self, role: str, uid: str) -> None:
        """Simulation: put ``uid`` briefly on the fake reader ``role`` (goes through taps)."""
        slot = self._slots.get(role)
        if slot is None:
            raise KeyError(f"no reader with role {role!r}; roles: {sorted(self._slots)}")
        if not isinstance(slot.reader, FakeReader):
            raise TypeError(f"reader {role!r} is a real reader; virtual taps need simulate")
        slot.reader.tap(uid.replace(":", "").replace(" ", ""))

    # -- screen, buttons, feedback ------------------------------------------------------
    # None of these raises: the screen and the lights are never a reason to stop the table.
    def show(self, view: Mapping[str, Any]) -> None:
        """Show the game from a view dict (its first page); the buttons now answer its
        prompt."""
        self._awake()
        try:
            view = localized(with_glance(view), self.cfg.display.language)  # the table's
            with self._lock:
                self._view = view
                self.navigator.update(view)
                state = self.navigator.state()
                self._page, self._page_at = 0, self._clock()
                self._paged, self._error = True, None
            self.display.show_game(view, state)
        except Exception:
            log.exception("showing the game failed")

    def _turn_page(self, now: float) -> None:
        """Show the screen's next page when it has more than one and its time is up."""
        try:
            with self._lock:
                view, state, error = self._view, self.navigator.state(), self._error
                if not self._paged or now - self._page_at < screens.PAGE_S:
                    return
                if error is not None:
                    pages = screens.error_pages(error, self.cfg.display.language)
                else:
                    pages = (screens.game_pages(view, state, self.cfg.display.language)
                             if view is not None else 1)
                if pages < 2:
                    return
                self._page, self._page_at = self._page + 1, now
                page = self._page
            if error is not None:
                self.display.show_error(error, page)
            elif view is not None:
                self.display.show_game(view, state, page)
        except Exception:
            log.exception("turning the screen's page failed")

    def _queue_action(self, action: dict[str, Any], extra: Any) -> None:
        """The navigator chose (under the lock): sent by :meth:`_flush` once it is released,
        so the service thread can redraw while the command is decided."""
        self._outbox.append((action, extra))

    def _flush(self) -> None:
        with self._lock:
            sent, self._outbox = self._outbox, []
        for action, extra in sent:
            if self._on_action is not None:
                self._on_action(action, extra)

    def _redraw(self) -> None:
        self._flush()
        try:
            with self._lock:
                view, state, page = self._view, self.navigator.state(), self._page
                self._paged, self._error = True, None
            if view is not None:
                self.display.show_game(view, state, page)
        except Exception:
            log.exception("redrawing failed")

    def press(self, button: str) -> None:
        """Simulation and tests: "prev", "next", "ok" or "back" (prev and next together)."""
        if button not in ("prev", "next", "ok", "back"):
            raise ValueError(f"unknown button {button!r}")
        with self._lock:
            getattr(self.navigator, button)()
        self._redraw()

    def show_join(self, url: str, code: str) -> None:
        lang = self.language
        self.show_idle(lambda d: screens.draw_join(d, url, code, lang))

    def show_idle(self, draw: Callable[[Any], None]) -> None:
        """A screen that stays while nobody plays (the join screens): moved by a pixel every
        minute and dimmed after five (hardware/idle_screen.py); the next other screen is
        bright again."""
        with self._lock:
            self._paged = False
            self._idle.shown(draw, self._clock())
            shift = self._idle.shift
        try:
            self.display.render(draw, shift)
        except Exception:
            log.exception("showing the join screen failed")

    def _wear_less(self, now: float) -> None:
        with self._lock:
            draw, (move, dim), shift = self._idle.draw, self._idle.due(now), self._idle.shift
        try:
            if move and draw is not None:
                self.display.render(draw, shift)
            if dim:
                self.display.dim(True)
        except Exception:
            log.exception("moving the idle screen failed")

    def _awake(self) -> None:
        """Another screen than the idle one: full brightness again."""
        with self._lock:
            was_idle = self._idle.left()
        if was_idle:
            self.display.dim(False)

    def show_enrollment(self, progress: Any) -> None:
        """``progress``: a boxes.tags.EnrollmentProgress or a dict with done/total/prompt."""
        self._awake()
        with self._lock:
            self._paged = False
        try:
            get: Callable[[str], Any] = progress.get if isinstance(progress, Mapping) else (
                lambda k: getattr(progress, k))
            self.display.show_enrollment(int(get("done")), int(get("total")),
                                         get("prompt"))
        except Exception:
            log.exception("showing enrollment failed")

    def show_error(self, text: str) -> None:
        """An error, paged when it is long; the next game screen or button press replaces it."""
        self._awake()
        with self._lock:
            self._paged, self._error = True, text
            self._page, self._page_at = 0, self._clock()
        try:
            self.display.show_error(text)
        except Exception:
            log.exception("showing an error failed")

    def signal(self, kind: str) -> None:
        """"ok", "error", "catch" or "win" on the LEDs and buzzer (no-op without them)."""
        if kind not in ("ok", "error", "catch", "win"):
            raise ValueError(f"unknown signal {kind!r}")
        feedback = self.feedback
        if feedback is not None:
            try:
                feedback.signal(kind)
            except Exception:
                log.exception("signal %r failed", kind)

    def frame_png(self, scale: int = 1) -> bytes:
        """The OLED's current frame as PNG bytes, for the page's mirror."""
        return self.display.frame_png(scale)
