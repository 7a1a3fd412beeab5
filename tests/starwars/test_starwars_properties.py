"""Star Wars: properties of random legal play (money, replay, undo and redo)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from starwars_play import random_game

from companion.service import game

GAMES = settings(max_examples=12, deadline=None, derandomize=True)


@GAMES
@given(seed=st.integers(0, 10**9), players=st.integers(2, 4), harsh=st.booleans())
def test_money_conserved_and_never_negative(seed: int, players: int, harsh: bool) -> None:
    """Players + Bank + pot stay constant and no balance goes below zero (checked after every
    event inside random_game); every random game reaches its end."""
    state, _, _ = random_game(seed, players, harsh=harsh)
    assert state.finished
    assert all(p.money >= 0 for p in state.players)


@GAMES
@given(seed=st.integers(0, 10**9), players=st.integers(2, 4), harsh=st.booleans())
def test_replay_equals_live_state(seed: int, players: int, harsh: bool) -> None:
    """Replaying the event log rebuilds exactly the live state."""
    state, log, _ = random_game(seed, players, harsh=harsh)
    assert game.replay(log) == state


@GAMES
@given(seed=st.integers(0, 10**9), players=st.integers(2, 4), harsh=st.booleans())
def test_undo_then_redo(seed: int, players: int, harsh: bool) -> None:
    """Undo (replay without a command's events) gives the state before it; redo (deciding the
    same command again) gives the same events and the same state after it."""
    _, log, commands = random_game(seed, players, harsh=harsh)
    rnd = random.Random(seed)
    ends = [n for _, n, _ in commands[1:]] + [len(log)]
    picks = rnd.sample(range(len(commands)), min(6, len(commands)))
    for k in picks:
        cmd, start, before = commands[k]
        end = ends[k]
        assert game.replay(log[:start]) == before
        redo = game.decide(before, cmd)
        assert redo == log[start:end]
        assert game.replay(log[start:end], before) == game.replay(log[:end])
