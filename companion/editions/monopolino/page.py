"""What the phone page draws differently for Monopolino (``Rules.page``)."""

from __future__ import annotations

from typing import Any

from companion.engine.i18n import N_

PAGE: dict[str, Any] = {
    "you_say": {
        "{player} pays {amount} to the Bank for {space}.": N_(
            "You pay {amount} to the Bank for {space}."),
        "Card: {player} pays {amount} to {to}": N_("You pay {amount} to {to}."),
        "{player} places a booth on {space}.": N_("You place a booth on {space}."),
        "Card: {player} places a booth on {space}.": N_("You place a booth on {space}."),
        "{player} places no booth.": N_("You place no booth."),
        "Card: {player} pays {amount} onto the LOTTERY": N_("You pay {amount} onto the LOTTERY."),
    },
    "you_hear": {"Card: {player} pays {amount} to {to}": N_("{player} pays you {amount}.")},
    # what to search the rules for, the search field's example (history_api.py /rules)
    "search_example": N_("booth, lottery"),
}
