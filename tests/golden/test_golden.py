"""Saved games survive upgrades: the golden logs recorded from earlier versions (see
record.py) replay to the same views, prompts and to-do lists, and resume where they stopped."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.service import script
from companion.service.game_service import GameService
from tests.playing import (
    action_changes,
    check_golden,
    fingerprint,
    recorded_views,
    replay_export,
    resume,
    seat_views,
    view_changes,
)

GOLDEN = Path(__file__).resolve().parent
ROOT = GOLDEN.parents[1]
FINALS: dict[str, Any] = json.loads((GOLDEN / "finals.json").read_text("utf-8"))
LOGS: dict[str, Any] = FINALS["_golden"]
VIEWS: dict[str, Any] = recorded_views(str(GOLDEN))


def test_every_edition_has_a_finished_and_a_mid_turn_golden_game() -> None:
    examples = (ROOT / "examples").glob("*.json")
    editions = {json.loads(p.read_text("utf-8"))["edition"] for p in examples}
    mid = {json.loads((ROOT / "examples" / e["example"]).read_text("utf-8"))["edition"]
           for n, e in LOGS.items() if n.endswith(".mid-turn")}
    assert mid == editions
    for name, entry in LOGS.items():
        if name.endswith(".mid-turn"):
            assert entry["fingerprint"]["prompt"] is not None


@pytest.mark.parametrize("name", sorted(LOGS))
def test_golden_log_replays_to_the_same_game(name: str) -> None:
    entry = LOGS[name]
    lines = (GOLDEN / "logs" / entry["log"]).read_text("utf-8").splitlines()
    assert_same_game(replay_export(lines), name)


def assert_same_game(state: Any, name: str) -> None:
    """``state`` is the game golden log ``name`` recorded: prompt, to-do list, generator,
    legal actions (a later version may add the banker's), and views that still show
    everything they showed (the page may learn more about a game, never forget or change
    what it showed)."""
    got = fingerprint(state)
    want = {k: v for k, v in LOGS[name]["fingerprint"].items()
            if k not in ("views_sha256", "actions")}
    assert {k: got[k] for k in want} == want
    assert action_changes(LOGS[name]["fingerprint"]["actions"], got["actions"]) == []
    assert view_changes(VIEWS[name], seat_views(state)) == []


def test_action_changes_allows_a_new_banker_tool_and_nothing_else() -> None:
    """A later version may offer the banker a new tool (ending a Master Trainer game); what
    a player may do in a saved game never changes."""
    roll = '{"actor": "ash", "label": "Roll", "type": "roll"}'
    end = '{"actor": "banker", "label": "End the game now", "type": "end_game"}'
    assert action_changes([roll], [roll, end]) == []
    assert action_changes([roll], []) == [f"no longer offered: {roll}"]
    other = '{"actor": "ash", "label": "Roll again", "type": "roll"}'
    assert action_changes([roll], [roll, other]) == [f"newly offered to a player: {other}"]


def test_view_changes_allows_new_keys_and_nothing_else() -> None:
    before = {"players": [{"name": "Ana", "money": 5}], "pot": 0}
    assert view_changes(before, {"players": [{"name": "Ana", "money": 5, "colour": 1}],
                                 "pot": 0, "extra": True}) == []
    assert view_changes(before, {"players": [{"name": "Ana", "money": 6}], "pot": 0}) == [
        "players[0].money: 5 is now 6"]
    assert view_changes(before, {"players": [], "pot": 0}) == ["players: 1 items, now 0"]
    assert view_changes(before, {"players": [{"name": "Ana", "money": 5}]}) == ["pot: missing"]


@pytest.mark.parametrize("name", sorted(n for n in LOGS if n.endswith(".mid-turn")))
def test_a_game_saved_mid_turn_resumes_and_ends_as_the_uninterrupted_one(name: str) -> None:
    """Saved by the old version, finished by this one: it ends exactly as the same game
    played through by this version (whatever rule fixes this version brings)."""
    entry = LOGS[name]
    lines = (GOLDEN / "logs" / entry["log"]).read_text("utf-8").splitlines()
    data = json.loads((ROOT / "examples" / entry["example"]).read_text("utf-8"))
    state = resume(lines, data, entry["steps_run"])
    assert fingerprint(state) == fingerprint(script.run_script(data).state)


@pytest.mark.parametrize("example", sorted(p.name for p in (ROOT / "examples").glob("*.json")))
def test_every_example_script_ends_in_the_recorded_final_state(example: str) -> None:
    data = json.loads((ROOT / "examples" / example).read_text("utf-8"))
    final = json.loads(json.dumps(script.run_script(data).final(), default=str))
    assert view_changes(FINALS[example], final) == []


def test_check_golden_reports_nothing() -> None:
    assert check_golden(str(GOLDEN)) == []


@pytest.mark.parametrize("name", sorted(n for n in LOGS if n.endswith(".mid-turn")))
def test_an_old_export_imports_into_the_service_and_survives_a_restart(
        name: str, tmp_path: Path) -> None:
    """The whole path a Pi takes after an update: import the old export into real SQLite,
    stop, start again (the game is rebuilt from the stored rows) and play on."""
    entry = LOGS[name]
    lines = (GOLDEN / "logs" / entry["log"]).read_text("utf-8").splitlines()
    with GameService(tmp_path) as svc:
        out = svc.import_game(lines, unchecked=True)  # recorded before commands were
        assert out.ok, out.error
        game_id = out.game_id
        assert_same_game(svc.state(game_id)[1], name)
    with GameService(tmp_path) as svc:
        state = svc.state(game_id)[1]
        assert_same_game(state, name)
        step = json.loads((ROOT / "examples" / entry["example"]).read_text("utf-8"))[
            "steps"][entry["steps_run"]]
        done = svc.submit(game_id, script.parse_step(state, step).to_json())
        assert done.ok, done.error
