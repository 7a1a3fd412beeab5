"""The engine's value types keep their dataclass behaviour with their hand-written
constructors: fields in declaration order, keyword names, a fresh dict for an omitted
mapping, immutability, equality, replace and JSON."""

from __future__ import annotations

import dataclasses

import pytest

from companion.engine.state import Task
from companion.engine.types import Action, Command, Event, Prompt


@pytest.mark.parametrize("cls, values", [
    (Command, ("ann", "roll", {"dice": [1, 2]})),
    (Event, ("money_paid", {"amount": 1}, "Ann pays.", "rent")),
    (Action, ("ann", "roll", "Roll", {"x": 1}, {"kind": "dice"}, "Ann is out.")),
    (Prompt, ("turn", ("ann",), "Ann's turn", {"roll": {}})),
    (Task, ("move", {"steps": 3})),
])
def test_each_field_is_set_from_its_position_or_its_name(cls: type, values: tuple) -> None:
    names = [f.name for f in dataclasses.fields(cls)]
    by_position, by_name = cls(*values), cls(**dict(zip(names, values, strict=True)))
    assert [getattr(by_position, n) for n in names] == list(values)
    assert by_position == by_name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(by_position, names[0], "other")
    changed = dataclasses.replace(by_position, **{names[0]: "other"})
    assert getattr(changed, names[0]) == "other" and changed != by_position


def test_an_omitted_mapping_is_a_new_empty_dict_and_other_defaults_hold() -> None:
    first, second = Task("end_turn"), Task("end_turn")
    assert first.args == {} and first.args is not second.args
    assert Command("ann", "roll").args == {}
    assert Prompt("turn", ("ann",), "Roll").data == {}
    action = Action("ann", "roll", "Roll")
    assert action.args == {} and action.input is None
    assert Event("noted", {}).say == "" and Event("noted", {}).cite == ""
    assert Event.from_json(Event("noted", {}, "Hi.", "r").to_json()) == Event("noted", {}, "Hi.",
                                                                             "r")
