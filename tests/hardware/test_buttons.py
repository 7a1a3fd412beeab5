import time
from typing import Any

from gpiozero.pins.mock import MockFactory

from hardware.buttons import ButtonPanel
from hardware.config import ButtonsConfig
from hardware.navigator import PromptNavigator

VIEW = {"current": "p1", "actions": [
    {"actor": "p1", "type": "buy", "label": "Buy", "args": {}},
    {"actor": "p1", "type": "auction", "label": "Auction", "args": {}}]}


def press(pin: Any, seconds: float = 0.01) -> None:
    pin.drive_low()
    time.sleep(seconds)
    pin.drive_high()
    time.sleep(0.02)


def test_next_then_ok_answers_with_the_second_action(pins: MockFactory) -> None:
    sent: list[str] = []
    nav = PromptNavigator(lambda a, x: sent.append(a["type"]))
    nav.update(VIEW)
    redraws: list[int] = []
    panel = ButtonPanel(ButtonsConfig(hold_s=0.2), nav, pin_factory=pins,
                        on_change=lambda: redraws.append(1))
    try:
        press(pins.pin(6))  # next
        press(pins.pin(13))  # OK
    finally:
        panel.close()
    assert sent == ["auction"]
    assert len(redraws) == 2


def test_holding_ok_is_back_not_ok(pins: MockFactory) -> None:
    sent: list[str] = []
    nav = PromptNavigator(lambda a, x: sent.append(a["type"]))
    nav.update(VIEW)
    panel = ButtonPanel(ButtonsConfig(hold_s=0.1), nav, pin_factory=pins)
    try:
        press(pins.pin(6))
        press(pins.pin(13), seconds=0.3)
    finally:
        panel.close()
    assert sent == [] and nav.index == 0
