"""What publishing to the venue costs a table: no cursor write per command, no page encoded
again at every event."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from venue_helpers import ROOT, Broker, SimTable, wait_until

from companion.service.venue_outbox import Outbox
from companion.venue import topics
from companion.venue.publisher import SAVE_EVERY

SCRIPT = ROOT / "examples" / "monopolino-4-players.json"


def test_the_cursor_is_not_written_at_every_command(
        tmp_path: Path, broker: Broker, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game played through: the delivered-up-to cursor is written a few times (a
    transaction on the game's thread each), not once a command."""
    saves: list[float] = []
    real = Outbox.save

    def counted(self: Outbox, delivered: dict[str, int]) -> None:
        saves.append(time.monotonic())
        real(self, delivered)

    monkeypatch.setattr(Outbox, "save", counted)
    table = SimTable(tmp_path, "t01", broker.port, SCRIPT)
    try:
        table.begin()
        started = time.monotonic()
        for step in range(1, len(table.steps) + 1):
            table.play(step)
            version = table.service.state(table.game_id)[0]
            wait_until(lambda v=version: table.publisher.owed() == 0  # type: ignore[misc]
                       and table.publisher._acked.get(table.game_id) == v,
                       what="the broker's acknowledgement")
        played = time.monotonic() - started
    finally:
        table.close()
    assert table.done > 20
    assert len(saves) <= 2 + played / SAVE_EVERY, (len(saves), table.done, played)


def test_a_retained_page_is_the_page_of_its_events() -> None:
    """The page sent from events encoded once reads as the page built whole."""
    events = [{"game": "g", "seq": n, "say": "Ana rolls ½ «2»", "time": 1.5} for n in (1, 2)]
    raw = topics.page_bytes("g", 0, [topics.encode(e) for e in events])
    assert json.loads(raw) == {"v": topics.VERSION, "game": "g", "page": 0, "events": events}
    assert json.loads(topics.page_bytes("g", 3, [])) == {
        "v": topics.VERSION, "game": "g", "page": 3, "events": []}
