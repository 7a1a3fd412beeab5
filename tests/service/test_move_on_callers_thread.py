"""A phone's move is decided and committed on the front's own thread when the game service is
idle (no hand-over to the service thread and back, each a wait for a sleeping core), while
the table's OLED still draws on the service thread; a move that arrives while another write
runs waits its turn, in order; nothing is ever written by two threads at once."""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.engine import game
from companion.service import writer_thread
from companion.service.game_service import GameService
from companion.store import database as store_mod

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from bench_engine import random_command  # noqa: E402

SETUP = {"edition": "mario", "players": ["Mario", "Дмитрий"], "dice": "physical", "seed": 5,
         "settings": {"order": "seated"}}
ROLL = {"actor": "mario", "type": "roll", "args": {"dice": [3, 1]}}


class Listener:
    """Records the thread each commit was heard on; ``hold`` keeps the thread until released."""

    def __init__(self) -> None:
        self.threads: list[int] = []
        self.versions: list[int] = []
        self.drawing = threading.Event()
        self.release = threading.Event()
        self.release.set()

    def __call__(self, game_id: str, version: int, notice: Any) -> None:
        self.threads.append(threading.get_ident())
        self.versions.append(version)
        self.drawing.set()
        self.release.wait(30)


@pytest.fixture
def service(tmp_path: Path) -> Iterator[GameService]:
    with GameService(tmp_path) as svc:
        yield svc


def test_an_idle_service_answers_the_move_at_once_and_the_screen_draws_elsewhere(
        service: GameService) -> None:
    phones, oled = Listener(), Listener()
    service.subscribe(phones, first=True)
    service.subscribe(oled)
    gid = service.create_game(SETUP).game_id
    service.call(lambda: None)  # the start's screen drawn: the service is idle
    oled.release.clear()
    oled.drawing.clear()
    fut = service.submit_later(gid, ROLL)
    assert fut is not None and fut.done(), "the move waited for the service thread"
    out = fut.result(0)
    assert out.ok and phones.versions[-1] == out.version
    assert phones.threads[-1] == threading.get_ident()  # decided, committed, told here
    assert oled.drawing.wait(10)  # the screen draws it, on the service thread
    assert oled.threads[-1] != threading.get_ident()
    oled.release.set()
    service.call(lambda: None)
    assert oled.versions[-1] == out.version


def test_a_move_while_another_write_runs_waits_its_turn_in_order(
        service: GameService) -> None:
    oled = Listener()
    service.subscribe(oled)
    gid = service.create_game(SETUP).game_id
    service.call(lambda: None)
    oled.release.clear()
    oled.drawing.clear()
    first = service.submit_later(gid, ROLL)  # answered; its screen holds the service thread
    assert first is not None and first.result(0).ok
    assert oled.drawing.wait(10)
    second = service.submit_later(gid, {"actor": "mario", "type": "auction", "args": {}})
    assert second is not None
    assert not second.done(), "a move ran while the service thread still held the writer"
    oled.release.set()
    out = second.result(10)
    assert out.ok and out.version > first.result(0).version
    service.call(lambda: None)
    assert oled.versions == sorted(oled.versions)


def test_a_listener_asking_the_service_during_the_move_does_not_wait_for_itself(
        service: GameService) -> None:
    """The phones' front reads the service while it hears of a commit (the game list, a
    view): on the move's own thread that read runs at once instead of queueing behind the
    very write that is running."""
    seen: list[int] = []

    def page(game_id: str, version: int, notice: Any) -> None:
        if notice is None:
            seen.append(len(service.games()))  # service.call, from inside the write

    service.subscribe(page, first=True)
    gid = service.create_game(SETUP).game_id
    service.call(lambda: None)
    done: list[Any] = []
    t = threading.Thread(target=lambda: done.append(service.submit_later(gid, ROLL)))
    t.start()
    t.join(10)
    assert not t.is_alive(), "the move waited for itself"
    assert done[0] is not None and done[0].result(10).ok and seen[-1] == 1


def test_stopping_lets_a_move_on_the_callers_thread_finish_and_its_screen_draw(
        tmp_path: Path) -> None:
    oled = Listener()
    svc = GameService(tmp_path).start()
    svc.subscribe(oled)
    gid = svc.create_game(SETUP).game_id
    svc.call(lambda: None)
    fut = svc.submit_later(gid, ROLL)
    assert fut is not None and fut.result(10).ok
    svc.stop()
    assert oled.versions[-1] == fut.result(0).version


def a_legal_move(service: GameService, gid: str, rnd: random.Random) -> dict[str, Any]:
    """A legal command of the game as it stands (the benchmark's random player)."""
    actions = [a for a in game.legal_actions(service.state(gid)[1])
               if a.type != "declare_bankruptcy"]
    return random_command(rnd, actions).to_json()


def test_on_a_slow_card_moves_go_back_to_the_service_thread_and_the_loop_stays_free(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """An SD card whose commit takes many milliseconds would stall every phone's connection for each
    move run on the page server's loop: once moves' writes are slow, they are handed to the
    service thread again (and come back once the card is quick)."""
    # the newest write alone decides, and "slow" is far from any real commit here, so the
    # test does not depend on this machine's disk or load
    monkeypatch.setattr(writer_thread, "WRITE_WEIGHT", 1.0)
    monkeypatch.setattr(writer_thread, "QUICK_WRITE", 0.25)
    phones = Listener()
    service.subscribe(phones, first=True)
    gid = service.create_game(SETUP).game_id
    service.call(lambda: None)
    real = store_mod.Store.transaction

    def slow(self: store_mod.Store) -> Any:
        time.sleep(0.5)  # an SD card having a bad moment
        return real(self)

    rnd = random.Random(3)
    here = threading.get_ident()

    def moves(n: int) -> None:
        for _ in range(n):
            fut = service.submit_later(gid, a_legal_move(service, gid, rnd))
            assert fut is not None and fut.result(10).ok
            service.call(lambda: None)

    monkeypatch.setattr(store_mod.Store, "transaction", slow)
    moves(2)  # the first runs here and shows the card slow; the second goes to the thread
    assert phones.threads[-1] != here, "a slow commit still ran on the caller's thread"
    monkeypatch.setattr(store_mod.Store, "transaction", real)
    moves(2)  # the first, on the thread, shows the card quick again; the second runs here
    assert phones.threads[-1] == here, "a quick card's moves stayed on the service thread"
