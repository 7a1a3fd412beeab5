"""Every event type the log can hold: one frozen dataclass each, with a name and a version.

How they are stored, checked when emitted and upcast from earlier versions:
:mod:`companion.engine.event_format`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.engine.event_format import Blob, EventData, event


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


@event("game_over_marked")
@dataclass(frozen=True)
class GameOverMarked(EventData):
    """Mario: Bowser's GAME OVER card lies on (or is lifted from) a location."""

    space: int
    game_over: bool


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


@event("force_die_rolled")
@dataclass(frozen=True)
class ForceDieRolled(EventData):
    """Star Wars: the Force die shows ``face`` for ``player``."""

    face: int
    player: str


# Pokémon Master Trainer.
@event("turn_order_set")
@dataclass(frozen=True)
class TurnOrderSet(EventData):
    order: list[str]


@event("turn_started")
@dataclass(frozen=True)
class TurnStarted(EventData):
    player: str


# Legacy (#28 item 3): patches of several turn flags at once, and whole dice rounds; Master
# Trainer's facts (mover_moved, landed_on_colour, dice_round_started...) replaced them in
# companion/editions/master_trainer/turns.py and dice.py. Old logs replay them.
@event("turn_flags_set", legacy=True)
@dataclass(frozen=True)
class TurnFlagsSet(EventData):
    """The turn's flags that changed (each field given only when it changes)."""

    moved: bool | None = None
    flew: bool | None = None
    passed: bool | None = None
    landed_colour: str | None = None
    chip_at_stake: str | None = None


@event("mover_placed")
@dataclass(frozen=True)
class MoverPlaced(EventData):
    player: str
    place: str
    on_plateau: bool


@event("dice_round_changed", legacy=True)
@dataclass(frozen=True)
class DiceRoundChanged(EventData):
    round: Blob


@event("die_counted")
@dataclass(frozen=True)
class DieCounted(EventData):
    player: str
    value: int


# Legacy: set a whole Master Trainer battle; a challenge, a fighter sent out and the Rival
# Card shown can leave alike-shaped ones, so old logs replay it and no rule emits it (the
# facts are declared in companion/editions/master_trainer/battles.py).
@event("battle_changed", legacy=True)
@dataclass(frozen=True)
class BattleChanged(EventData):
    battle: Blob


@event("starter_dealt")
@dataclass(frozen=True)
class StarterDealt(EventData):
    player: str
    chip: str


@event("decks_shuffled")
@dataclass(frozen=True)
class DecksShuffled(EventData):
    items: list[str]
    events: list[str]
    board_down: Mapping[str, int]
    rng: int


@event("chip_caught")
@dataclass(frozen=True)
class ChipCaught(EventData):
    player: str
    chip: str
    face_down: bool
    refill: bool


@event("chip_revealed")
@dataclass(frozen=True)
class ChipRevealed(EventData):
    chip: str


@event("knocked_out")
@dataclass(frozen=True)
class KnockedOut(EventData):
    player: str
    chip: str


@event("revived")
@dataclass(frozen=True)
class Revived(EventData):
    player: str
    chips: list[str]


@event("items_drawn")
@dataclass(frozen=True)
class ItemsDrawn(EventData):
    player: str
    count: int


@event("items_returned")
@dataclass(frozen=True)
class ItemsReturned(EventData):
    player: str
    cards: list[str]


@event("items_taken")
@dataclass(frozen=True)
class ItemsTaken(EventData):
    winner: str
    loser: str
    cards: list[str]


@event("items_handed_over")
@dataclass(frozen=True)
class ItemsHandedOver(EventData):
    giver: str
    to: str
    cards: list[str]


@event("event_drawn")
@dataclass(frozen=True)
class EventDrawn(EventData):
    player: str
    card: str


@event("event_card_named")
@dataclass(frozen=True)
class EventCardNamed(EventData):
    """Master Trainer, physical decks: the player named the Event Card drawn from the real
    pile; ``deck`` is the pile after it (its ``top`` cards not drawn since it came round)."""

    player: str
    card: str
    deck: list[str]
    top: int


@event("item_card_named")
@dataclass(frozen=True)
class ItemCardNamed(EventData):
    """Master Trainer, physical decks: the player named the Item Card drawn from the real
    pile; it joins their hand; ``deck`` is the pile after it (its ``top`` cards not drawn
    since it came round)."""

    player: str
    card: str
    deck: list[str]
    top: int


@event("traded")
@dataclass(frozen=True)
class Traded(EventData):
    a: str
    b: str
    give: str
    take: str
