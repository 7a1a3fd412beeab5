"""Fixtures: a real Mosquitto (shipped config and ACL) in a tmp dir, and the venue screen."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from venue_helpers import MOSQUITTO, SCREEN_PASSWORD, Broker, wait_until

from companion.venue.board import Board
from companion.venue.subscriber import ScreenSubscriber

TABLES = [f"t{n:02d}" for n in range(1, 21)]


def _broker(tmp_path: Path) -> Broker:
    if not os.path.exists(MOSQUITTO):
        pytest.skip("needs Debian's mosquitto (./scripts/test installs it as root)")
    users = {"screen": SCREEN_PASSWORD, **{t: f"pw-{t}" for t in TABLES}}
    (tmp_path / "broker").mkdir()
    return Broker(tmp_path / "broker", users)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    b = _broker(tmp_path)
    b.start()
    yield b
    b.stop()


@pytest.fixture
def broker_off(tmp_path: Path) -> Iterator[Broker]:
    """Configured on its port, not started: the test starts it when it wants."""
    b = _broker(tmp_path)
    yield b
    b.stop()


@pytest.fixture
def screen(broker: Broker) -> Iterator[tuple[Board, ScreenSubscriber]]:
    board = Board()
    sub = ScreenSubscriber(board, "127.0.0.1", broker.port, venue="cafe", username="screen",
                           password=SCREEN_PASSWORD, client_id="test-screen").start()
    wait_until(sub.connected.is_set, what="the screen to connect")
    yield board, sub
    sub.stop()
