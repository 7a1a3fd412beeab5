"""Every event type the log can hold: one frozen dataclass each, with a name and a version.

The log stores an event as ``(tag, data, say, cite)``: ``tag`` is the event's name at version 1 and
``name@N`` from version 2 on; ``data`` is the dataclass's fields as JSON. Events are still
emitted by name (``ctx.emit("money_paid", say, source=..., to=..., amount=...)``, the call
shape the rules were written in); :func:`checked` builds the dataclass from the keywords, so a
missing, unknown or misspelt field fails where it is emitted, never in a replay.

Changing an event's fields means a new version and an upcaster from the old one
(``UPCASTERS``); tests/engine/test_event_schema.py compares the fields with the committed
snapshot tests/engine/event_schema.json and fails otherwise. ``cite`` (the rule's id in
the edition's citation catalogue) is in the envelope, like ``say``: no event's fields change.
Names stored by earlier versions (nouns such as ``money``, ``deed``, ``jail``, ``ext``) are
upcast on replay by the same chain, so every log ever written replays (tests/golden holds
logs of each format).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from companion.engine.types import Event

Data = Mapping[str, Any]
"""A stored event's JSON fields."""
Blob = Mapping[str, Any] | None
"""A nested JSON object kept as stored (an auction, a debt, a battle...)."""


D = TypeVar("D", bound="EventData")


