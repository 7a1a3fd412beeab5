"""Every event type the log can hold: one frozen dataclass each, with a name and a version.

How they are stored, checked when emitted and upcast from earlier versions:
:mod:`companion.engine.event_format`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.engine.event_format import EventData, event


# -- the events ------------------------------------------------------------------------------
# The engine's own.
@event("game_started")
@dataclass(frozen=True)
class GameStarted(EventData):
    edition: str
    players: list[Mapping[str, str]]
    seed: int
    dice: str
    settings: Mapping[str, object]


@event("undone")
@dataclass(frozen=True)
class Undone(EventData):
    to_seq: int
    cmd: int


@event("rolled")
@dataclass(frozen=True)
class Rolled(EventData):
    who: str
    dice: list[int]
    purpose: str
    rng: int


@event("rng_advanced")
@dataclass(frozen=True)
class RngAdvanced(EventData):
    rng: int


@event("noted")
@dataclass(frozen=True)
class Noted(EventData):
    """A message for the players that changes nothing else."""


@event("finished")
@dataclass(frozen=True)
class Finished(EventData):
    winners: list[str]
    reason: str


# The Monopoly family.
@event("order_decided")
@dataclass(frozen=True)
class OrderDecided(EventData):
    order: list[str]


@event("order_rolled")
@dataclass(frozen=True)
class OrderRolled(EventData):
    player: str
    total: int


@event("order_rolls_cleared")
@dataclass(frozen=True)
class OrderRollsCleared(EventData):
    reset: bool = True


@event("money_paid")
@dataclass(frozen=True)
class MoneyPaid(EventData):
    """``amount`` moves from account ``source`` to account ``to`` (a player, bank or pot)."""

    source: str
    to: str
    amount: int


@event("moved_to")
@dataclass(frozen=True)
class MovedTo(EventData):
    player: str
    to: int
    steps: int = 0


@event("deed_owned")
@dataclass(frozen=True)
class DeedOwned(EventData):
    space: int
    owner: str | None


@event("turn_passed")
@dataclass(frozen=True)
class TurnPassed(EventData):
    current: int


@event("doubles_counted")
@dataclass(frozen=True)
class DoublesCounted(EventData):
    count: int
    again: bool


@event("card_drawn")
@dataclass(frozen=True)
class CardDrawn(EventData):
    """A player named the card they drew from a physical deck: ``cards`` is the pile after
    it (the ``top`` first cards not yet drawn since the pile came round, then the used ones
    in the order they went under it)."""

    player: str
    deck: str
    card: str
    cards: list[str]
    top: int


@event("card_kept")
@dataclass(frozen=True)
class CardKept(EventData):
    player: str
    card: str
    keep: bool


@event("went_bankrupt")
@dataclass(frozen=True)
class WentBankrupt(EventData):
    player: str


@event("trade_proposed")
@dataclass(frozen=True)
class TradeProposed(EventData):
    id: int
    proposer: str
    to: str
    give: Mapping[str, object]
    take: Mapping[str, object]


@event("trade_closed")
@dataclass(frozen=True)
class TradeClosed(EventData):
    id: int
    accepted: bool
