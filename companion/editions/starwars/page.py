"""What the phone page draws differently for the Star Wars edition (``Rules.page``)."""

from __future__ import annotations

from typing import Any

from companion.engine.i18n import N_

PAGE: dict[str, Any] = {
    "you_say": {
        "{player} is pulled out of Jail.": N_("You are pulled out of Jail."),
        "The Force: {player} rolled {n}, {power}.": N_("The Force: you rolled {n}, {power}."),
        "Galactic Empire Tax: {player} pays {amount} to the Bank": N_(
            "Galactic Empire Tax: you pay {amount} to the Bank."),
        "{player} pays {other} the {amount} difference.": N_(
            "You pay {other} the {amount} difference."),
    },
    # what to search the rules for, the search field's example (history_api.py /rules)
    "search_example": N_("Jail, auction, Force"),
}
