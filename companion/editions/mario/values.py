"""Mario's own state: where Bowser is, the GAME OVER marks, the rents still to ask for."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from companion.monopoly.state import EditionValues


class Bowser(TypedDict):
    """Where Bowser is and whether he moves (kept as the event stores it)."""

    position: int
    """His space index."""
    active: bool
    wake: list[str]
    """Players still to finish a turn before he is active again."""
    since: NotRequired[int]
    """The turn he was knocked back in (reading ``bowser_rest = next_turn``)."""


class RentClaim(TypedDict):
    """A rent an owner may still ask for (reading ``rent_collection = ask``)."""

    payer: str
    owner: str
    space: int
    amount: int
    rule: str
    turn: int
    """The turn it arose in; the next player's roll loses it."""


@dataclass(frozen=True)
class MarioValues(EditionValues):
    """Mario's own state."""

    bowser: Bowser
    """Bowser's ``position`` (space index), whether he is ``active``, and who he ``wake``s."""
    game_over: frozenset[int] = frozenset()
    """Locations whose card lies on its GAME OVER side (no rent until continued)."""
    rent_claims: Sequence[RentClaim] = ()
    """Rents an owner may still ask for (reading ``rent_collection = ask``)."""
