"""Every event type the log can hold: one frozen dataclass each, with a name and a version.

How they are stored, checked when emitted and upcast from earlier versions:
:mod:`companion.engine.event_format`.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.engine.event_format import EventData, fact


# -- the events ------------------------------------------------------------------------------
# The engine's own.
@fact("game_started")
class GameStarted(EventData):
    edition: str
    players: list[Mapping[str, str]]
    seed: int
    dice: str
    settings: Mapping[str, object]


@fact("undone")
class Undone(EventData):
    to_seq: int
    cmd: int


@fact("rolled")
class Rolled(EventData):
    who: str
    dice: list[int]
    purpose: str
    rng: int


@fact("rng_advanced")
class RngAdvanced(EventData):
    rng: int


@fact("noted")
class Noted(EventData):
    """A message for the players that changes nothing else."""


@fact("finished")
class Finished(EventData):
    SIGNAL = "win"
    winners: list[str]
    reason: str


# The Monopoly family.
@fact("order_decided")
class OrderDecided(EventData):
    order: list[str]


@fact("order_rolled")
class OrderRolled(EventData):
    player: str
    total: int


@fact("order_rolls_cleared")
class OrderRollsCleared(EventData):
    reset: bool = True


@fact("money_paid")
class MoneyPaid(EventData):
    """``amount`` moves from account ``source`` to account ``to`` (a player, bank or pot)."""

    source: str
    to: str
    amount: int


@fact("moved_to")
class MovedTo(EventData):
    player: str
    to: int
    steps: int = 0


@fact("deed_owned")
class DeedOwned(EventData):
    space: int
    owner: str | None


@fact("turn_passed")
class TurnPassed(EventData):
    current: int


@fact("doubles_counted")
class DoublesCounted(EventData):
    count: int
    again: bool


@fact("card_drawn")
class CardDrawn(EventData):
    """A player named the card they drew from a physical deck: ``cards`` is the pile after
    it (the ``top`` first cards not yet drawn since the pile came round, then the used ones
    in the order they went under it)."""

    player: str
    deck: str
    card: str
    cards: list[str]
    top: int


@fact("card_kept")
class CardKept(EventData):
    player: str
    card: str
    keep: bool


@fact("went_bankrupt")
class WentBankrupt(EventData):
    player: str


@fact("trade_proposed")
class TradeProposed(EventData):
    id: int
    proposer: str
    to: str
    give: Mapping[str, object]
    take: Mapping[str, object]


@fact("trade_closed")
class TradeClosed(EventData):
    id: int
    accepted: bool
