"""A long game holds what the page shows, not one object per event: the money chart is
every point the page draws, an undo takes its points back, and the view's citations stay
right while the service keeps only those of the lines it shows."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from companion.engine.types import Command
from companion.plugins.editions import find_edition
from companion.service.game_record import RECENT
from companion.service.game_service import GameService

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mario-three-players.json"


def _setup() -> dict[str, Any]:
    raw = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return {**raw.get("setup", raw), "dice": "digital", "seed": 11}


def _play(service: GameService, game_id: str, moves: int, rnd: random.Random) -> list[
        dict[str, Any]]:
    """``moves`` accepted random moves; each one's point as the chart should have it."""
    expected = []
    while len(expected) < moves:
        _, state = service.state(game_id)
        if state.finished:
            break
        legal = find_edition(state.edition).legal_actions(state)
        plain = [a for a in legal if a.actor != "banker" and "bankrupt" not in a.type
                 and (not a.input or a.type in ("roll", "choose"))] or legal
        a = rnd.choice(plain)
        out = service.submit(game_id, Command(a.actor, a.type, dict(a.args)))
        if out.ok:
            _, state = service.state(game_id)
            expected.append({"version": out.version,
                             "money": {p.id: p.money for p in state.players}})
    return expected


def test_the_chart_and_the_citations_of_a_long_game(tmp_path: Path) -> None:
    rnd = random.Random(4)
    with GameService(tmp_path) as service:
        game_id = service.create_game(_setup()).game_id
        first = service.record(game_id).history.points()
        expected = _play(service, game_id, 300, rnd)
        assert len(expected) > 100
        rec = service.record(game_id)
        assert rec.history.points() == first + expected
        # the service keeps the citations of the lines a view shows, not one per event
        assert len(rec.cites) <= 3 * RECENT, len(rec.cites)
        shown = service.view(game_id)
        cmds = service.commands(game_id)
        undone = cmds[-5]
        assert service.undo(game_id, undone["cmd"]).ok
        after = service.view(game_id)
        kept = [p for p in first + expected if p["version"] < undone["first_seq"]]
        assert service.record(game_id).history.points()[:-1] == kept
        assert service.record(game_id).history.points()[-1]["money"] == kept[-1]["money"]
        assert shown["log_cites"] != [""] * len(shown["log_cites"])  # Mario cites its rules
    with GameService(tmp_path) as again:  # what a restart reads from the log
        fresh = again.view(game_id)
    assert fresh["log"] == after["log"]
    assert fresh["log_cites"] == after["log_cites"]
