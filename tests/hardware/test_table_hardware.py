"""The facade: taps reach on_tap once, a missing reader is retried, buttons answer prompts."""

from __future__ import annotations

import time
from typing import Any

from hardware.config import load_hardware_config
from hardware.emulator import Mfrc522Chip, VirtualClock, pi_modules
from hardware.fake_reader import FakeReader
from hardware.table import TableHardware

VIEW = {"current": "p1", "players": [{"id": "p1", "name": "Ana", "money": 1500}],
        "prompt": {"kind": "buy", "to": ["p1"], "text": "Buy Cave?"}, "log": [],
        "actions": [{"actor": "p1", "type": "buy", "label": "Buy", "args": {}},
                    {"actor": "p1", "type": "auction", "label": "Auction", "args": {}}]}


def simulated(**kw: Any) -> tuple[TableHardware, list[Any], list[Any]]:
    taps: list[Any] = []
    actions: list[Any] = []
    table = TableHardware.from_config({"readers": [{"role": "bank"}, {"role": "catch",
                                                                       "device": 1}]},
                                      lambda r, u: taps.append((r, u)),
                                      lambda a, x: actions.append((a["type"], x)),
                                      simulate=True, **kw)
    return table, taps, actions


def test_virtual_taps_go_through_the_tap_detector() -> None:
    table, taps, _ = simulated()
    table.start()
    try:
        table.virtual_tap("catch", "04:a1:b2:c3:d4:e5:f6")
        deadline = time.monotonic() + 60  # a loaded machine polls late
        while not taps and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.4)  # the tag stays on for several polls: still one tap
    finally:
        table.stop()
    assert taps == [("catch", "04A1B2C3D4E5F6")]


def test_buttons_answer_the_prompt_and_the_screen_follows() -> None:
    table, _, actions = simulated()
    try:
        table.show(VIEW)
        before = table.frame_png()
        table.press("next")
        assert table.frame_png() != before  # highlight moved
        table.press("ok")
        table.signal("ok")
    finally:
        table.stop()
    assert actions == [("auction", None)]


def test_missing_reader_is_reported_retried_and_recovers() -> None:
    now = [0.0]
    status: list[Any] = []
    taps: list[Any] = []
    reader = FakeReader(clock=lambda: now[0])
    reader.fail_opens = 2
    table = TableHardware(load_hardware_config({}), {"table": reader}, None,  # type: ignore[arg-type]
                          None, on_tap=lambda r, u: taps.append(u),  # type: ignore[arg-type]
                          on_status=lambda r, ok, m: status.append(ok), clock=lambda: now[0])
    table.poll_once()  # fails, retry in 1 s
    now[0] = 0.5
    table.poll_once()  # too early: not retried
    now[0] = 1.0
    table.poll_once()  # fails again, retry in 2 s
    now[0] = 2.5
    table.poll_once()
    assert status == [False] and not reader.is_open
    now[0] = 3.0
    reader.place("DEADBEEF")
    table.poll_once()
    assert status == [False, True] and taps == ["DEADBEEF"]


def test_real_reader_path_with_emulated_chip_and_unplug() -> None:
    clock = VirtualClock()
    chip = Mfrc522Chip(clock)
    taps: list[str] = []
    status: list[Any] = []
    with pi_modules({(0, 0): chip}) as gpio:
        table = TableHardware.from_config(
            {"readers": [{"role": "table"}], "buttons": {"kind": "none"},
             "feedback": {"kind": "none"}, "display": {"kind": "dummy"}},
            lambda r, u: taps.append(u), lambda a, x: None,
            on_status=lambda r, ok, m: status.append((r, ok, m)))
        table._clock = clock.time  # type: ignore[method-assign]
        table._slots["table"].reader._sleep = clock.sleep  # type: ignore[attr-defined]
        table.poll_once()
        chip.place("04A1B2C3D4E5F6")
        for _ in range(5):
            clock.sleep(0.05)
            table.poll_once()
        chip.unplug()
        table.poll_once()  # must not raise
        table.stop()
    assert taps == ["04A1B2C3D4E5F6"]
    readers = [(ok, m) for part, ok, m in status if part == "table"]
    assert readers[0] == (True, "reader ready") and readers[-1][0] is False
    assert 25 not in gpio.pins


