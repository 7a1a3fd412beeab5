"""Replay: the state at every step equals the live game's state after that command, forwards,
backwards and by jumps; undone moves are not replayed; an export opens on a friend's
companion and replays the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.engine.story import Row, rows_of
from companion.engine.types import Event, GameSetup
from companion.service import game, script
from companion.service.game_service import GameService
from companion.service.replay import EVERY, Replay
from tests.playing import fingerprint

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ONE_PER_EDITION = ["mario-three-players.json", "pokemon-three-trainers.json",
                   "starwars-digital.json", "monopolino-3-players.json",
                   "master-trainer-two-players.json"]


def played(name: str) -> tuple[list[Row], list[dict[str, object]]]:
    """The example's log as the service stores it (one cmd per command) and the live
    state's fingerprint after each command (index 0: the game as it began)."""
    data = json.loads((EXAMPLES / name).read_text("utf-8"))
    setup = GameSetup.from_json(script.script_setup(data))
    opening = game.new_game(setup)
    state = game.replay(opening)
    log: list[Row] = [(i + 1, 0, 0.0, e) for i, e in enumerate(opening)]
    live = [fingerprint(state)]
    for n, step in enumerate(data["steps"], 1):
        events, state = game.step(state, script.parse_step(state, step))
        log += [(len(log) + 1, n, float(n), e) for e in events]
        live.append(fingerprint(state))
    return log, live


@pytest.mark.parametrize("name", ONE_PER_EDITION)
def test_every_step_replays_to_the_live_state(name: str) -> None:
    log, live = played(name)
    replay = Replay.of("g", log)
    assert replay.last == len(live) - 1 > EVERY
    for step in range(replay.last + 1):  # forwards
        assert fingerprint(replay.state(step)) == live[step], f"step {step}"
    fresh = Replay.of("g", log)
    for step in (replay.last, 0, EVERY + 3, 2, replay.last - 1, EVERY):  # jumps and back
        assert fingerprint(fresh.state(step)) == live[step], f"step {step}"


def test_a_replay_view_is_the_live_view_with_the_lines_said_then() -> None:
    log, _ = played("mario-two-players.json")
    replay = Replay.of("g", log)
    view = replay.view(5, "mario")
    live = game.view(replay.state(5), "mario")
    assert {k: view[k] for k in live} == live
    said = [e.say for _, cmd, _, e in log if cmd <= 5 and e.say]
    assert view["log"] == said[-12:]
    assert view["replay"]["said"] == [e.say for _, cmd, _, e in log if cmd == 5 and e.say]
    assert view["replay"]["step"] == 5 and view["replay"]["last"] == replay.last
    with pytest.raises(IndexError, match="steps go from 0 to"):
        replay.state(replay.last + 1)


def test_turns_say_where_each_turn_begins() -> None:
    log, _ = played("mario-two-players.json")
    turns = Replay.of("g", log).turns()
    assert len(turns) > 10
    assert [t["step"] for t in turns] == sorted(t["step"] for t in turns)


def test_an_undone_move_is_not_a_step_and_an_export_replays_on_a_friends_companion(
        tmp_path: Path) -> None:
    setup = {"edition": "mario", "players": ["Zoë", "Дмитрий"], "dice": "physical",
             "seed": 5, "settings": {"order": "seated"}}
    with GameService(tmp_path / "home") as home:
        gid = home.create_game(setup).game_id
        first = home.view(gid)["current"]
        assert home.submit(gid, {"actor": first, "type": "roll", "args": {"dice": [3, 1]}}).ok
        kept = fingerprint(home.state(gid)[1])
        assert home.submit(gid, {"actor": first, "type": "buy"}).ok
        assert home.undo(gid).ok
        rows = rows_of(home.call(home.store.rows, gid))
        replay = Replay.of(gid, rows)
        assert replay.last == 1  # the opening and the roll; the undone move is gone
        assert fingerprint(replay.state(1)) == kept == fingerprint(home.state(gid)[1])
        lines = list(home.export(gid))
    with GameService(tmp_path / "friend") as friend:
        out = friend.import_game(lines)
        assert out.ok, out.error
        theirs = Replay.of(out.game_id, rows_of(friend.call(friend.store.rows, out.game_id)))
        assert fingerprint(theirs.state(theirs.last)) == kept


def test_events_keep_their_order_within_a_step() -> None:
    log, _ = played("mario-two-players.json")
    replay = Replay.of("g", log)
    seqs = [s for s, _ in replay.events]
    assert seqs == sorted(seqs)
    assert all(isinstance(e, Event) for _, e in replay.events)


@pytest.mark.parametrize("name", ONE_PER_EDITION)
def test_a_game_played_on_the_companion_replays_to_its_live_states(
        name: str, tmp_path: Path) -> None:
    """The live states are the service's own, after each command committed to its SQLite
    file; the replay is read back from that file, then stepped backwards through every
    step (each back step folds from the nearest kept state)."""
    data = json.loads((EXAMPLES / name).read_text("utf-8"))
    with GameService(tmp_path) as service:
        gid = str(service.create_game(script.script_setup(data)).game_id)
        live = [fingerprint(service.state(gid)[1])]
        for step in data["steps"]:
            out = service.submit(gid, script.parse_step(service.state(gid)[1], step))
            assert out.ok, (step, out.error)
            live.append(fingerprint(service.state(gid)[1]))
        rows = rows_of(service.call(service.store.rows, gid))
    replay = Replay.of(gid, rows)
    assert replay.last == len(live) - 1
    for step in reversed(range(replay.last + 1)):
        assert fingerprint(replay.state(step)) == live[step], f"step {step}"
