"""Twenty tables of four on one real Mosquitto: the venue screen shows every table exactly as
the table has it, every event once, even while the broker dies and connections drop."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest
from venue_helpers import (
    FOUR_PLAYERS,
    ROOT,
    WAIT,
    Broker,
    ScreenServer,
    SimTable,
    StreamWatcher,
    caught_up,
    run_all,
    wait_until,
)

from companion.venue.board import Board
from companion.venue.subscriber import ScreenSubscriber

pytestmark = pytest.mark.long(2)


def make_tables(tmp_path: Path, broker: Broker, n: int,
                scripts: list[str] = FOUR_PLAYERS) -> list[SimTable]:
    return [SimTable(tmp_path, f"t{i:02d}", broker.port,
                     ROOT / "examples" / scripts[(i - 1) % len(scripts)])
            for i in range(1, n + 1)]


def close_all(tables: list[SimTable]) -> None:
    for t in tables:
        t.close()


def assert_each_event_shown_once(board: Board, watcher: StreamWatcher,
                                 tables: list[SimTable]) -> None:
    expected = {(t.key, t.game_id, seq) for t in tables for seq in t.lines(t.game_id)}
    wait_until(lambda: set(watcher.shown) >= expected, what="the page's stream")
    assert set(watcher.shown) == expected, "the page showed an event no table has"
    assert all(n == 1 for n in watcher.shown.values()), "an event was shown twice"
    for t in tables:
        g = board.game(t.key, t.game_id)
        assert g is not None and set(g.shown_count.values()) == {1}


def test_twenty_tables_the_screen_shows_every_table_as_it_is(tmp_path: Path, broker: Broker,
                                                            screen: tuple[Board,
                                                                          ScreenSubscriber]
                                                            ) -> None:
    board, _ = screen
    page = ScreenServer(board)
    watcher = StreamWatcher(page.url)
    tables = make_tables(tmp_path, broker, 20)
    try:
        assert watcher.ready.wait(WAIT)
        for t in tables:
            t.begin()
        run_all(tables, lambda t: t.play())
        assert all(t.done == len(t.steps) for t in tables)
        wait_until(lambda: caught_up(board, tables), what="the screen to catch up", every=0.5)
        assert_each_event_shown_once(board, watcher, tables)
        # the page's own JSON says the same: 20 tables, each on its game, with its players
        state = httpx.get(page.url + "/api/venue", timeout=30).json()
        shown = {t["key"]: t for t in state["tables"]}
        assert sorted(shown) == sorted(t.key for t in tables)
        for t in tables:
            assert shown[t.key]["online"] is True
            assert shown[t.key]["active"] == t.game_id
            assert shown[t.key]["game"] == t.digest(t.game_id)
            assert len(shown[t.key]["game"]["players"]) == 4
        # standings: one row per player per table, wins counted from finished games
        rows = {(r["key"], r["name"]): r for ed in state["standings"] for r in ed["rows"]}
        assert len(rows) == 80
        wins = sum(r["wins"] for r in rows.values())
        assert wins == sum(len(t.digest(t.game_id)["winners"]) for t in tables
                           if t.digest(t.game_id)["finished"])
    finally:
        watcher.close()
        page.close()
        close_all(tables)


def drop_connection(table: SimTable) -> int:
    """The table's Wi-Fi goes: its socket dies under it (the client must notice and redial).
    Returns the number of connections made before."""
    before = table.publisher.connections
    sock = table.publisher.client.socket()
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
    return before


def test_broker_killed_and_connections_dropped_lose_nothing(tmp_path: Path, broker: Broker,
                                                            screen: tuple[Board,
                                                                          ScreenSubscriber]
                                                            ) -> None:
    board, _ = screen
    page = ScreenServer(board)
    watcher = StreamWatcher(page.url)
    tables = make_tables(tmp_path, broker, 8, ["pokemon-four-trainers.json",
                                               "starwars-digital.json"])
    try:
        assert watcher.ready.wait(WAIT)
        for t in tables:
            t.begin()

        def upto(share: float) -> None:
            run_all(tables, lambda t: t.play(int(len(t.steps) * share)))

        upto(0.15)
        broker.kill()  # 1: the broker dies mid-game; the tables play on without it
        upto(0.35)
        broker.start()
        upto(0.45)
        before = drop_connection(tables[0])
        upto(0.55)
        wait_until(lambda: tables[0].publisher.connections > before, what="t01 to redial")
        broker.kill()  # 2
        drop_connection(tables[1])
        upto(0.7)
        broker.start()
        upto(0.8)
        broker.kill()  # 3: down and straight back up
        broker.start()
        drop_connection(tables[2])
        upto(1.0)
        assert all(t.done == len(t.steps) for t in tables), "every table kept playing"
        wait_until(lambda: caught_up(board, tables), what="the screen to catch up", every=0.5)
        assert_each_event_shown_once(board, watcher, tables)
        wait_until(lambda: all(t.publisher.owed() == 0 for t in tables),
                   what="every cursor to reach the end")
    finally:
        watcher.close()
        page.close()
        close_all(tables)


def test_a_screen_started_late_gets_every_event_from_the_retained_pages(
        tmp_path: Path, broker: Broker) -> None:
    from venue_helpers import SCREEN_PASSWORD

    tables = make_tables(tmp_path, broker, 2, ["monopolino-4-players.json"])
    try:
        for t in tables:
            t.begin()
        run_all(tables, lambda t: t.play())
        wait_until(lambda: all(t.publisher.owed() == 0 for t in tables), what="delivery")
        board = Board()
        sub = ScreenSubscriber(board, "127.0.0.1", broker.port, venue="cafe",
                               username="screen", password=SCREEN_PASSWORD,
                               client_id="late-screen").start()
        try:
            wait_until(lambda: caught_up(board, tables), what="the late screen", every=0.2)
        finally:
            sub.stop()
    finally:
        close_all(tables)


def test_a_table_without_money_counts_its_players_scores() -> None:
    """A Master Trainer table shows each player's Power Points (the view's ``score``) on the
    venue screen and in Home Assistant's standings, never 0 for all."""
    import json

    from companion.service import game, script
    from companion.venue import topics

    example = Path(__file__).resolve().parents[2] / "examples" / "master-trainer-two-players.json"
    view = game.view(script.run_script(json.loads(example.read_text("utf-8"))).state)
    got = [(p["points"], p["points_text"]) for p in topics.digest(view, "g")["players"]]
    want = [p["score"]["points"] for p in view["players"]]
    assert got == [(n, f"{n} PP") for n in want] and any(want)