def test_no_device_is_needed_to_start_and_each_one_recovers_when_plugged_in() -> None:
    """The OLED, the buttons and the lights and buzzer all missing at start (a luma I2C
    remote I/O error, GPIO lines that cannot be claimed): the table starts, says which are
    missing, and uses each one once it is plugged in (it used to stop the service)."""
    from hardware.display import FakeI2C
    from hardware.fake_pins import FakePinFactory

    now = [0.0]
    pins, bus, status = FakePinFactory(), FakeI2C(), []
    pins.unplug()
    bus.unplug()
    table = TableHardware.from_config(
        {"readers": [{"role": "table", "kind": "fake"}], "display": {"kind": "ssd1306"}},
        lambda r, u: None, lambda a, x: None, pin_factory=pins, display_serial=bus,
        on_status=lambda part, ok, m: status.append((part, ok)), clock=lambda: now[0])
    try:
        table.show(VIEW)
        table.signal("ok")
        table.show_error("still no screen")  # none of these raises
        states = table.status()
        assert {k: v["working"] for k, v in states.items() if k != "reader table"} == {
            "screen": False, "buttons": False, "lights and buzzer": False}
        assert "Remote I/O error" in states["screen"]["message"]
        pins.replug()
        bus.replug()
        now[0] = 1.0
        table.tick()
        assert all(v["working"] for k, v in table.status().items() if k != "reader table")
        assert table.buttons is not None and bus.frames > 0
        pins.pin(6).drive_low()  # the buttons work: "next", once held for press_ms
        deadline = time.monotonic() + 10
        while table.navigator.index != 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert table.navigator.index == 1
    finally:
        table.stop()
    assert ("buttons", False) in status and ("buttons", True) in status


def test_lights_unplugged_while_playing_are_reopened() -> None:
    """A pin that fails while a pattern plays ends it quietly; the lights and buzzer are
    reported missing and reopened once the pins answer again."""
    from hardware.fake_pins import FakePinFactory

    now = [0.0]
    pins = FakePinFactory()
    table = TableHardware.from_config(
        {"readers": [{"role": "table", "kind": "fake"}], "display": {"kind": "dummy"},
         "buttons": {"kind": "none"}}, lambda r, u: None, lambda a, x: None,
        pin_factory=pins, clock=lambda: now[0])
    try:
        first = table.feedback
        pins.unplug()
        first.signal("ok", wait=True)
        table.tick()
        assert table.status()["lights and buzzer"]["working"] is False
        assert table.feedback is None
        table.signal("win")  # nothing to play it on: no error
        pins.replug()
        now[0] = 1.0
        table.tick()
        assert table.status()["lights and buzzer"] == {"working": True, "message": "ready"}
        table.feedback.signal("ok", wait=True)
        assert table.feedback.fault is None
    finally:
        table.stop()


def test_a_missing_i2c_bus_does_not_stop_the_table() -> None:
    """I2C not enabled (no /dev/i2c-N): luma raises DeviceNotFoundError; the table runs."""
    table = TableHardware.from_config(
        {"readers": [{"role": "table", "kind": "fake"}], "buttons": {"kind": "none"},
         "feedback": {"kind": "none"}, "display": {"kind": "ssd1306", "i2c_port": 22}},
        lambda r, u: None, lambda a, x: None)
    try:
        table.show(VIEW)
        assert table.status()["screen"]["working"] is False
        assert table.frame_png()[:4] == b"\x89PNG"
    finally:
        table.stop()


def test_a_long_prompt_turns_its_pages_and_an_error_stays_up() -> None:
    """A prompt too long for the screen is shown a page at a time (every PAGE_S seconds);
    an error shown meanwhile is not replaced by the game's next page."""
    from hardware.screens import PAGE_S

    now = [0.0]
    table, _, _ = simulated(clock=lambda: now[0])
    long_view = {**VIEW, "prompt": {"kind": "buy", "to": ["p1"], "text": "word " * 40}}
    try:
        table.show(long_view)
        first = table.frame_png()
        now[0] += PAGE_S / 2
        table.tick()
        assert table.frame_png() == first
        now[0] += PAGE_S / 2
        table.tick()
        assert table.frame_png() != first
        table.show_error("Reader 'bank' is not answering")
        error = table.frame_png()
        for _ in range(3):
            now[0] += PAGE_S
            table.tick()
        assert table.frame_png() == error
    finally:
        table.stop()
