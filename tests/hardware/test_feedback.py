import pytest
from gpiozero.pins.mock import MockFactory

from hardware.config import FeedbackConfig
from hardware.feedback import Feedback


def levels(pin: object) -> list[bool]:
    return [bool(s.state) for s in pin.states]  # type: ignore[attr-defined]


def test_ok_flashes_green_and_beeps_red_stays_off(pins: MockFactory) -> None:
    fb = Feedback(FeedbackConfig(), pin_factory=pins, sleep=lambda s: None)
    try:
        fb.signal("ok", wait=True)
    finally:
        fb.close()
    assert True in levels(pins.pin(16)) and levels(pins.pin(16))[-1] is False
    assert True not in levels(pins.pin(26))
    assert True in levels(pins.pin(12))


def test_error_lights_red_not_green(pins: MockFactory) -> None:
    fb = Feedback(FeedbackConfig(), pin_factory=pins, sleep=lambda s: None)
    try:
        fb.signal("error", wait=True)
    finally:
        fb.close()
    assert levels(pins.pin(26)).count(True) >= 1
    assert True not in levels(pins.pin(16))


def test_passive_buzzer_plays_a_tune_for_a_catch(pins: MockFactory) -> None:
    fb = Feedback(FeedbackConfig(buzzer_kind="passive"), pin_factory=pins, sleep=lambda s: None)
    try:
        fb.signal("catch", wait=True)
        freqs = {s.state for s in pins.pin(12).states if s.state}
    finally:
        fb.close()
    assert len(freqs) >= 1


def test_unknown_signal_is_refused(pins: MockFactory) -> None:
    fb = Feedback(FeedbackConfig(), pin_factory=pins)
    try:
        with pytest.raises(ValueError, match="unknown signal"):
            fb.signal("party")
    finally:
        fb.close()
