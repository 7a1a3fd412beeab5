"""Reading the past never slows the table's moves (issue 38 item 3): a guest cycling replays
of five long finished games took the banker's move from 2.4 to 271 ms. Replays are built off
the single writer, one at a time, with a bounded queue and cache, and without loading
finished games into the service's memory. Asserted on order and counts, never on time."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from test_history_api import app_for, play
from web_helpers import Phone

from companion.service import game
from companion.service.game_service import GameService
from companion.service.past import WAITING
from tests.service.test_import_checked import legal

SETUP = {"edition": "mario", "players": ["Ann", "Bo"], "dice": "physical", "seed": 5,
         "settings": {"order": "seated"}}


def finished_games(tmp_path: Path, n: int) -> list[str]:
    """``n`` finished games in the state directory (not in memory once it is reopened)."""
    with GameService(tmp_path) as service:
        return [play(service, "mario-two-players.json") for _ in range(n)]


class Gate:
    """A function (by default ``game.replay``, the fold of a game's events: the CPU of a
    replay) held at its first call from another thread than the test's, until the test
    opens the gate; counts the calls running at once."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.released = threading.Event()
        self.lock = threading.Lock()
        self.running = 0
        self.most = 0
        self.held = False
        self.main = threading.get_ident()

    def wrap(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def held(*args: Any, **kw: Any) -> Any:
            with self.lock:
                self.running += 1
                self.most = max(self.most, self.running)
                hold = not self.held and threading.get_ident() != self.main
                self.held = self.held or hold
            try:
                if hold:
                    self.entered.set()
                    assert self.released.wait(60), "the test never opened the gate"
                return real(*args, **kw)
            finally:
                with self.lock:
                    self.running -= 1

        return held

    @contextmanager
    def installed(self, monkeypatch: pytest.MonkeyPatch,
                  *where: tuple[Any, str]) -> Iterator[Gate]:
        for module, name in where or ((game, "replay"),):
            monkeypatch.setattr(module, name, self.wrap(getattr(module, name)))
        try:
            yield self
        finally:
            self.released.set()


def in_thread(fn: Callable[[], Any]) -> tuple[threading.Thread, queue.Queue[Any]]:
    out: queue.Queue[Any] = queue.Queue()
    thread = threading.Thread(target=lambda: out.put(fn()), daemon=True)
    thread.start()
    return thread, out


def test_a_move_is_answered_while_a_replay_is_being_built(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    [old] = finished_games(tmp_path, 1)
    with GameService(tmp_path) as service:
        app = app_for(service)
        tonight = service.create_game(SETUP).game_id
        guest = Phone(app.test_client()).login()
        with Gate().installed(monkeypatch) as gate:
            reader, answer = in_thread(lambda: guest.get(f"/api/games/{old}/replay").status_code)
            assert gate.entered.wait(60), "the replay never began"
            _, moved = in_thread(lambda: service.submit(tonight, legal(service, tonight)))
            # before: the replay's fold ran on the service's one writer, and the move
            # waited behind it
            out = moved.get(timeout=30)
            assert out.ok, out.error
            assert reader.is_alive() and answer.empty(), "the move came after the replay"
            gate.released.set()
            assert answer.get(timeout=60) == 200


def test_replays_asked_at_once_are_built_one_at_a_time_and_the_rest_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    games = finished_games(tmp_path, WAITING + 3)
    with GameService(tmp_path) as service:
        app = app_for(service)
        phones = [Phone(app.test_client()).login() for _ in games]
        with Gate().installed(monkeypatch) as gate:
            first, first_answer = in_thread(
                lambda: phones[0].get(f"/api/games/{games[0]}/replay").status_code)
            assert gate.entered.wait(60)
            answers: queue.Queue[Any] = queue.Queue()
            for p, g in zip(phones[1:], games[1:], strict=True):
                threading.Thread(target=lambda p=p, g=g: answers.put(
                    p.get(f"/api/games/{g}/replay")), daemon=True).start()
            # WAITING wait their turn; the others are told at once that the companion is busy
            refused = [answers.get(timeout=30) for _ in games[1 + WAITING:]]
            assert [r.status_code for r in refused] == [503] * (len(games) - 1 - WAITING)
            assert "busy" in refused[0].get_json()["error"]
            assert first.is_alive() and answers.empty()
            gate.released.set()
            assert first_answer.get(timeout=60) == 200
            assert [answers.get(timeout=60).status_code for _ in range(WAITING)] == [
                200] * WAITING
        assert gate.most == 1, f"{gate.most} replays were built at once"
        # reading the past loaded no finished game into the table's memory (before: each
        # replay kept its game in memory for good)
        assert not any(service.loaded(g) for g in games)


def test_the_replays_kept_are_bounded_by_their_events(tmp_path: Path) -> None:
    games = finished_games(tmp_path, 4)
    with GameService(tmp_path) as service:
        app = app_for(service)
        reader = app.extensions["past"]
        reader.kept_events = 600  # two of these games (277 events each)
        banker = Phone(app.test_client()).login()
        for gid in games * 2:
            assert banker.get(f"/api/games/{gid}/replay?step=3").status_code == 200
            assert reader.kept() <= 600
        assert reader.kept() > 0


def test_a_move_is_answered_while_a_phone_reads_the_games_log(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The History tab's log of tonight's game (``/api/games/{id}/history``) is read and
    decoded off the writer too."""
    import companion.service.past
    import companion.store.database

    with GameService(tmp_path) as service:
        app = app_for(service)
        tonight = service.create_game(SETUP).game_id
        for _ in range(10):
            assert service.submit(tonight, legal(service, tonight)).ok
        banker = Phone(app.test_client()).login()
        decoders = [(m, "data_from_stored") for m in (companion.store.database,
                                                                   companion.service.past)
                    if hasattr(m, "data_from_stored")]
        with Gate().installed(monkeypatch, *decoders) as gate:
            reader, answer = in_thread(
                lambda: banker.get(f"/api/games/{tonight}/history").status_code)
            assert gate.entered.wait(60), "the log was never read"
            _, moved = in_thread(lambda: service.submit(tonight, legal(service, tonight)))
            out = moved.get(timeout=30)  # before: the log was decoded on the writer
            assert out.ok, out.error
            assert reader.is_alive() and answer.empty(), "the move came after the log"
            gate.released.set()
            assert answer.get(timeout=60) == 200


def test_a_phone_that_never_joined_loads_no_finished_game(tmp_path: Path) -> None:
    """The list of games names every finished one; a phone with no code asking for their
    views, streams or logs is refused before any is loaded into the table's memory (before:
    each was replayed on the writer and kept there for good)."""
    games = finished_games(tmp_path, 2)
    with GameService(tmp_path) as service:
        stranger = Phone(app_for(service).test_client())
        listed = {g["id"] for g in stranger.get("/api/games").get_json()}
        assert set(games) <= listed
        for gid in games:
            for path in ("", "/history", "/events", "/story", "/replay"):
                assert stranger.get(f"/api/games/{gid}{path}").status_code == 403, path
        assert not any(service.loaded(g) for g in games)
