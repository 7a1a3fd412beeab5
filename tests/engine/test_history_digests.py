"""The events rewritten as the game's history (#28 item 3) change no game: every golden log
replays, and every example game plays, to the same states and tells the players the same
words as the code before (the digests in state_digests.json were taken on that code).

Record again only for a change that is meant to change a game:
``python tests/engine/test_history_digests.py``."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from companion.engine.types import GameSetup
from companion.service import game, script
from tests.playing import replay_export

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "logs"
EXAMPLES = ROOT / "examples"
DIGESTS = Path(__file__).with_name("state_digests.json")


def plain(value: Any) -> Any:
    """``value`` (a state or any part of it) as plain JSON-able data, the same for equal
    values whatever container types hold them."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"@": type(value).__name__,
                **{f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    if isinstance(value, Mapping):
        return {"@map": sorted([repr(k), plain(v)] for k, v in value.items())}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return repr(value)


def digest(value: Any) -> str:
    text = json.dumps(plain(value), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def golden_digest(name: str) -> str:
    lines = (GOLDEN / name).read_text("utf-8").splitlines()
    return digest(replay_export(lines))


def example_digests(name: str) -> dict[str, str]:
    """The digests of the state after every step of example ``name`` and of its words."""
    data = json.loads((EXAMPLES / name).read_text("utf-8"))
    state = game.replay(game.new_game(GameSetup.from_json(script.script_setup(data))))
    states, says = [], []
    for step in data["steps"]:
        events, state = game.step(state, script.parse_step(state, step))
        states.append(digest(state))
        says += [e.say for e in events if e.say]
    return {"steps": digest(states), "says": digest(says)}


def record() -> dict[str, Any]:
    return {"golden": {p.name: golden_digest(p.name) for p in sorted(GOLDEN.glob("*.jsonl"))},
            "examples": {p.name: example_digests(p.name)
                         for p in sorted(EXAMPLES.glob("*.json"))}}


RECORDED: dict[str, Any] = json.loads(DIGESTS.read_text("utf-8")) if DIGESTS.exists() else {}


@pytest.mark.parametrize("name", sorted(RECORDED.get("golden", {})))
def test_golden_log_replays_to_the_state_it_did_before_the_events_were_renamed(
        name: str) -> None:
    assert golden_digest(name) == RECORDED["golden"][name]


@pytest.mark.parametrize("name", sorted(RECORDED.get("examples", {})))
def test_example_game_plays_to_the_same_states_and_words_as_before(name: str) -> None:
    assert example_digests(name) == RECORDED["examples"][name]


def test_every_golden_log_and_example_has_a_recorded_digest() -> None:
    assert sorted(RECORDED["golden"]) == sorted(p.name for p in GOLDEN.glob("*.jsonl"))
    assert sorted(RECORDED["examples"]) == sorted(p.name for p in EXAMPLES.glob("*.json"))


if __name__ == "__main__":
    DIGESTS.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n", "utf-8")
    sys.exit(0)
