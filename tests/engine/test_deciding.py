"""Deciding a command: an emitted event's fields are checked where it is emitted, and a
command is judged against the state it is sent to."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.editions.pokemon.data import catch_odds
from companion.engine import event_format
from companion.engine.context import Ctx
from companion.engine.state import evolve
from companion.engine.types import Command, Prompt, RuleError
from companion.plugins.editions import find_edition
from companion.service import game
from tests.playing import TableGame


def test_an_event_missing_a_field_or_with_an_extra_one_is_refused_where_it_is_emitted() -> None:
    with pytest.raises(TypeError, match="amount"):
        event_format.checked("money_paid", {"source": "a", "to": "b"})
    with pytest.raises(TypeError, match="tip"):
        event_format.checked("money_paid", {"source": "a", "to": "b", "amount": 3, "tip": 1})
    again = event_format.checked("money_paid", {"source": "a", "to": "b", "amount": 3})
    assert again.data == {"source": "a", "to": "b", "amount": 3}


def test_an_event_may_leave_out_the_fields_that_have_defaults() -> None:
    optional = [
        (name, cls) for name, cls in event_format.EVENT_TYPES.items()
        if name not in event_format.LEGACY
        and any(f.default is not f.default_factory for f in cls.__dataclass_fields__.values())
    ]
    for name, cls in optional:
        required = {f.name: 0 for f in cls.__dataclass_fields__.values()
                    if f.default is f.default_factory}  # both MISSING: no default
        assert event_format.checked(name, required).type == cls.tag()


def test_legal_actions_of_an_earlier_state_never_let_a_command_through_later() -> None:
    g = TableGame.start("mario", ["Ann", "Bob"], seed=3)
    first = game.legal_actions(g.state)
    roll = next(a for a in first if a.type == "roll")
    first.clear()  # the caller's list is its own
    assert any(a.type == "roll" for a in game.legal_actions(g.state))
    before = g.state
    g.roll(3, 4)
    game.legal_actions(before)  # an earlier state's actions asked for last
    with pytest.raises(RuleError):
        game.step(g.state, Command(roll.actor, "roll", {"dice": [3, 4]}))
    assert game.legal_actions(g.state) != game.legal_actions(before)


def test_an_event_emitted_with_a_misspelt_field_is_refused_and_changes_nothing() -> None:
    g = TableGame.start("mario", ["Ann", "Bob"], seed=3)
    ctx = Ctx(find_edition("mario"), g.state)
    with pytest.raises(TypeError, match="amont"):
        ctx.emit("money_paid", source="ann", to="bank", amont=3)
    assert ctx.state is g.state and ctx.events == []


def test_a_name_already_emitted_is_still_checked_each_time() -> None:
    g = TableGame.start("mario", ["Ann", "Bob"], seed=3)
    ctx = Ctx(find_edition("mario"), g.state)
    ctx.emit("money_paid", source="ann", to="bank", amount=3)
    state, events = ctx.state, list(ctx.events)
    with pytest.raises(TypeError, match="amont"):
        ctx.emit("money_paid", source="ann", to="bank", amont=3)
    with pytest.raises(TypeError, match="amount"):
        ctx.emit("money_paid", source="ann", to="bank")
    assert ctx.state is state and ctx.events == events
    assert ctx.state.player("ann").money == g.state.player("ann").money - 3


def test_a_copied_state_refuses_a_name_that_is_not_a_field_and_leaves_the_original() -> None:
    g = TableGame.start("mario", ["Ann", "Bob"], seed=3)
    with pytest.raises(TypeError, match="colour"):
        evolve(g.state, colour=1)
    copied = evolve(g.state, bank=g.state.bank + 1)
    assert copied == replace(g.state, bank=g.state.bank + 1) and copied != g.state


def test_what_a_player_owns_and_who_is_still_in_follow_every_event() -> None:
    g = TableGame.start("mario", ["Ann", "Bob", "Cat"], seed=3)
    space = g.state.b.ownable[0]
    assert g.state.owned_by("ann") == ()
    g.arrange("deed_owned", space=space, owner="ann")
    assert g.state.owned_by("ann") == (space,)
    g.arrange("deed_owned", space=space, owner="bob")
    assert g.state.owned_by("ann") == () and g.state.owned_by("bob") == (space,)

    def traders() -> set[str]:
        return {a.actor for a in game.legal_actions(g.state) if a.type == "propose_trade"}

    assert traders() == {"ann", "bob", "cat"}
    g.arrange("went_bankrupt", player="cat")
    assert [p.id for p in g.state.active] == ["ann", "bob"] and traders() == {"ann", "bob"}


def test_a_two_dice_roll_names_mario_s_red_and_black_dice_and_one_die_names_none() -> None:
    g = TableGame.start("mario", ["Ann", "Bob"], seed=3)
    roll = next(a for a in game.legal_actions(g.state) if a.type == "roll")
    assert roll.input is not None and roll.input["names"] == ["red", "black"]
    single = Prompt("battle", ("ann",), "Roll", {"roll": {"who": "ann", "count": 1}})
    one = find_edition("mario").prompt_actions(evolve(g.state, prompt=single))
    assert one[0].input is not None and "names" not in one[0].input


def test_the_catch_odds_a_caller_changes_are_its_own() -> None:
    first = catch_odds(2, 6, 5, 1)
    first["percent"] = -1
    assert catch_odds(2, 6, 5, 1)["percent"] != -1
