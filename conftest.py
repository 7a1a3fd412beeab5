"""The fixture every edition's tests play with (one harness: tests.playing.TableGame)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.playing import TableGame


@pytest.fixture
def play() -> Callable[..., TableGame]:
    """``play(edition, players, dice="physical", seed=1, order="seated", settings=None)``:
    a new game of any edition, played through decide/apply with its whole log kept."""

    def start(edition: str, players: list[Any], **options: Any) -> TableGame:
        return TableGame.start(edition, players, **options)

    return start
