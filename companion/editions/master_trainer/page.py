"""What the phone page draws differently for Pokémon Master Trainer (``Rules.page``)."""

from __future__ import annotations

from typing import Any

from companion.engine.i18n import N_

CHIP_COLOURS: tuple[tuple[str, str, str], ...] = (
    ("starter", N_("Starter"), "#8d6e63"), ("pink", N_("Pink"), "#d81b60"),
    ("green", N_("Green"), "#2e7d32"), ("blue", N_("Blue"), "#1565c0"),
    ("red", N_("Red"), "#c62828"), ("yellow", N_("Yellow"), "#f9a825"),
    ("purple", N_("Purple"), "#6a1b9a"), ("white", N_("White"), "#bdbdbd"))
"""The chips' colours in the order a team shows them: key, name, CSS colour of its cards."""

PAGE: dict[str, Any] = {
    "you_say": {
        "{player} lands on {space}.": N_("You land on {space}."),
        "{player} (the highest roll) draws a Rival Card and looks at it secretly.": N_(
            "You rolled highest: draw a Rival Card and look at it secretly."),
        "{player} (the other player) draws a Rival Card and looks at it secretly.": N_(
            "You draw a Rival Card too and look at it secretly."),
        "{player} rolls {roll} and catches {pokemon}": N_("You roll {roll} and catch {pokemon}."),
        "{why}: {player} draws an Item Card.": N_("{why}: you draw an Item Card."),
    },
    # what to search the rules for, the search field's example (history_api.py /rules)
    "search_example": N_("Poké Ball, battle, Rival Card"),
}
