"""A move is answered before the slow listeners (the table's OLED) and the housekeeping run,
and the phones' front hears of it before the OLED does: the service has one thread and one
queue, and what a commit leaves for after its answer is queued behind it."""

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


def test_a_move_is_answered_while_the_screen_still_draws(service: GameService) -> None:
    oled = Oled()
    service.subscribe(oled)
    heard: list[tuple[str, int]] = []
    service.subscribe(lambda g, v, n: heard.append(("phones", v)), first=True)
    gid = service.create_game(SETUP).game_id
    oled.release.clear()
    oled.drawing.clear()
    answered = threading.Event()
    outs = []
    threading.Thread(target=lambda: (outs.append(service.submit(gid, ROLL)), answered.set()),
                     daemon=True).start()
    assert oled.drawing.wait(10)
    assert answered.wait(10), "the mover's answer waited for the screen"
    out = outs[0]
    assert out.ok and oled.seen[-1] < out.version  # the screen has not finished this move
    assert ("phones", out.version) in heard  # the phones heard before the screen drew
    oled.release.set()
    service.call(lambda: None)  # the next item queued runs after the screen had the move
    assert out.version in oled.seen
