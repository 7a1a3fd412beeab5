"""The game service and its event log: what players notice when phones race, retry, undo,
or the box restarts."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.service.game_service import GameNotFound, GameService

SETUP = {"edition": "mario", "players": ["Mario", "Luigi"], "dice": "physical", "seed": 5,
         "settings": {"order": "seated"}}


@pytest.fixture
def service(tmp_path: Path) -> GameService:
    svc = GameService(tmp_path).start()
    yield svc
    svc.stop()


def new_game(service: GameService) -> str:
    out = service.create_game(SETUP)
    assert out.ok, out.error
    return out.game_id


def roll(service: GameService, gid: str, dice: list[int], actor: str = "mario", **kw: object):
    return service.submit(gid, {"actor": actor, "type": "roll", "args": {"dice": dice}}, **kw)


def test_a_command_is_committed_before_it_is_acknowledged(service: GameService,
                                                          tmp_path: Path) -> None:
    """Once the answer says ok, the events are in the files: a copy of the database and its
    log taken now (what a power cut leaves; the service holds the file itself alone)."""
    import shutil

    gid = new_game(service)
    out = roll(service, gid, [3, 1])
    assert out.ok
    (tmp_path / "cut").mkdir()
    for name in ("companion.db", "companion.db-wal"):
        shutil.copy(tmp_path / name, tmp_path / "cut" / name)
    db = sqlite3.connect(tmp_path / "cut" / "companion.db")
    (count,) = db.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (gid,)).fetchone()
    assert count == out.version
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_stale_version_is_refused_with_what_changed(service: GameService) -> None:
    """Two phones act on the same view: the second is told what changed; nothing applies."""
    gid = new_game(service)
    seen = service.view(gid)["version"]
    assert roll(service, gid, [3, 1], version=seen).ok
    after = service.view(gid)
    out = service.submit(gid, {"actor": "mario", "type": "buy"}, version=seen)
    assert not out.ok and out.code == "stale"
    assert "Toad Town" in out.error
    assert service.view(gid)["version"] == after["version"]


def test_a_retried_request_is_answered_not_applied_twice(service: GameService) -> None:
    """The same idempotency key gets the first answer again; the dice are not rolled twice."""
    gid = new_game(service)
    first = roll(service, gid, [3, 1], key="tap-1")
    again = roll(service, gid, [3, 1], key="tap-1")
    assert first.ok and again.ok and again.version == first.version and again.says == first.says
    assert service.view(gid)["version"] == first.version


def test_illegal_commands_change_nothing_and_say_why(service: GameService) -> None:
    """Out of turn, malformed, unknown: a clear message, the same version."""
    gid = new_game(service)
    v = service.view(gid)["version"]
    out = roll(service, gid, [3, 1], actor="luigi")
    assert not out.ok and "only Mario" in out.error
    out = service.submit(gid, {"actor": "mario"})
    assert not out.ok and out.code == "bad_request"
    out = service.submit(gid, ["not", "an", "object"])
    assert not out.ok and out.code == "bad_request"
    out = service.submit(gid, {"actor": "mario", "type": "teleport"})
    assert not out.ok and "no command" in out.error
    assert service.view(gid)["version"] == v
    with pytest.raises(GameNotFound):
        service.view("nope")


def test_undo_appends_an_event_and_restores_the_state(service: GameService) -> None:
    """The banker undoes a step: the state is as before, the log keeps everything."""
    gid = new_game(service)
    before = service.state(gid)[1]
    roll(service, gid, [3, 1])
    service.submit(gid, {"actor": "mario", "type": "buy"})
    assert service.state(gid)[1].owner(4) == "mario"
    out = service.undo(gid)
    assert out.ok and "undoes" in out.says[0]
    assert service.state(gid)[1].owner(4) is None
    service.undo(gid)
    assert service.state(gid)[1] == before
    history = service.history(gid)
    assert any(h["undone"] for h in history)
    assert not service.undo(gid).ok  # nothing left to undo but the game's start


def test_undo_to_any_step_then_redo_gives_the_same_roll(tmp_path: Path) -> None:
    """Undo back to an earlier command; digital dice give the same roll when redone."""
    svc = GameService(tmp_path).start()
    try:
        out = svc.create_game({**SETUP, "dice": "digital"})
        gid = out.game_id
        first = svc.submit(gid, {"actor": "mario", "type": "roll"})
        commands = svc.commands(gid)
        svc.undo(gid, cmd=commands[-1]["cmd"])
        again = svc.submit(gid, {"actor": "mario", "type": "roll"})
        assert again.says == first.says
    finally:
        svc.stop()


def test_restart_rebuilds_every_open_game_from_the_log(tmp_path: Path) -> None:
    """After a restart (even with snapshots) the game is exactly where it was."""
    svc = GameService(tmp_path, snapshot_every=5).start()
    gid = new_game(svc)
    for dice in ([3, 1], [2, 2]):
        roll(svc, gid, dice, actor=svc.view(gid)["prompt"]["to"][0])
        while svc.view(gid)["prompt"]["kind"] == "buy":
            svc.submit(gid, {"actor": svc.view(gid)["prompt"]["to"][0], "type": "buy"})
    svc.undo(gid)
    state, version = svc.state(gid)[1], svc.view(gid)["version"]
    svc.stop()
    again = GameService(tmp_path).start()
    try:
        assert again.state(gid) == (version, state)
        assert again.view(gid)["log"] == svc.view(gid)["log"]
    finally:
        again.stop()


def test_export_then_import_gives_the_same_game(service: GameService) -> None:
    """A game exported as JSON lines imports into the same state."""
    gid = new_game(service)
    roll(service, gid, [3, 1])
    lines = list(service.export(gid))
    assert json.loads(lines[0])["edition"] == "mario"
    assert "already here" in service.import_game(lines).error  # one game, not two
    with GameService(service.state_dir / "other") as other:
        out = other.import_game(lines)
        assert out.ok, out.error
        assert other.state(out.game_id)[1] == service.state(gid)[1]
        bad = other.import_game(["{}", "not json"])
        assert not bad.ok and "Not a game export" in bad.error


def test_a_bad_setup_is_refused(service: GameService) -> None:
    """Unknown edition, too many players, a bad correction: refused with the reason."""
    assert "Unknown edition" in service.create_game({**SETUP, "edition": "risk"}).error
    many = {**SETUP, "players": ["A", "B", "C", "D", "E", "F", "G"]}
    assert "2 to 6 players" in service.create_game(many).error
    bad = {**SETUP, "settings": {"board": {"spaces": {"moon": {"price": 1}}}}}
    assert "no space 'moon'" in service.create_game(bad).error


def test_banker_corrects_prices_at_setup(service: GameService) -> None:
    """Prices and rents the rulebook does not give are corrected by the banker at setup."""
    setup = {**SETUP, "settings": {"order": "seated", "board": {
        "spaces": {"toad-town": {"price": 2, "rent": 3, "name": "Toad Town Square"}}}}}
    gid = service.create_game(setup).game_id
    space = service.view(gid)["board"]["spaces"][4]
    assert (space["name"], space["price"], space["rent"]) == ("Toad Town Square", 2, 3)


def test_a_full_disk_refuses_the_command_and_loses_nothing(service: GameService) -> None:
    """When the database cannot grow (a full SD card) the command is refused with a clear
    message, the game stays as it was, and it goes on once there is room again."""
    gid = new_game(service)
    before = service.state(gid)
    conn = service.store.conn
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")

    def next_command() -> dict:
        action = service.view(gid)["actions"][0]
        args = dict(action["args"])
        if action.get("input", {}).get("kind") == "dice":
            args["dice"] = [1, 2][: action["input"]["count"]]
        return {"actor": action["actor"], "type": action["type"], "args": args}

    for _ in range(200):
        command = next_command()
        out = service.submit(gid, command)
        if not out.ok:
            break
    assert not out.ok and out.code == "storage"
    assert "could not save" in out.error
    stuck = service.state(gid)
    assert service.submit(gid, command).code == "storage"
    assert service.state(gid) == stuck
    conn.execute("PRAGMA max_page_count = 1073741823")
    assert service.submit(gid, command).ok
    assert service.state(gid)[0] > stuck[0] >= before[0]


def test_a_corrupt_database_file_is_reported_clearly(tmp_path: Path) -> None:
    """A damaged database file is refused with a message saying how to recover."""
    from companion.store.database import StoreError

    (tmp_path / "companion.db").write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="companion restore"):
        GameService(tmp_path)


def test_a_finished_game_is_backed_up(tmp_path: Path) -> None:
    """When a game ends the database is exported to the backups folder, ready to restore."""
    from companion.platform.backup import list_backups

    svc = GameService(tmp_path).start()
    try:
        gid = new_game(svc)
        assert list_backups(tmp_path / "backups") == []
        assert svc.submit(gid, {"actor": "banker", "type": "end_game"}).ok
        svc.call(lambda: None)  # the backup is queued behind the answer
        backups = list_backups(tmp_path / "backups")
        assert len(backups) == 1 and "finished" in backups[0].name
        db = sqlite3.connect(backups[0])
        assert db.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (gid,)).fetchone()[0]
        db.close()
    finally:
        svc.stop()
