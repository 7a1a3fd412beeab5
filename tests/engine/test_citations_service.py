"""The citation travels with the event: stored in the SQLite log, returned by the history
API with its edition, section and quote; a database from before citations still opens."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.service.game_service import GameService

SETUP = {"edition": "mario", "players": ["Mario", "Luigi"], "dice": "physical", "seed": 5,
         "settings": {"order": "seated"}}


@pytest.fixture
def service(tmp_path: Path) -> Iterator[GameService]:
    svc = GameService(tmp_path).start()
    yield svc
    svc.stop()


def test_history_says_which_rule_took_the_coins(service: GameService, tmp_path: Path) -> None:
    """Mario rolls 3+1: Bowser (black die 1) moves first; Mario buys Toad Town. The purchase
    in the history cites the Buy or Auction section word for word; a say with no automatic
    rule behind it has no cite."""
    gid = service.create_game(SETUP).game_id
    assert service.submit(gid, {"actor": "mario", "type": "roll", "args": {"dice": [3, 1]}}).ok
    assert service.submit(gid, {"actor": "mario", "type": "buy"}).ok
    rows = service.history(gid)
    bought = next(r for r in rows if "buys" in r["say"])
    assert bought["citation"]["id"] == "buy"
    assert bought["citation"]["section"] == "Buy or Auction"
    assert bought["citation"]["edition"] == "Monopoly: The Super Mario Bros. Movie Edition"
    assert bought["citation"]["quote"].startswith("When you land on a location that is unowned")
    assert bought["cite"].startswith("Monopoly: The Super Mario Bros. Movie Edition rulebook, "
                                     "Buy or Auction: \u201cWhen you land")
    moved = next(r for r in rows if "moves 4" in r["say"])
    assert moved["citation"]["id"] == "move"
    started = rows[0]
    assert "cite" not in started and "citation" not in started
    db = service.store.conn  # the running service holds the file alone
    stored = {c for (c,) in service.call(lambda: db.execute(
        "SELECT cite FROM events WHERE game_id = ?", (gid,)).fetchall())}
    assert {"buy", "move", ""} <= stored


def test_a_database_written_before_citations_opens_and_keeps_its_games(tmp_path: Path) -> None:
    """The events table of an older box has no cite column: it is added, old rows read ""."""
    svc = GameService(tmp_path).start()
    gid = svc.create_game(SETUP).game_id
    assert svc.submit(gid, {"actor": "mario", "type": "roll", "args": {"dice": [3, 1]}}).ok
    before = svc.view(gid)
    svc.stop()
    db = sqlite3.connect(tmp_path / "companion.db")
    db.execute("ALTER TABLE events DROP COLUMN cite")
    db.commit()
    db.close()
    svc = GameService(tmp_path).start()
    try:
        assert svc.view(gid)["players"] == before["players"]
        assert all("citation" not in r for r in svc.history(gid))
        assert svc.submit(gid, {"actor": "mario", "type": "buy"}).ok
        assert any(r.get("citation", {}).get("id") == "buy" for r in svc.history(gid))
    finally:
        svc.stop()


def test_the_view_gives_the_rule_beside_each_line_of_just_now(tmp_path: Path) -> None:
    """``log_cites`` runs beside ``log``: the rule of each line, "" where none applied; it
    survives a restart (rebuilt from the log)."""
    service = GameService(tmp_path).start()
    gid = service.create_game(SETUP).game_id
    assert service.submit(gid, {"actor": "mario", "type": "roll", "args": {"dice": [3, 1]}}).ok
    assert service.submit(gid, {"actor": "mario", "type": "buy"}).ok
    view = service.view(gid)
    assert len(view["log_cites"]) == len(view["log"])
    lines = dict(zip(view["log"], view["log_cites"], strict=True))
    bought = next(say for say in lines if "buys" in say)
    assert "Buy or Auction" in lines[bought]
    assert lines[view["log"][0]] == ""  # "A game of ... begins."
    service.stop()
    again = GameService(tmp_path).start()
    try:
        assert again.view(gid)["log_cites"] == view["log_cites"]
    finally:
        again.stop()


def test_an_export_keeps_its_citations_on_import(tmp_path: Path) -> None:
    """A game moved to another box still says why it took the coins."""
    with GameService(tmp_path / "a") as first:
        gid = first.create_game(SETUP).game_id
        assert first.submit(gid, {"actor": "mario", "type": "roll",
                                  "args": {"dice": [3, 1]}}).ok
        assert first.submit(gid, {"actor": "mario", "type": "buy"}).ok
        lines = list(first.export(gid))
        cited = [r.get("citation", {}).get("id") for r in first.history(gid)]
    with GameService(tmp_path / "b") as second:
        out = second.import_game(lines)
        assert out.ok, out.error
        assert [r.get("citation", {}).get("id") for r in second.history(out.game_id)] == cited
    assert "buy" in cited
