"""What the phone page draws differently for the Super Mario Bros. Movie edition
(``Rules.page``)."""

from __future__ import annotations

from typing import Any

from companion.engine.i18n import N_

PAGE: dict[str, Any] = {
    "dice": {"red": N_("red"), "black": N_("black")},
    "you_say": {
        "Super Star: {player} rolled {n} and collects {amount}.": N_(
            "Super Star: you rolled {n} and collect {amount}."),
        "{player} pays {amount} to continue {space}: it collects rent again.": N_(
            "You pay {amount} to continue {space}: it collects rent again."),
        "Bowser passed {player}: {player} pays {amount}": N_(
            "Bowser passed you: you pay {amount}."),
    },
    # what to search the rules for, the search field's example (history_api.py /rules)
    "search_example": N_("Jail, auction, Bowser"),
}
