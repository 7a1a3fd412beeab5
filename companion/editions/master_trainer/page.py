"""What the phone page draws differently for Pokémon Master Trainer (``Rules.page``)."""

from __future__ import annotations

from typing import Any

from companion.engine.i18n import N_

PAGE: dict[str, Any] = {
    "panels": ["teams"],
    "rival_team": "pokemon",  # the key of the rival's Pokémon in a final battle's view
    "colours": [["starter", N_("Starter")], ["pink", N_("Pink")], ["green", N_("Green")],
                ["blue", N_("Blue")], ["red", N_("Red")], ["yellow", N_("Yellow")],
                ["purple", N_("Purple")], ["white", N_("White")]],
    "you_say": {
        "{player} lands on {space}.": N_("You land on {space}."),
        "{player} (the highest roll) draws a Rival Card and looks at it secretly.": N_(
            "You rolled highest: draw a Rival Card and look at it secretly."),
        "{player} (the other player) draws a Rival Card and looks at it secretly.": N_(
            "You draw a Rival Card too and look at it secretly."),
        "{player} rolls {roll} and catches {pokemon}": N_("You roll {roll} and catch {pokemon}."),
        "{why}: {player} draws an Item Card.": N_("{why}: you draw an Item Card."),
    },
}
