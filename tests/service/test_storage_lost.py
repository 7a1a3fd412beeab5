"""The database file deleted or replaced while the service runs (issue #26 item 5): the next
commit notices, nothing more is acknowledged into a file nobody will open again, the player
is told, and what the process still holds is rescued into a new database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from companion.service.game_service import GameService

SETUP = {"edition": "mario", "players": ["Mario", "Luigi"], "dice": "physical", "seed": 5,
         "settings": {"order": "seated"}}


def legal(service: GameService, gid: str) -> dict:
    """The first legal action of the game's view, as a command."""
    action = service.view(gid)["actions"][0]
    args = dict(action["args"])
    if action.get("input", {}).get("kind") == "dice":
        args["dice"] = [1, 2][: action["input"]["count"]]
    return {"actor": action["actor"], "type": action["type"], "args": args}


def play(service: GameService, gid: str, moves: int) -> int:
    """Play the first legal action ``moves`` times; the last acknowledged version."""
    version = 0
    for _ in range(moves):
        out = service.submit(gid, legal(service, gid))
        assert out.ok, out.error
        version = out.version
    return version


def test_a_deleted_database_is_noticed_rescued_and_play_goes_on(tmp_path: Path) -> None:
    notices: list[dict] = []
    service = GameService(tmp_path).start()
    service.subscribe(lambda gid, version, notice: notices.append(notice) if notice else None)
    try:
        gid = service.create_game(SETUP).game_id
        acknowledged = play(service, gid, 12)
        for name in ("companion.db", "companion.db-wal", "companion.db-shm"):
            (tmp_path / name).unlink(missing_ok=True)  # `rm companion.db*` while it runs
        refused = service.submit(gid, legal(service, gid))
        assert not refused.ok and refused.code == "storage"
        assert "deleted" in refused.error and "saved again" in refused.error
        assert any("deleted" in n["text"] for n in notices), "the page and OLED are told"
        assert (tmp_path / "companion.db").exists()
        assert service.state(gid)[0] == acknowledged  # the refused move changed nothing
        acknowledged = play(service, gid, 3)  # play goes on, into the rescued file
    finally:
        service.stop()
    with GameService(tmp_path) as again:  # the restart has every acknowledged move
        assert again.state(gid)[0] == acknowledged
        assert [g["id"] for g in again.games()] == [gid]


def test_a_replaced_database_is_left_alone_and_nothing_more_is_acknowledged(
        tmp_path: Path) -> None:
    service = GameService(tmp_path).start()
    try:
        gid = service.create_game(SETUP).game_id
        acknowledged = play(service, gid, 5)
        db = tmp_path / "companion.db"
        db.rename(tmp_path / "old.db")
        sqlite3.connect(db).execute("CREATE TABLE someone_elses (x)").connection.close()
        for _ in range(2):
            out = service.submit(gid, legal(service, gid))
            assert not out.ok and out.code == "storage" and "left alone" in out.error
    finally:
        service.stop()
    rescued = list(tmp_path.glob("companion.db.rescued-*"))
    assert len(rescued) == 1
    conn = sqlite3.connect(rescued[0])
    (version,) = conn.execute("SELECT MAX(seq) FROM events WHERE game_id = ?",
                              (gid,)).fetchone()
    assert version == acknowledged
    assert sqlite3.connect(db).execute(
        "SELECT name FROM sqlite_master").fetchall() == [("someone_elses",)]
