"""After each move every Master Trainer phone gets its own view (hidden hands): exactly what a
fresh render shows it, reached by a patch from what it held."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from bench_engine import next_move

from companion.engine.types import GameSetup
from companion.plugins.editions import find_edition
from companion.service import game
from companion.service.game_record import _render
from companion.service.game_service import GameService
from web.events import apply, dumps, frames

SETUP = {"edition": "master-trainer", "players": ["Ash", "Дмитрий", "“Misty”"],
         "dice": "physical", "seed": 7, "settings": {"decks": "virtual"}}
RULES = find_edition("master-trainer")


def test_each_master_trainer_phone_gets_its_own_view_by_a_patch(tmp_path: Path) -> None:
    """Every seat and the spectators watching a Master Trainer game get, after each move,
    exactly what a fresh render shows them, reached by the patch from what they held, and
    never another player's hand."""
    svc = GameService(tmp_path).start()
    try:
        gid = svc.create_game(SETUP).game_id
        _, state = svc.state(gid)
        seats = [p.id for p in state.setup.players]
        viewers = [*seats, ""]  # "" : the spectators' phones
        held = {v: copy.deepcopy(frames(svc, gid, v).view) for v in viewers}
        rnd = random.Random(3)
        local = game.replay(game.new_game(GameSetup.from_json(SETUP)))
        for _ in range(40):
            found = next_move(rnd, local, "master-trainer")
            assert found is not None
            command, _, local = found
            out = svc.submit(gid, command.to_json())
            assert out.ok, out.error
            if out.version == held[""]["version"]:
                continue  # nothing the phones see changed
            rec = svc.record(gid)
            version, state = rec.current
            for v in viewers:
                f = frames(svc, gid, v)
                assert f.view == _render(rec, RULES, version, state, v, tuple(rec.recent),
                                         rec.cites)
                assert f.patch is not None and f.base == held[v]["version"]
                assert sent(apply(held[v], patch_ops(f.patch))) == sent(f.view)
                held[v] = copy.deepcopy(f.view)
                for p in f.view["players"]:
                    hand = p["items"]
                    assert ("cards" in hand) == (p["id"] == v), (v, p["id"])
    finally:
        svc.stop()


def sent(view: Any) -> Any:
    """``view`` as a phone receives it (its messages as data)."""
    return json.loads(dumps(view))


def patch_ops(frame: bytes) -> list[Any]:
    """The operations of an ``event: patch`` frame."""
    data = frame.split(b"data: ", 1)[1].strip()
    ops: list[Any] = json.loads(data)["ops"]
    return ops
