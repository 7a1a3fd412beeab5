"""The story a finished game tells on the OLED and every phone (companion/engine/story.py), as the
service tells it: once per move, from the log read one row at a time."""

from __future__ import annotations

import gc
import json
import tracemalloc
from pathlib import Path

import pytest

from companion.engine.story import rows_of, story
from companion.plugins.editions import find_edition
from companion.service.game_service import GameService
from companion.service.script import parse_step

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "logs"
EXAMPLES = ROOT / "examples"


@pytest.fixture
def finished(tmp_path: Path) -> tuple[GameService, str]:
    """Mario's three-player golden game (1,330 events), imported and finished."""
    lines = (GOLDEN / "mario-three-players.jsonl").read_text("utf-8").splitlines()
    with GameService(tmp_path / "state") as service:
        out = service.import_game(lines, unchecked=True)
        assert out.ok, out.error
        yield service, str(out.game_id)


def test_the_story_is_the_logs_and_is_told_once_per_move(tmp_path: Path) -> None:
    """Every phone that opens the story at the end of the game, and the OLED, get the one
    told from the log; an undo tells it again, without the move taken back."""
    data = json.loads((EXAMPLES / "mario-two-players.json").read_text("utf-8"))
    steps = data.pop("steps")
    with GameService(tmp_path / "state") as service:
        gid = str(service.create_game(data).game_id)
        for step in steps:
            assert service.submit(gid, parse_step(service.state(gid)[1], step)).ok
        told = service.story(gid)
        assert told == story(rows_of(service.store.rows(gid)), find_edition)
        assert told["finished"] and told["winner_names"] == ["Mario"]
        assert service.story(gid) is told  # told once, shared
        out = service.undo(gid)
        assert out.ok, out.error
        again = service.story(gid)
        assert again is not told and not again["finished"]
        assert again == story(rows_of(service.store.rows(gid)), find_edition)


def test_telling_the_story_does_not_hold_the_whole_log(
        finished: tuple[GameService, str]) -> None:
    """At the end of a long game the companion tells the story without holding its whole
    log at once (about 2 KB an event decoded): the memory a table's box keeps after the
    game grew by the log's size at every game's end (issue #28's memory budget)."""
    service, gid = finished
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        log = service.store.rows(gid)
        whole = tracemalloc.get_traced_memory()[0] - base
        del log
        gc.collect()
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        service.story(gid)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert peak < whole / 2, (peak, whole)
