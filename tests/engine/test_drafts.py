"""A command is decided on a working copy changed in place (a draft): the state a caller
holds never changes under it, whatever the command does, and what it gets back is an ordinary
immutable state again."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.engine.state import BaseState, draft, evolve, seal
from companion.engine.types import Command, GameSetup, RuleError
from companion.plugins.editions import available
from companion.service import game


def fields_of(state: BaseState) -> dict[str, Any]:
    """The state's field values, by identity (memos kept beside them left out)."""
    return {k: v for k, v in vars(state).items() if not k.startswith("_")}


def play(edition: str, seed: int, commands: int) -> list[tuple[BaseState, dict[str, Any]]]:
    """A random game: every state met, with a snapshot of its fields taken when it was new."""
    rnd = random.Random(seed)
    setup = GameSetup.from_json({"edition": edition, "players": ["Ann", "Bob", "Cat"],
                                 "dice": "physical", "seed": seed})
    state = game.replay(game.new_game(setup))
    seen = [(state, fields_of(state))]
    for _ in range(commands):
        if state.finished:
            break
        actions = [a for a in game.legal_actions(state) if a.type not in ("end_game",
                                                                          "transfer")]
        a = rnd.choice(actions)
        spec = a.input or {}
        args = dict(a.args)
        if spec.get("kind") == "dice":
            args["dice"] = [rnd.randint(1, 6) for _ in range(spec["count"])]
        elif spec.get("kind") == "choice" and spec.get("options"):
            args[spec.get("arg") or "option"] = rnd.choice(spec["options"])["value"]
        elif spec.get("kind") == "amount":
            args["amount"] = spec["min"]
        try:
            _, state = game.step(state, Command(a.actor, a.type, args))
        except RuleError:
            continue
        seen.append((state, fields_of(state)))
    return seen


@pytest.mark.parametrize("edition", available())
def test_a_state_a_caller_holds_never_changes_while_later_commands_are_decided(
        edition: str) -> None:
    seen = play(edition, 7, 150)
    assert len(seen) > 20
    for state, before in seen:
        assert fields_of(state) == before
        assert all(fields_of(state)[k] is v for k, v in before.items())


def test_a_refused_command_leaves_the_state_as_it_was() -> None:
    state, before = play("mario", 3, 5)[-1]
    actor = state.prompt.to[0] if state.prompt else "ann"
    with pytest.raises(RuleError):
        game.step(state, Command(actor, "buy", {}))
    assert fields_of(state) == before


def test_the_state_a_step_returns_is_immutable_like_any_other() -> None:
    state = play("mario", 5, 10)[-1][0]
    copied = evolve(state, bank=state.bank + 1)
    assert copied is not state and copied.bank == state.bank + 1


def test_replay_from_a_state_leaves_that_state_as_it_was() -> None:
    setup = GameSetup.from_json({"edition": "mario", "players": ["Ann", "Bob"], "seed": 1})
    opening = game.new_game(setup)
    start = game.replay(opening[:1])
    before = fields_of(start)
    end = game.replay(opening[1:], start)
    assert fields_of(start) == before and end is not start
    assert end == game.replay(opening)
    assert evolve(end, bank=1) is not end


def test_a_draft_changes_in_place_until_sealed_and_the_original_never() -> None:
    setup = GameSetup.from_json({"edition": "mario", "players": ["Ann", "Bob"], "seed": 1})
    original = game.replay(game.new_game(setup))
    work = draft(original)
    assert evolve(work, bank=5) is work and work.bank == 5 and original.bank != 5
    with pytest.raises(TypeError, match="colour"):
        evolve(work, colour=1)
    assert not hasattr(work, "colour")
    sealed = seal(work)
    assert evolve(sealed, bank=6) is not sealed and sealed.bank == 5


def test_the_actions_of_a_draft_are_never_remembered_for_what_it_becomes() -> None:
    setup = GameSetup.from_json({"edition": "mario", "players": ["Ann", "Bob"], "seed": 1,
                                 "settings": {"order": "seated"}})
    work = draft(game.replay(game.new_game(setup)))
    assert any(a.type == "roll" for a in game.legal_actions(work))
    evolve(work, prompt=None)
    assert not any(a.type == "roll" for a in game.legal_actions(seal(work)))


@pytest.mark.parametrize("edition", available())
def test_events_applied_one_by_one_copy_and_give_what_a_draft_gives(edition: str) -> None:
    """Handlers that change a draft in place themselves (the roll's events, payments, moves,
    edition values) still copy any other state: applying a game's events one at a time never
    changes a state already made, and ends where the replay of them all (one draft) ends."""
    rnd = random.Random(11)
    setup = GameSetup.from_json({"edition": edition, "players": ["Ann", "Bob", "Cat"],
                                 "dice": "digital", "seed": 11})
    events = game.new_game(setup)
    state = game.replay(events)
    for _ in range(80):
        if state.finished:
            break
        actions = [a for a in game.legal_actions(state)
                   if a.type not in ("end_game", "transfer") and (a.input or {}).get("kind")
                   in (None, "dice", "choice")]
        if not actions:
            break
        a = rnd.choice(actions)
        args, spec = dict(a.args), a.input or {}
        if spec.get("kind") == "choice" and spec.get("options"):
            args[spec.get("arg") or "option"] = rnd.choice(spec["options"])["value"]
        try:
            new, state = game.step(state, Command(a.actor, a.type, args))
        except RuleError:
            continue
        events += new
    state = game.replay(events[:1])
    for event in events[1:]:
        held = fields_of(state)
        new_state = game.apply(state, event)
        assert fields_of(state) == held  # (a note returns the same state)
        state = new_state
    assert fields_of(state) == fields_of(game.replay(events))
