"""What Pokémon's story counts beyond the family's (see companion/story.py): the wild
Pokémon each Trainer caught, by type, and the battles for locations."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from companion.editions.pokemon import data
from companion.engine.editions import find_edition
from companion.engine.events import EditionValuesSet
from companion.engine.state import BaseState
from companion.monopoly.state import MonopolyState
from companion.monopoly.story import STORY_COUNTERS as FAMILY
from companion.story import Count, Counter, Step


def _set(step: Step) -> Mapping[str, Any]:
    if step.name != "edition_values_set":
        return {}
    return cast(EditionValuesSet, step.data).set


def catches(step: Step) -> Count:
    """A chip that left the wild Pokémon for a Trainer's mat, by its type."""
    changed = _set(step)
    if "caught" not in changed or "wild" not in changed:
        return []
    before = cast(Any, cast(MonopolyState, step.before).ext).caught
    out = []
    for pid, chips in changed["caught"].items():
        for chip in chips:
            if chip not in before.get(pid, ()):
                out.append((pid, 1, data.chip_type(chip)))
    return out


def battles(step: Step) -> Count:
    changed = _set(step)
    b = changed.get("battle")
    if not isinstance(b, Mapping) or cast(Any, cast(MonopolyState, step.before).ext).battle:
        return []
    return [(b["challenger"], 1, ""), (b["owner"], 1, "")]


def battles_won(step: Step) -> Count:
    """The winner of a finished battle (a tie goes to the owner, as the rules say)."""
    changed = _set(step)
    if "battle" not in changed or changed["battle"] is not None:
        return []
    b = cast(Any, cast(MonopolyState, step.before).ext).battle
    if not b:
        return []
    rules: Any = find_edition("pokemon")
    mine = rules.total(step.before, b["challenger"])
    theirs = rules.total(step.before, b["owner"])
    return [(b["challenger"] if mine > theirs else b["owner"], 1, "")]


def type_name(state: BaseState, type_id: str) -> str:
    return data.type_name(cast(MonopolyState, state).b, type_id)


STORY_COUNTERS = [
    *FAMILY,
    Counter("catches", "Pokémon caught", catches, details=type_name, short="caught"),
    Counter("battles", "Battles", battles),
    Counter("battles_won", "Battles won", battles_won),
]
