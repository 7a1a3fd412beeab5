"""What a Master Trainer game's story counts (see companion/engine/story.py): Pokémon caught,
battles fought and Pokémon knocked out, per trainer."""

from __future__ import annotations

from typing import Any, cast

from companion.editions.master_trainer.facts import ChipCaught, KnockedOut
from companion.engine.i18n import N_
from companion.engine.story import Count, Counter, Step


def catches(step: Step) -> Count:
    if step.name != "chip_caught":
        return []
    return [(cast(ChipCaught, step.data).player, 1, "")]


def battles(step: Step) -> Count:
    """A trainer sending out a Pokémon in a battle (a battle offered and declined, or the
    Rival Card's side of the Final Battle, is not one). Seen in the state, so an old log's
    ``battle_changed`` counts as ``fighter_sent_out`` does."""
    new: Any = getattr(step.after, "battle", None)
    if new is None:
        return []
    old: Any = getattr(step.before, "battle", None)
    had = set(old.fighters) if old is not None and old.challenger == new.challenger else set()
    return [(pid, 1, "") for pid in new.fighters if pid not in had]


def knocked_out(step: Step) -> Count:
    if step.name != "knocked_out":
        return []
    return [(cast(KnockedOut, step.data).player, 1, "")]


STORY_COUNTERS = [
    Counter("catches", N_("Pokémon caught"), catches, short=N_("caught")),
    Counter("battles", N_("Battles fought"), battles, short=N_("fights")),
    Counter("knocked_out", N_("Pokémon knocked out"), knocked_out, short=N_("KO")),
]
