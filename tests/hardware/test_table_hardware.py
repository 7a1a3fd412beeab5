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
        deadline = time.monotonic() + 2
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
            on_status=lambda r, ok, m: status.append((ok, m)))
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
    assert status[0] == (True, "reader ready") and status[-1][0] is False
    assert 25 not in gpio.pins
