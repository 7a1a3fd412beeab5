"""The three buttons on gpiozero's mock pins, timed by a fake clock (no sleeping)."""

from typing import Any

from gpiozero.pins.mock import MockFactory

from hardware.buttons import ButtonPanel
from hardware.config import ButtonsConfig
from hardware.navigator import PromptNavigator

VIEW = {"current": "p1", "version": 7, "game_id": "g1", "actions": [
    {"actor": "p1", "type": "buy", "label": "Buy", "args": {}},
    {"actor": "p1", "type": "auction", "label": "Auction", "args": {}}]}
BID = {"current": "p1", "version": 9, "actions": [
    {"actor": "p1", "type": "bid", "label": "Bid", "args": {},
     "input": {"kind": "amount", "min": 10, "max": 40}}]}
PREV, NEXT, OK = 5, 6, 13
CONFIG = ButtonsConfig(hold_s=5)  # no hold while a test runs


class Clock:
    """A fake monotonic clock that also runs what was scheduled once its time comes."""

    def __init__(self) -> None:
        self.now = 100.0
        self.due: list[tuple[float, Any]] = []

    def __call__(self) -> float:
        return self.now

    def schedule(self, delay: float, fn: Any) -> None:
        self.due.append((self.now + delay, fn))

    def advance(self, seconds: float) -> None:
        end = self.now + seconds
        while self.due and min(t for t, _ in self.due) <= end:
            at, fn = min(self.due, key=lambda d: d[0])
            self.due.remove((at, fn))
            self.now = at
            fn()
        self.now = end


def panel_for(pins: MockFactory, view: dict[str, Any] = VIEW) -> tuple[
        ButtonPanel, PromptNavigator, list[Any], Clock]:
    sent: list[Any] = []
    nav = PromptNavigator(lambda a, x: sent.append((a["type"], x, a["version"])))
    nav.update(view)
    clock = Clock()
    panel = ButtonPanel(CONFIG, nav, pin_factory=pins, schedule=clock.schedule)
    return panel, nav, sent, clock


def press(pins: MockFactory, pin: int, clock: Clock, chatter: int = 0) -> None:
    """Push and let go, the contacts chattering ``chatter`` times each way (1 ms apart)."""
    p = pins.pin(pin)
    p.drive_low()
    for _ in range(chatter):
        clock.advance(0.001)
        p.drive_high()
        clock.advance(0.001)
        p.drive_low()
    clock.advance(0.15)
    p.drive_high()
    for _ in range(chatter):
        clock.advance(0.001)
        p.drive_low()
        clock.advance(0.001)
        p.drive_high()
    clock.advance(0.3)


def test_next_then_ok_answers_with_the_second_action(pins: MockFactory) -> None:
    redraws: list[int] = []
    panel, nav, sent, clock = panel_for(pins)
    panel._on_change = lambda: redraws.append(1)
    try:
        press(pins, NEXT, clock)
        press(pins, OK, clock)
    finally:
        panel.close()
    assert sent == [("auction", None, 7)]  # with the version the screen showed
    assert len(redraws) == 2


def test_chattering_contacts_count_as_one_press(pins: MockFactory) -> None:
    """Three chatters going down and coming up: one "next" is one step and one OK one
    command (it was 7 steps and 7 rolls)."""
    panel, nav, sent, clock = panel_for(pins)
    try:
        press(pins, NEXT, clock, chatter=3)
        assert nav.index == 1
        press(pins, NEXT, clock, chatter=3)
        assert nav.index == 0
        press(pins, OK, clock, chatter=3)
    finally:
        panel.close()
    assert sent == [("buy", None, 7)]
    assert panel.presses == 3


def test_ok_acts_when_pressed_not_when_released(pins: MockFactory) -> None:
    panel, nav, sent, clock = panel_for(pins)
    try:
        pins.pin(OK).drive_low()
        clock.advance(0.03)
        assert sent == [("buy", None, 7)]
        clock.advance(0.2)
        pins.pin(OK).drive_high()
    finally:
        panel.close()
    assert sent == [("buy", None, 7)]


def test_quick_genuine_presses_all_count(pins: MockFactory) -> None:
    """Two presses with the button up longer than the debounce time are two presses."""
    panel, nav, sent, clock = panel_for(pins)
    try:
        for _ in range(2):
            pins.pin(NEXT).drive_low()
            clock.advance(0.06)
            pins.pin(NEXT).drive_high()
            clock.advance(0.05)
    finally:
        panel.close()
    assert nav.index == 0 and panel.presses == 2


def test_prev_and_next_together_are_back(pins: MockFactory) -> None:
    """In the amount editor, both arrows at once leave it without sending."""
    panel, nav, sent, clock = panel_for(pins, BID)
    try:
        press(pins, OK, clock)  # opens the bid editor
        assert nav.state()["editing"] is not None
        pins.pin(NEXT).drive_low()
        clock.advance(0.01)
        pins.pin(PREV).drive_low()
        clock.advance(0.1)
        pins.pin(PREV).drive_high()
        pins.pin(NEXT).drive_high()
    finally:
        panel.close()
    assert nav.state()["editing"] is None and sent == []


def test_a_one_millisecond_spike_on_the_ok_wire_sends_nothing(pins: MockFactory) -> None:
    """A long wire picks up a spike: 1 ms low is no press (it used to send the highlighted
    action); a real press, down for 30 ms, still acts."""
    panel, nav, sent, clock = panel_for(pins)
    try:
        for _ in range(3):
            pins.pin(OK).drive_low()
            clock.advance(0.001)
            pins.pin(OK).drive_high()
            clock.advance(0.2)
        assert sent == [] and panel.presses == 0
        pins.pin(OK).drive_low()
        clock.advance(0.03)
        pins.pin(OK).drive_high()
        clock.advance(0.2)
    finally:
        panel.close()
    assert sent == [("buy", None, 7)]
