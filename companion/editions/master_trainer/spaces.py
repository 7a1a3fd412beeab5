"""The kinds of board space a mover can land on (the board itself stays on the table)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.i18n import Msg


@dataclass(frozen=True, slots=True)
class Space:
    key: str
    """The value players say or tap: ``catch-blue``, ``cerulean``, ``final``."""
    label: str
    kind: str
    """``town``, ``quiet``, ``catch``, ``event``, ``center``, ``cinnabar``, ``plateau``,
    ``plateau-catch`` or ``final``."""
    colour: str = ""

    @property
    def tag(self) -> str:
        return f"space:{self.key}"


def _spaces() -> dict[str, Space]:
    out = [
        Space("town", Msg("City or town: draw an Item Card"), "town"),
        Space("town-no-draw", Msg("City or town without an Item Card"), "quiet"),
        Space("catch-pink", Msg("Catch'em! (pink)"), "catch", "pink"),
        Space("catch-green", Msg("Catch'em! (green)"), "catch", "green"),
        Space("catch-blue", Msg("Catch'em! (blue)"), "catch", "blue"),
        Space("catch-red", Msg("Catch'em! (red)"), "catch", "red"),
        Space("event-pink", Msg("Draw Event Card (pink)"), "event", "pink"),
        Space("event-green", Msg("Draw Event Card (green)"), "event", "green"),
        Space("event-blue", Msg("Draw Event Card (blue)"), "event", "blue"),
        Space("event-red", Msg("Draw Event Card (red)"), "event", "red"),
        Space("cerulean", Msg("Cerulean City (Pokémon Center)"), "center"),
        Space("vermilion", Msg("Vermilion City (Pokémon Center)"), "center"),
        Space("cinnabar", Msg("Cinnabar Island: 2 Item Cards"), "cinnabar"),
        Space("plateau", Msg("Indigo Plateau track"), "plateau"),
        Space("plateau-catch-red", Msg("Indigo Plateau: Catch Red Pokémon"), "plateau-catch",
              "red"),
        Space("plateau-catch-blue", Msg("Indigo Plateau: Catch Blue Pokémon"), "plateau-catch",
              "blue"),
        Space("plateau-catch-green", Msg("Indigo Plateau: Catch Green Pokémon"),
              "plateau-catch", "green"),
        Space("final", Msg("ENTER Final Battle (exact count)"), "final"),
    ]
    return {s.key: s for s in out}


PALLET_TOWN = Msg("Pallet Town")
"""Where every mover starts (no space kind: nobody lands there)."""
SPACES: dict[str, Space] = _spaces()
CITIES = ("town", "town-no-draw", "cerulean", "vermilion")
PLATEAU_KINDS = ("plateau", "plateau-catch", "final")


_CITY_SPACES = tuple(SPACES[k] for k in CITIES)
_PLATEAU_SPACES = tuple(s for s in SPACES.values() if s.kind in PLATEAU_KINDS)
_ROAD_SPACES = tuple(s for s in SPACES.values() if s.kind not in PLATEAU_KINDS)


def land_options(*, flew: bool, on_plateau: bool, may_enter: bool) -> tuple[Space, ...]:
    """The spaces a mover may be on now: a city after Fly; Indigo Plateau's track once
    entered, or for a player who starts the turn on Cinnabar Island with 20 Power Points
    (they go on to the Plateau); the road otherwise. One of three constant tuples, so a
    caller may remember what it builds from them by identity."""
    if flew:
        return _CITY_SPACES
    if on_plateau or may_enter:
        return _PLATEAU_SPACES
    return _ROAD_SPACES
