"""The part of a game's state every edition shares: generator, prompt, to-do list, ending."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from companion.engine.types import GameSetup, Prompt


@dataclass(frozen=True, slots=True)
class Task:
    """A step the rules still have to run once the current prompt is answered.

    Tasks are data (a name and plain arguments), so the to-do list is part of the state,
    replays exactly, and survives a restart in the middle of a turn.
    """

    name: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "args": dict(self.args)}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Task:
        return cls(str(raw["name"]), dict(raw.get("args", {})))


@dataclass(frozen=True)
class BaseState:
    """Fields every edition's state has. Editions subclass it with their own table."""

    setup: GameSetup
    rng: int
    """The seeded generator's state (see :mod:`companion.engine.rng`)."""
    prompt: Prompt | None = None
    todo: tuple[Task, ...] = ()
    finished: bool = False
    winners: tuple[str, ...] = ()
    """Player ids of the winners once finished; empty with ``finished`` means nobody won."""
    end_reason: str = ""
    last_roll: tuple[int, ...] = ()

    @property
    def edition(self) -> str:
        return self.setup.edition


T = TypeVar("T")


def evolve(obj: T, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with ``changes``: ``dataclasses.replace`` without
    re-running ``__init__`` (states are replaced for every event, so this is the hot path).
    Only for dataclasses with a ``__dict__`` (no slots); unknown field names are refused."""
    new = _new(type(obj))
    old = obj.__dict__
    fresh = old.copy()
    fresh.update(changes)
    if len(fresh) != len(old):  # a name that is not a field added a key
        names = {f.name for f in fields(obj)}  # type: ignore[arg-type]
        raise TypeError(f"{type(obj).__name__} has no field(s) {sorted(changes.keys() - names)}")
    _set(new, "__dict__", fresh)
    return new


_new = object.__new__
_set = object.__setattr__
