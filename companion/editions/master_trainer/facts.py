"""Master Trainer's facts about the table (chips caught, Item and Event Cards drawn, turns
begun...): declared by the edition, applied by the ``on_`` handlers in
:mod:`companion.editions.master_trainer.base`. The turn's, the dice rounds' and the battles'
own facts are declared beside their rules (turns.py, dice.py, battles.py, trades.py)."""

from __future__ import annotations

from collections.abc import Mapping

from companion.engine.event_format import UPCASTERS, Blob, EventData, fact, renamed, split


@fact("starter_dealt")
class StarterDealt(EventData):
    player: str
    chip: str


@fact("decks_shuffled")
class DecksShuffled(EventData):
    items: list[str]
    events: list[str]
    board_down: Mapping[str, int]
    rng: int


@fact("turn_order_set")
class TurnOrderSet(EventData):
    order: list[str]


@fact("turn_started")
class TurnStarted(EventData):
    player: str


@fact("mover_placed")
class MoverPlaced(EventData):
    player: str
    place: str
    on_plateau: bool


@fact("die_counted")
class DieCounted(EventData):
    player: str
    value: int


@fact("chip_caught")
class ChipCaught(EventData):
    SIGNAL = "catch"
    player: str
    chip: str
    face_down: bool
    refill: bool


@fact("chip_revealed")
class ChipRevealed(EventData):
    chip: str


@fact("knocked_out")
class KnockedOut(EventData):
    player: str
    chip: str


@fact("revived")
class Revived(EventData):
    player: str
    chips: list[str]


@fact("items_drawn")
class ItemsDrawn(EventData):
    player: str
    count: int


@fact("items_returned")
class ItemsReturned(EventData):
    player: str
    cards: list[str]


@fact("items_taken")
class ItemsTaken(EventData):
    winner: str
    loser: str
    cards: list[str]


@fact("items_handed_over")
class ItemsHandedOver(EventData):
    giver: str
    to: str
    cards: list[str]


@fact("event_drawn")
class EventDrawn(EventData):
    player: str
    card: str


@fact("event_card_named")
class EventCardNamed(EventData):
    """Master Trainer, physical decks: the player named the Event Card drawn from the real
    pile; ``deck`` is the pile after it (its ``top`` cards not drawn since it came round)."""

    player: str
    card: str
    deck: list[str]
    top: int


@fact("item_card_named")
class ItemCardNamed(EventData):
    """Master Trainer, physical decks: the player named the Item Card drawn from the real
    pile; it joins their hand; ``deck`` is the pile after it (its ``top`` cards not drawn
    since it came round)."""

    player: str
    card: str
    deck: list[str]
    top: int


@fact("traded")
class Traded(EventData):
    a: str
    b: str
    give: str
    take: str


# -- legacy: generic patches earlier versions stored; replayed, never emitted -----------------
# Patches of several turn flags at once, and whole dice rounds: the facts in turns.py and
# dice.py (mover_moved, landed_on_colour, dice_round_started...) replaced them.
@fact("turn_flags_set", legacy=True)
class TurnFlagsSet(EventData):
    """The turn's flags that changed (each field given only when it changes)."""

    moved: bool | None = None
    flew: bool | None = None
    passed: bool | None = None
    landed_colour: str | None = None
    chip_at_stake: str | None = None


@fact("dice_round_changed", legacy=True)
class DiceRoundChanged(EventData):
    round: Blob


# A whole battle set at once: a challenge, a fighter sent out and the Rival Card shown can
# leave alike-shaped ones (the facts that replaced it are declared in battles.py).
@fact("battle_changed", legacy=True)
class BattleChanged(EventData):
    battle: Blob


# The first format's names of these facts (before events were typed).
UPCASTERS.update({
    "battle": renamed("battle_changed"),
    "order_set": renamed("turn_order_set"),
    "dice_round": renamed("dice_round_changed"),
    "turn_flags": renamed("turn_flags_set"),
    "items_given": lambda d: ("items_handed_over",
                              {"giver": d["from"], "to": d["to"], "cards": d["cards"]}),
    "moved": split("place", "mover_placed", "moved_to"),  # a placed mover, or a family move
})
