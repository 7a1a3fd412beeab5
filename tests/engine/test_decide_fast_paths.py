"""The decide path's shortcuts change nothing a player sees: an emitted event's fields are
still checked, and a command is still judged against the state it is sent to."""

from __future__ import annotations

import pytest

from companion.engine import events, game
from companion.engine.types import Command, RuleError
from companion.testing import TableGame


def test_an_event_missing_a_field_or_with_an_extra_one_is_refused_where_it_is_emitted() -> None:
    with pytest.raises(TypeError, match="amount"):
        events.checked("money_paid", {"source": "a", "to": "b"})
    with pytest.raises(TypeError, match="tip"):
        events.checked("money_paid", {"source": "a", "to": "b", "amount": 3, "tip": 1})
    again = events.checked("money_paid", {"source": "a", "to": "b", "amount": 3})
    assert again.data == {"source": "a", "to": "b", "amount": 3}


def test_an_event_may_leave_out_the_fields_that_have_defaults() -> None:
    optional = [
        (name, cls) for name, cls in events.EVENT_TYPES.items()
        if any(f.default is not f.default_factory for f in cls.__dataclass_fields__.values())
    ]
    for name, cls in optional:
        required = {f.name: 0 for f in cls.__dataclass_fields__.values()
                    if f.default is f.default_factory}  # both MISSING: no default
        assert events.checked(name, required).type == cls.tag()


def test_legal_actions_of_an_earlier_state_never_let_a_command_through_later() -> None:
    g = TableGame.start("mario", ["Ann", "Bob"], seed=3)
    first = game.legal_actions(g.state)
    roll = next(a for a in first if a.type == "roll")
    first.clear()  # the caller's list is its own
    assert any(a.type == "roll" for a in game.legal_actions(g.state))
    before = g.state
    g.roll(3, 4)
    game.legal_actions(before)  # the remembered list is the earlier state's
    with pytest.raises(RuleError):
        game.step(g.state, Command(roll.actor, "roll", {"dice": [3, 4]}))
    assert game.legal_actions(g.state) != game.legal_actions(before)
