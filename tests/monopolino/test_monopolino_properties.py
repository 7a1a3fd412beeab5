"""Properties of random Monopolino games played with random legal commands."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.state import BaseState
from companion.engine.types import Command, Event, GameSetup
from companion.monopoly.state import MonopolyState
from companion.service import game

MAX_COMMANDS = 400


@dataclass
class Played:
    """A random game: its log, each command with the log length before it, and live states."""

    events: list[Event]
    commands: list[tuple[int, Command]] = field(default_factory=list)
    states: list[BaseState] = field(default_factory=list)
    """The live state after the opening and after each command."""


def pick(r: random.Random, state: MonopolyState) -> Command:
    actions = [a for a in game.legal_actions(state) if a.type != "transfer"]
    if r.random() > 0.01:
        actions = [a for a in actions if a.actor != "banker"] or actions
    a = r.choice(actions)
    args = dict(a.args)
    if a.type == "roll" and state.setup.dice == "physical":
        args["dice"] = [r.randint(1, 6)]
    return Command(a.actor, a.type, args)


def play(seed: int, players: int, dice: str, check: bool = True) -> Played:
    r = random.Random(seed)
    setup = GameSetup.from_json({"edition": "monopolino", "dice": dice, "seed": seed,
                                 "players": [f"P{i}" for i in range(players)],
                                 "settings": {"order": r.choice(["roll", "seated"])}})
    out = Played(game.new_game(setup))
    state: MonopolyState = game.replay(out.events)  # type: ignore[assignment]
    out.states.append(state)
    total = sum(p.money for p in state.players) + state.bank + state.pot
    while not state.finished and len(out.commands) < MAX_COMMANDS:
        command = pick(r, state)
        new = game.decide(state, command)
        out.commands.append((len(out.events), command))
        for e in new:
            state = game.apply(state, e)  # type: ignore[assignment]
            if check:
                assert sum(p.money for p in state.players) + state.bank + state.pot == total
                assert all(p.money >= 0 for p in state.players) and state.pot >= 0
        out.events += new
        out.states.append(state)
    return out


games = st.tuples(st.integers(0, 2**32), st.integers(2, 4), st.sampled_from(["digital",
                                                                              "physical"]))
fast = settings(max_examples=30, deadline=None)


@fast
@given(games)
def test_money_conserved_never_negative_and_games_end(g: tuple[int, int, str]) -> None:
    """Players + Bank + LOTTERY pot stay constant; no balance goes negative; every game ends
    (a player runs out of money, or the banker ends it)."""
    played = play(*g)
    final = played.states[-1]
    assert final.finished
    assert final.winners


@fast
@given(games)
def test_replay_of_the_log_equals_live_state(g: tuple[int, int, str]) -> None:
    """Replaying the event log rebuilds exactly the live state."""
    played = play(*g, check=False)
    assert game.replay(played.events) == played.states[-1]


@fast
@given(games, st.randoms(use_true_random=False))
def test_undo_then_redo(g: tuple[int, int, str], r: random.Random) -> None:
    """Undo (replay without the undone command's events) gives the state before it; redo
    (deciding the same command again) gives the same events and the same state."""
    played = play(*g, check=False)
    log = list(enumerate(played.events, 1))
    k = r.randrange(len(played.commands))
    start, command = played.commands[k]
    undone = [*log, (len(log) + 1, Event(game.UNDONE, {"to_seq": start}))]
    before = game.replay(e for _, e in game.effective(undone))
    assert before == played.states[k]
    redo = game.decide(before, command)
    end = played.commands[k + 1][0] if k + 1 < len(played.commands) else len(played.events)
    assert redo == played.events[start:end]
    assert game.replay(redo, before) == played.states[k + 1]
