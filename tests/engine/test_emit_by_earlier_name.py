"""An event a rule emits by a name an earlier version stored (upcast when emitted) is applied
in its current form, so the working state follows what the log will hold."""

from __future__ import annotations

from companion.engine.context import Ctx
from companion.plugins.editions import find_edition
from tests.playing import TableGame


def test_an_event_emitted_by_an_earlier_name_is_applied_as_its_current_form() -> None:
    g = TableGame.start("master-trainer", ["Ann", "Bob"], seed=3)
    old, new = Ctx(find_edition("master-trainer"), g.state), Ctx(find_edition(
        "master-trainer"), g.state)
    old.emit("items_given", "Ann hands Bob nothing.", **{"from": "ann", "to": "bob",
                                                          "cards": []})
    new.emit("items_handed_over", "Ann hands Bob nothing.", giver="ann", to="bob", cards=[])
    assert old.events == new.events and old.state == new.state
