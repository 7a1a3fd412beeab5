"""The stored event format: how event types are declared, checked and upcast.

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

Every type is declared with :func:`fact`, beside the ``on_`` handler that applies it: the
engine's own and the Monopoly family's shared ones in :mod:`companion.engine.events` (the
question a command leaves in :mod:`companion.engine.state`, jail and decks in
:mod:`companion.monopoly.events`); an edition's own facts (``bowser_moved``,
``pokemon_caught``, ``chip_caught``) in that edition's modules. A type
declared ``legacy=True`` is a generic patch earlier versions stored that no current rule
emits and no upcaster can turn into one fact (its data does not say which fact it was): it
is kept so those logs replay, and :func:`checked` refuses to emit it.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, cast, dataclass_transform

from companion.engine.types import Event

Data = Mapping[str, Any]
"""A stored event's JSON fields."""
Blob = Mapping[str, Any] | None
"""A nested JSON object kept as stored (an auction, a debt, a battle...)."""


@dataclass(frozen=True)
class EventData:
    """Base of every event type: ``NAME`` and ``VERSION`` identify it in the log."""

    NAME: ClassVar[str] = ""
    VERSION: ClassVar[int] = 1
    SIGNAL: ClassVar[str] = ""
    """The table's tune for it ("win", "catch"; hardware/feedback.py), if any."""

    @classmethod
    def tag(cls) -> str:
        return cls.NAME if cls.VERSION == 1 else f"{cls.NAME}@{cls.VERSION}"

    def to_data(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


EVENT_TYPES: dict[str, type[EventData]] = {}


def signal(kind: str) -> str:
    """The table's tune for an event of type ``kind`` ("" for none): ``EventData.SIGNAL``."""
    cls = EVENT_TYPES.get(kind.split("@", 1)[0])
    return cls.SIGNAL if cls is not None else ""
"""Current event types by name (legacy ones included: replay applies them)."""
LEGACY: set[str] = set()
"""Names of the types kept only so old logs replay (never emitted)."""

E = TypeVar("E", bound=type[EventData])


@dataclass_transform(frozen_default=True)
def fact(name: str, version: int = 1, *, legacy: bool = False) -> Callable[[E], E]:
    """Declare a fact the log can hold: the class becomes a frozen dataclass of its fields,
    registered as event ``name`` at ``version``. The rules' ``on_<name>`` handler says how it
    changes the state: declare the fact beside that handler. ``legacy``: a generic patch old
    logs replay and no rule emits (:func:`checked` refuses it). ::

        @fact("bowser_moved")
        class BowserMoved(EventData):
            to: int
    """

    def declare(cls: E) -> E:
        if name in EVENT_TYPES:
            raise ValueError(f"event type {name!r} declared twice")
        cls = cast(E, dataclass(frozen=True)(cls))
        cls.NAME, cls.VERSION = name, version
        EVENT_TYPES[name] = cls
        if legacy:
            LEGACY.add(name)
        return cls

    return declare


_loaded: list[bool] = []
_edition_loaders: list[Callable[[], object]] = []


def on_unknown_type(load_editions: Callable[[], object]) -> None:
    """Told by the edition registry (:mod:`companion.plugins.editions`) how to import every
    edition's module: an edition declares its own event types there, so a log may name one
    whose module is not yet imported. (A callback, so this module imports no edition.)"""
    _edition_loaders[:] = [load_editions]


def load_editions() -> None:
    """Import every shipped edition's module, so the event types they declare are known."""
    for load in _edition_loaders:
        load()


def checked(name: str, data: Mapping[str, Any], say: str = "", cite: str = "") -> Event:
    """The stored form of event ``name`` with ``data``; TypeError when the fields are wrong."""
    if name in LEGACY:
        raise TypeError(f"event type {name!r} is legacy: old logs replay it, no rule emits it")
    cls = EVENT_TYPES.get(name)
    if cls is None and name in UPCASTERS:  # a name from an earlier version: store the new one
        tag, data = upcast(name, data)
        cls = EVENT_TYPES[tag.split("@", 1)[0]]
    if cls is None:
        raise TypeError(f"unknown event type {name!r}: declare it with @fact in the module "
                        "of the edition that emits it")
    cls(**data)  # raises the TypeError naming the missing or unknown field
    return Event(cls.tag(), data, say, cite)


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


def split(key: str, with_key: str, without: str) -> Upcaster:
    """An upcaster that renames to ``with_key`` when the data has ``key``, else ``without``."""
    return lambda data: (with_key if key in data else without, data)


# Version 0: the names the first format stored (before events were typed). An edition's own
# facts are upcast in that edition's modules (``UPCASTERS.update``, beside its ``@fact``s),
# as is an old name one of its facts shares with the family's (``deed``, ``note``, ``moved``):
# a name met before its edition is imported makes :func:`upcast` import every edition.
UPCASTERS.update({
    "money": renamed("money_paid"),
    "jail": renamed("jail_changed"),
    "ext": renamed("edition_values_set"),
    "player_ext": renamed("player_value_set"),
    "debt": renamed("debt_changed"),
    "auction": renamed("auction_changed"),
    "deck": renamed("deck_changed"),
    "order": renamed("order_decided"),
    "turn": renamed("turn_passed"),
    "flow": renamed("flow_changed"),
    "rng": renamed("rng_advanced"),
    "doubles": renamed("doubles_counted"),
    "bankrupt": renamed("went_bankrupt"),
    "order_roll": split("reset", "order_rolls_cleared", "order_rolled"),
})


def _debt_changed(data: Data) -> tuple[str, Data]:
    """``debt_changed`` (a whole debt, or None) is ``debt_owed`` or ``debt_settled``."""
    debt = data["debt"]
    if debt is None:
        return "debt_settled", {}
    return "debt_owed", {"player": debt["player"], "creditor": debt["creditor"],
                         "amount": debt["amount"], "reason": debt["reason"],
                         **({"rule": debt["cite"]} if debt.get("cite") else {})}


# Version 1's generic patches that name one fact by their data (#28 item 3).
UPCASTERS.update({
    "debt_changed": _debt_changed,
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
        if step is None and name not in EVENT_TYPES and not _loaded:
            _loaded.append(True)  # an edition's own type, its module not yet imported
            load_editions()
            continue
        if step is None:
            raise ValueError(f"unknown event type {tag!r}")
        tag, data = step(data)
        steps += 1
        if steps > 100:  # pragma: no cover - a cycle in the table
            raise ValueError(f"upcasting {tag!r} does not end")


def is_current(tag: str) -> bool:
    cls = EVENT_TYPES.get(tag.split("@", 1)[0])
    return cls is not None and cls.tag() == tag and tag not in UPCASTERS


def schema() -> dict[str, dict[str, str]]:
    """``{tag: {field: type}}`` of every current event type (for the committed snapshot)."""
    load_editions()
    out = {}
    for cls in EVENT_TYPES.values():
        hints = {f.name: str(f.type) + ("" if f.default is dataclasses.MISSING else " = default")
                 for f in dataclasses.fields(cls)}
        out[cls.tag()] = hints
    return out
