"""What Pokémon's story counts beyond the family's (see companion/engine/story.py): the wild
Pokémon each Trainer caught, by type, and the battles for locations."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from companion.editions.pokemon import data
from companion.engine.i18n import N_
from companion.engine.state import BaseState
from companion.engine.story import Count, Counter, Step
from companion.monopoly.state import MonopolyState
from companion.monopoly.story import STORY_COUNTERS as FAMILY


def _values(state: BaseState) -> Any:
    return cast(MonopolyState, state).ext


def catches(step: Step) -> Count:
    """A chip that left the wild Pokémon for a Trainer's mat, by its type (seen in the
    state, so an old log's generic ``edition_values_set`` counts as ``pokemon_caught`` does)."""
    before, after = _values(step.before), _values(step.after)
    if before.wild is after.wild or before.caught is after.caught:
        return []
    out = []
    for pid, chips in after.caught.items():
        for chip in chips:
            if chip not in before.caught.get(pid, ()):
                out.append((pid, 1, data.chip_type(chip)))
    return out


def battles(step: Step) -> Count:
    b = _values(step.after).battle
    if not isinstance(b, Mapping) or _values(step.before).battle:
        return []
    return [(b["challenger"], 1, ""), (b["owner"], 1, "")]


def battles_won(step: Step) -> Count:
    """The winner of a finished battle (a tie goes to the owner, as the rules say)."""
    b = _values(step.before).battle
    if not b or _values(step.after).battle is not None:
        return []
    state = cast(MonopolyState, step.before)
    mine, theirs = data.battle_total(state, b["challenger"]), data.battle_total(state, b["owner"])
    return [(b["challenger"] if mine > theirs else b["owner"], 1, "")]


def type_name(state: BaseState, type_id: str) -> str:
    return data.type_name(cast(MonopolyState, state).b, type_id)


STORY_COUNTERS = [
    *FAMILY,
    Counter("catches", N_("Pokémon caught"), catches, details=type_name, short=N_("caught")),
    Counter("battles", N_("Battles"), battles),
    Counter("battles_won", N_("Battles won"), battles_won),
]