@dataclass(frozen=True)
class EventData:
    """Base of every event type: ``NAME`` and ``VERSION`` identify it in the log."""

    NAME: ClassVar[str] = ""
    VERSION: ClassVar[int] = 1

    @classmethod
    def tag(cls) -> str:
        return cls.NAME if cls.VERSION == 1 else f"{cls.NAME}@{cls.VERSION}"

    @classmethod
    def from_stored(cls: type[D], data: Data) -> D:
        """The event from stored data already checked when it was emitted (replay's hot
        path: no ``__init__``; missing optional fields read their class defaults)."""
        obj = object.__new__(cls)
        obj.__dict__.update(data)
        return obj

    def to_data(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


EVENT_TYPES: dict[str, type[EventData]] = {}
"""Current event types by name."""

E = TypeVar("E", bound=type[EventData])


def event(name: str, version: int = 1) -> Callable[[E], E]:
    """Register an event type under ``name`` at ``version``."""

    def register(cls: E) -> E:
        if name in EVENT_TYPES:
            raise ValueError(f"event type {name!r} declared twice")
        cls.NAME, cls.VERSION = name, version
        EVENT_TYPES[name] = cls
        return cls

    return register


def checked(name: str, data: Mapping[str, Any], say: str = "", cite: str = "") -> Event:
    """The stored form of event ``name`` with ``data``; TypeError when the fields are wrong."""
    shape = SHAPES.get(name)
    if shape is not None and (data.keys() == shape[1] or shape[0] <= data.keys() <= shape[1]):
        return Event(shape[2], data, say, cite)
    cls = EVENT_TYPES.get(name)
    if cls is None and name in UPCASTERS:  # a name from an earlier version: store the new one
        tag, data = upcast(name, data)
        cls = EVENT_TYPES[tag.split("@", 1)[0]]
    if cls is None:
        raise TypeError(f"unknown event type {name!r}: declare it in companion/engine/events.py")
    shape = _SHAPES.get(cls)
    if shape is None:
        shape = _SHAPES[cls] = _shape(cls)
        if EVENT_TYPES.get(name) is cls:
            SHAPES[name] = shape
    keys = data.keys()
    if not (shape[0] <= keys <= shape[1]):  # no dataclass is built per emit
        cls(**data)  # raises the TypeError naming the missing or unknown field
    return Event(shape[2], data, say, cite)


_SHAPES: dict[type[EventData], tuple[frozenset[str], frozenset[str], str]] = {}
SHAPES: dict[str, tuple[frozenset[str], frozenset[str], str]] = {}
"""The shapes of current event names, for the check of every emitted event."""


def _shape(cls: type[EventData]) -> tuple[frozenset[str], frozenset[str], str]:
    """The required field names, all field names and the tag of event type ``cls``."""
    every = dataclasses.fields(cls)
    required = frozenset(
        f.name for f in every
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    )
    return required, frozenset(f.name for f in every), cls.tag()


def typed(event_: Event) -> EventData:
    """The dataclass of a stored (current) event."""
    name = event_.type.split("@", 1)[0]
    return EVENT_TYPES[name](**event_.data)


# -- upcasters: an old tag and its data -> a newer tag and data ---------------------------------
Upcaster = Callable[[Data], tuple[str, Data]]
UPCASTERS: dict[str, Upcaster] = {}


class renamed:  # noqa: N801 - used like a function in the table below
    """An upcaster that only renames (the data is unchanged)."""

    def __init__(self, new: str) -> None:
        self.to = new

    def __call__(self, data: Data) -> tuple[str, Data]:
        return self.to, data


def renamed_to(tag: str) -> str | None:
    """The current tag ``tag`` becomes when every step on its way only renames (so a replay
    can apply it with no work per event), or None when some step looks at the data."""
    for _ in range(100):
        if is_current(tag):
            return tag
        step = UPCASTERS.get(tag)
        if not isinstance(step, renamed):
            return None
        tag = step.to
    return None


def _split(key: str, with_key: str, without: str) -> Upcaster:
    return lambda data: (with_key if key in data else without, data)


# Version 0: the names the first format stored (before events were typed).
UPCASTERS.update({
    "money": renamed("money_paid"),
    "jail": renamed("jail_changed"),
    "ext": renamed("edition_values_set"),
    "player_ext": renamed("player_value_set"),
    "debt": renamed("debt_changed"),
    "auction": renamed("auction_changed"),
    "battle": renamed("battle_changed"),
    "deck": renamed("deck_changed"),
    "order": renamed("order_decided"),
    "order_set": renamed("turn_order_set"),
    "turn": renamed("turn_passed"),
    "offer": renamed("offer_changed"),
    "flow": renamed("flow_changed"),
    "rng": renamed("rng_advanced"),
    "doubles": renamed("doubles_counted"),
    "dice_round": renamed("dice_round_changed"),
    "turn_flags": renamed("turn_flags_set"),
    "bankrupt": renamed("went_bankrupt"),
    "items_given": lambda d: ("items_handed_over",
                              {"giver": d["from"], "to": d["to"], "cards": d["cards"]}),
    "deed": _split("game_over", "game_over_marked", "deed_owned"),
    "note": _split("face", "force_die_rolled", "noted"),
    "moved": _split("place", "mover_placed", "moved_to"),
    "order_roll": _split("reset", "order_rolls_cleared", "order_rolled"),
})


def upcast(tag: str, data: Data) -> tuple[str, Data]:
    """The current tag and data of an event stored under ``tag`` by any earlier version."""
    steps = 0
    while True:
        name = tag.split("@", 1)[0]
        cls = EVENT_TYPES.get(name)
        if cls is not None and cls.tag() == tag and tag not in UPCASTERS:
            return tag, data
        step = UPCASTERS.get(tag)
        if step is None:
            raise ValueError(f"unknown event type {tag!r}")
        tag, data = step(data)
        steps += 1
        if steps > 100:  # pragma: no cover - a cycle in the table
            raise ValueError(f"upcasting {tag!r} does not end")


def is_current(tag: str) -> bool:
    cls = EVENT_TYPES.get(tag.split("@", 1)[0])
    return cls is not None and cls.tag() == tag and tag not in UPCASTERS


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


@event("flow_changed")
@dataclass(frozen=True)
class FlowChanged(EventData):
    """Where a command left the prompt and the to-do list (tasks by declared id)."""

    prompt: Blob
    todo: list[Mapping[str, object]]


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


@event("jail_changed")
@dataclass(frozen=True)
class JailChanged(EventData):
    player: str
    in_jail: bool
    tries: int = 0


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


@event("deck_changed")
@dataclass(frozen=True)
class DeckChanged(EventData):
    """A deck's new order; ``card`` and ``player`` when a card was drawn."""

    deck: str
    cards: list[str]
    card: str = ""
    player: str = ""


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


@event("auction_changed")
@dataclass(frozen=True)
class AuctionChanged(EventData):
    auction: Blob


@event("debt_changed")
@dataclass(frozen=True)
class DebtChanged(EventData):
    debt: Blob


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


@event("edition_values_set")
@dataclass(frozen=True)
class EditionValuesSet(EventData):
    """Values of an edition's own state (``set``: field name -> new value)."""

    set: Mapping[str, object]


@event("player_value_set")
@dataclass(frozen=True)
class PlayerValueSet(EventData):
    """An edition's own per-player value (Monopolino's lottery tickets...)."""

    key: str
    player: str
    value: int


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


@event("turn_flags_set")
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


@event("dice_round_changed")
@dataclass(frozen=True)
class DiceRoundChanged(EventData):
    round: Blob


@event("die_counted")
@dataclass(frozen=True)
class DieCounted(EventData):
    player: str
    value: int


@event("battle_changed")
@dataclass(frozen=True)
class BattleChanged(EventData):
    battle: Blob


@event("offer_changed")
@dataclass(frozen=True)
class OfferChanged(EventData):
    offer: Blob


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


def schema() -> dict[str, dict[str, str]]:
    """``{tag: {field: type}}`` of every current event type (for the committed snapshot)."""
    out = {}
    for cls in EVENT_TYPES.values():
        hints = {f.name: str(f.type) + ("" if f.default is dataclasses.MISSING else " = default")
                 for f in dataclasses.fields(cls)}
        out[cls.tag()] = hints
    return out
