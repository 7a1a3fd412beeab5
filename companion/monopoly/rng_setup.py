"""Shuffling an edition's decks from the game seed at setup."""

from __future__ import annotations

from companion.engine import rng
from companion.monopoly.board import Board


def shuffle_decks(seed: int, board: Board) -> tuple[dict[str, tuple[str, ...]], int]:
    """Every deck shuffled by the game's generator, and the generator's next state."""
    state = rng.seed_state(seed)
    decks = {}
    for name, cards in board.decks.items():
        decks[name], state = rng.shuffled(state, tuple(c.id for c in cards))
    return decks, state
