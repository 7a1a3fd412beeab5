"""A move queued by the phones' front is answered before the slow listeners (the table's
OLED) and the housekeeping run; a move from a caller that waits (the CLI, the table) is
answered after them, as before, so it sees the screen already updated."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.service.game_service import GameService

SETUP = {"edition": "mario", "players": ["Mario", "Luigi"], "dice": "physical", "seed": 5,
         "settings": {"order": "seated"}}
ROLL = {"actor": "mario", "type": "roll", "args": {"dice": [3, 1]}}


class Oled:
    """A listener that holds the service thread until the test releases it."""

    def __init__(self) -> None:
        self.drawing = threading.Event()
        self.release = threading.Event()
        self.release.set()
        self.seen: list[int] = []

    def __call__(self, game_id: str, version: int, notice: Any) -> None:
        self.drawing.set()
        self.release.wait(30)
        self.seen.append(version)


@pytest.fixture
def service(tmp_path: Path) -> Iterator[GameService]:
    with GameService(tmp_path) as svc:
        yield svc


def test_a_queued_move_is_answered_while_the_screen_still_draws(service: GameService) -> None:
    oled = Oled()
    service.subscribe(oled)
    gid = service.create_game(SETUP).game_id
    oled.release.clear()
    oled.drawing.clear()
    answered = threading.Event()
    fut = service.submit_later(gid, ROLL, then=lambda f: answered.set())
    assert fut is not None
    assert oled.drawing.wait(10)
    assert answered.wait(10), "the phone's answer waited for the screen"
    out = fut.result(0)
    assert out.ok and oled.seen[-1] < out.version  # the screen has not finished this move
    oled.release.set()
    service.call(lambda: None)  # the next item queued runs after the screen had the move
    assert out.version in oled.seen


def test_a_waiting_caller_is_answered_after_the_screen_drew(service: GameService) -> None:
    oled = Oled()
    service.subscribe(oled)
    gid = service.create_game(SETUP).game_id
    out = service.submit(gid, ROLL)
    assert out.ok and oled.seen[-1] == out.version
