"""Random legal play: the books always balance, whatever the players do."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from mt_table import Table

from companion.editions.master_trainer.data import load
from companion.engine.types import Action, Command, RuleError
from companion.service import game

DATA = load()
STEPS = 120


def random_command(action: Action, rnd: random.Random, physical: bool) -> Command:
    """Fill in what the action asks for, the way a player might."""
    args: dict[str, Any] = dict(action.args)
    spec = action.input or {}
    kind = spec.get("kind")
    if kind == "dice" and physical:
        args["dice"] = [rnd.randint(1, 6) for _ in range(spec["count"])]
    elif kind == "choice":
        if spec["options"] and not (spec.get("optional") and rnd.random() < 0.3):
            args[spec["arg"]] = rnd.choice(spec["options"])["value"]
        if "bonus" in spec and spec["bonus"]["cards"]:
            cards = list(spec["bonus"]["cards"])
            args["bonus"] = rnd.sample(cards, rnd.randint(0, min(2, len(cards))))
    elif kind == "trade":
        other = rnd.choice(spec["with"])
        args.update({"with": other, "give": rnd.choice(spec["give"]),
                     "take": rnd.choice(spec["take"][other])})
        if spec.get("items") and rnd.random() < 0.3:
            args["items"] = [rnd.choice(spec["items"])]
    return Command(action.actor, action.type, args)


def revived_power(trainer: Any) -> int:
    return sum(DATA.chips[c].power for c in trainer.team if c not in trainer.knocked_out)


def check_books(t: Table) -> None:
    state = t.state
    owned = Counter(c for tr in state.trainers for c in tr.team)
    assert all(n == 1 for n in owned.values()), "a chip sits in two teams"
    assert not set(state.face_up) & set(owned), "a caught chip is still on the board"
    for tr in state.trainers:
        assert set(tr.knocked_out) <= set(tr.team)
    cards = len(state.items_deck) + sum(len(tr.items) for tr in state.trainers)
    assert cards == 54, "Item Cards appeared or vanished"
    assert len(state.events_deck) == 54
    view = game.view(state)
    json.dumps(view)  # plain JSON for every front end
    for p in view["players"]:
        assert p["score"]["points"] == revived_power(state.trainer(p["id"]))
        other = game.view(state, p["id"])
        for q in other["players"]:
            assert q["id"] == p["id"] or "cards" not in q["items"], "a hand is not secret"
    for colour, n in state.board_down.items():
        hidden = [c for c in DATA.of_colour(colour) if c.slug not in owned
                  and c.slug not in state.face_up]
        assert 0 <= n <= len(hidden)


WEIGHTS = {"battle": 1, "trade": 1, "skip": 1, "decline": 2}
"""Relative weights of a few action types (default 10): fewer pointless battles, so random
games also reach Indigo Plateau and the Final Battle."""


def pick(actions: list[Action], rnd: random.Random) -> Action:
    weights = [WEIGHTS.get(a.type, 10) for a in actions]
    return rnd.choices(actions, weights)[0]


def play(seed: int, players: int, dice: str, steps: int = STEPS) -> tuple[Table, list[int]]:
    """Play random legal commands; returns the table and where each command's events start."""
    names = ("Ash", "Misty", "Brock", "Gary", "Erika", "Sabrina")[:players]
    t = Table(names, dice=dice, seed=seed)
    rnd = random.Random(seed)
    starts: list[int] = []
    for _ in range(steps):
        if t.state.finished:
            break
        action = pick(game.legal_actions(t.state), rnd)
        command = random_command(action, rnd, dice == "physical")
        starts.append(len(t.events))
        events = t.do(command.actor, command.type, **command.args)
        for e in events:
            if e.type == "mover_placed" and "straight to Cinnabar" in e.say:
                assert revived_power(t.state.trainer(e.data["player"])) >= 20
        check_books(t)
    return t, starts


def turn_end_hands(t: Table) -> None:
    """Replaying the log: whenever a turn passes, the player whose turn ended holds <= 7."""
    state = None
    for e in t.events:
        if e.type == "turn_started" and state is not None and state.current is not None:
            assert len(state.trainer(state.current).items) <= 7
        state = game.apply(state, e)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 6), st.sampled_from(["digital", "physical"]))
def test_random_play_keeps_the_books(seed: int, players: int, dice: str) -> None:
    """No Power Points from knocked-out Pokémon, no chip or card lost, hand limit held at
    every turn end, and the log replays to the live state."""
    t, _ = play(seed, players, dice)
    turn_end_hands(t)
    assert game.replay(t.events) == t.state


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.sampled_from(["digital", "physical"]))
def test_undo_then_redo_gives_the_same_state(seed: int, players: int, dice: str) -> None:
    """Undo (replay without the last command's events) gives the state before it; deciding
    the same command again gives the same state as before the undo."""
    names = ("Ash", "Misty", "Brock", "Gary")[:players]
    t = Table(names, dice=dice, seed=seed)
    rnd = random.Random(seed)
    for _ in range(60):
        if t.state.finished:
            break
        action = rnd.choice(game.legal_actions(t.state))
        command = random_command(action, rnd, dice == "physical")
        before, start = t.state, len(t.events)
        t.do(command.actor, command.type, **command.args)
        undone = game.replay(t.events[:start])
        assert undone == before
        redo = game.replay(game.decide(undone, command), undone)
        assert redo == t.state


VERBS = ["starter", "roll", "time_machine", "keep", "land", "battle", "trade", "accept",
         "decline", "poke_doll", "fight", "reveal", "catch", "skip", "take", "revive",
         "challenge", "use", "discard", "choose", "fly", "Roll!", "*legal*", "*legal*",
         "*legal*", "*legal*"]
JUNK = [None, "", 0, 7, -1, [9], [1, 2], "pidgey", "chip:16-pidgey", "mewtwo", "squirtle",
        "ash", "misty", "banker", "catch-red", "final", "great", "potion", "fly", "bonus_5",
        "2,3", {"x": 1}, True, "nidoran-f", "zzz"]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**16), st.integers(0, 60), st.sampled_from(["digital", "physical"]),
       st.sampled_from(VERBS), st.sampled_from(["ash", "misty", "banker", "nobody"]),
       st.dictionaries(st.sampled_from(["chip", "dice", "space", "with", "give", "take",
                                        "ball", "item", "bonus", "target"]),
                       st.sampled_from(JUNK), max_size=4))
def test_bad_input_is_refused_with_a_rule_and_changes_nothing(
    seed: int, steps: int, dice: str, verb: str, actor: str, args: dict[str, Any]
) -> None:
    """Any command, however wrong, is either legal or refused with a RuleError that names a
    rule; it never crashes and never changes the state it was given."""
    t, _ = play(seed, 2, dice, steps)
    before = t.state
    legal = game.legal_actions(before)
    if verb == "*legal*" and legal:  # the right verb and actor, with wrong arguments
        action = legal[seed % len(legal)]
        verb, actor, args = action.type, action.actor, {**action.args, **args}
    try:
        events = game.decide(t.state, Command(actor, verb, args))
    except RuleError as exc:
        assert str(exc)
    else:
        game.replay(events, before)
    assert t.state == before
