"""What Mario's story counts beyond the family's (see companion/engine/story.py): the GAME OVER
cards Bowser put on each player's locations, and the team battles against him."""

from __future__ import annotations

from typing import Any, cast

from companion.editions.mario.game_over import GameOverMarked
from companion.engine.events import Rolled
from companion.engine.i18n import N_
from companion.engine.story import Count, Counter, Step
from companion.monopoly.state import MonopolyState
from companion.monopoly.story import STORY_COUNTERS as FAMILY


def game_overs(step: Step) -> Count:
    """A GAME OVER card put on a location, for its owner."""
    if step.name != "game_over_marked" or not cast(GameOverMarked, step.data).game_over:
        return []
    deed = cast(MonopolyState, step.before).deeds.get(cast(GameOverMarked, step.data).space)
    return [(deed.owner, 1, "")] if deed is not None and deed.owner else []


def battles(step: Step) -> Count:
    """Every team battle a player rolled in (as leader or teammate)."""
    if step.name != "rolled" or cast(Rolled, step.data).purpose != "battle":
        return []
    return [(cast(Rolled, step.data).who, 1, "")]


def _bowser(state: Any) -> dict[str, Any]:
    return dict(state.ext.bowser)


def battles_won(step: Step) -> Count:
    """Bowser knocked back beside GO: both members of the team that beat him (seen in the
    state, so an old log's generic ``edition_values_set`` counts as ``bowser_beaten`` does)."""
    if not _bowser(step.before)["active"] or _bowser(step.after)["active"]:
        return []
    prompt = step.before.prompt
    args = prompt.data.get("roll", {}).get("args", {}) if prompt is not None else {}
    return [(pid, 1, "") for pid in (args.get("leader"), args.get("mate")) if pid]


STORY_COUNTERS = [
    *FAMILY,
    Counter("game_overs", N_("GAME OVERs on their locations"), game_overs, short=N_("GO!")),
    Counter("bowser_battles", N_("Battles with Bowser"), battles),
    Counter("bowser_beaten", N_("Battles won against Bowser"), battles_won),
]
