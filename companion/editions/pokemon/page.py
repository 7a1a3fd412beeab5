"""What the phone page draws differently for the Pokémon edition (``Rules.page``)."""

from __future__ import annotations

from typing import Any

from companion.engine.i18n import N_

PAGE: dict[str, Any] = {
    "assets": [{"kind": "pokemon", "label": N_("Pokémon"), "item": N_("{type}-type Pokémon"),
                "groups": "types"}],  # an item "ice-1" is named by extra["types"]["ice"]
    "you_say": {
        "X: {player} catches nothing.": N_("X: you catch nothing."),
        "{player} stops.": N_("You stop."),
        "{player} pays {amount} to re-roll.": N_("You pay {amount} to re-roll."),
        "{player} pays {owner} {amount} to explore {space} (exploration cost)": N_(
            "You pay {owner} {amount} to explore {space} (exploration cost)."),
    },
    # what to search the rules for, the search field's example (history_api.py /rules)
    "search_example": N_("Jail, auction, Poké Ball"),
}
