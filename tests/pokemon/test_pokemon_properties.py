"""Properties of random legal play (Monopoly: Pokémon Edition)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from pokemon_play import random_game, total_money

from companion.service import game

GAMES = dict(seed=st.integers(0, 2**32), players=st.integers(2, 4),
             dice=st.sampled_from(["digital", "physical"]), faces=st.integers(1, 6))


@settings(max_examples=12, deadline=None)
@given(**GAMES)
def test_money_conserved_and_never_negative(seed: int, players: int, dice: str,
                                            faces: int) -> None:
    """Players + Bank + pot is constant and no balance goes below zero; chips are conserved."""
    _, states, _ = random_game(seed, players, dice, steps=1500, ball_faces=faces)
    total = total_money(states[0])
    for s in states:
        assert total_money(s) == total
        assert all(p.money >= 0 for p in s.players), [(p.id, p.money) for p in s.players]
        assert s.bank >= 0, s.bank
        chips = sum(len(c) for c in s.ext["wild"].values())
        chips += sum(len(c) for c in s.ext["caught"].values())
        assert chips == 48


@settings(max_examples=8, deadline=None)
@given(**GAMES)
def test_replay_equals_live_state(seed: int, players: int, dice: str, faces: int) -> None:
    """Replaying the log rebuilds exactly the live state."""
    batches, states, _ = random_game(seed, players, dice, steps=1500, ball_faces=faces)
    assert game.replay([e for b in batches for e in b]) == states[-1]


@settings(max_examples=8, deadline=None)
@given(**GAMES)
def test_undo_then_redo(seed: int, players: int, dice: str, faces: int) -> None:
    """Undo (replay without the last command's events) gives the state before it; redo
    (deciding the same command again) gives the same events and state."""
    batches, states, commands = random_game(seed, players, dice, steps=800, ball_faces=faces)
    rnd = random.Random(seed)
    for k in sorted(rnd.sample(range(1, len(batches)), min(6, len(batches) - 1))):
        before = game.replay([e for b in batches[:k] for e in b])
        assert before == states[k - 1]
        redo = game.decide(before, commands[k - 1])
        assert redo == batches[k]
        assert game.replay(redo, before) == states[k]
