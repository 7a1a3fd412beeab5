"""The kinds of board space a mover can land on (the board itself stays on the table)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.editions.master_trainer.data import COLOURS


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
        Space("town", "City or town: draw an Item Card", "town"),
        Space("town-no-draw", "City or town without an Item Card", "quiet"),
    ]
    out += [Space(f"catch-{c}", f"Catch'em! ({c})", "catch", c) for c in COLOURS]
    out += [Space(f"event-{c}", f"Draw Event Card ({c})", "event", c) for c in COLOURS]
    out += [
        Space("cerulean", "Cerulean City (Pokémon Center)", "center"),
        Space("vermilion", "Vermilion City (Pokémon Center)", "center"),
        Space("cinnabar", "Cinnabar Island: 2 Item Cards", "cinnabar"),
        Space("plateau", "Indigo Plateau track", "plateau"),
    ]
    out += [
        Space(f"plateau-catch-{c}", f"Indigo Plateau: Catch {c.title()} Pokémon",
              "plateau-catch", c)
        for c in ("red", "blue", "green")
    ]
    out.append(Space("final", "ENTER Final Battle (exact count)", "final"))
    return {s.key: s for s in out}


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
