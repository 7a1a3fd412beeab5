"""The join screen waits, unchanged, until a game starts, with a third of its pixels lit (the
QR code's lit square): an OLED burns in. It moves by a pixel every minute and dims after five
(issue 42, item 6); a game brings the full brightness back at once."""

from __future__ import annotations

from hardware.display import FakeI2C
from hardware.table import TableHardware

URL = "http://companion.local:8080/"
VIEW = {"current": "p1", "players": [{"id": "p1", "name": "Ana", "money": 1500}],
        "prompt": {"kind": "turn", "to": ["p1"], "text": "Ana's turn: roll the dice"},
        "log": [], "actions": [{"actor": "p1", "type": "roll", "label": "Roll", "args": {}}]}


def lit(frame: bytes) -> set[int]:
    return {n * 8 + bit for n, byte in enumerate(frame) for bit in range(8) if byte >> bit & 1}


def test_the_join_screen_moves_and_dims_while_nobody_plays() -> None:
    now, bus = [0.0], FakeI2C()
    table = TableHardware.from_config(
        {"readers": [{"role": "table", "kind": "fake"}], "display": {"kind": "ssd1306"},
         "buttons": {"kind": "none"}, "feedback": {"kind": "none"}},
        lambda r, u: None, lambda a, x: None, display_serial=bus, clock=lambda: now[0])
    try:
        table.show_join(URL, "")
        first = table.display.frame().tobytes()
        bright = bus.contrast
        frames, glass = {first}, []
        while now[0] < 600:
            now[0] += 0.5
            table.tick()
            frames.add(table.display.frame().tobytes())
            shown = bus.shown()
            assert shown is not None  # never dark
            glass.append(shown)
        assert len(frames) >= 4  # it moved, a pixel at a time
        always = set.intersection(*(lit(g) for g in glass))
        assert len(always) < 0.8 * len(lit(glass[0]))  # fewer pixels lit all the time
        assert bus.contrast < bright / 4  # dimmed
        table.show(VIEW)
        assert bus.contrast == bright and table.display.frame().tobytes() not in frames
    finally:
        table.stop()
