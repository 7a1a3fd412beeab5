"""The part of a game's state every edition shares (generator, prompt, to-do list, ending),
the engine's own events that change it, the facts of the question the rules asked, and the
copies the interpreter makes."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from companion.engine import prompt_log
from companion.engine.event_format import UPCASTERS, EventData, fact
from companion.engine.events import Finished, Noted, RngAdvanced, Rolled
from companion.engine.i18n import Msg
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


S = TypeVar("S", bound=BaseState)


# -- the question a command leaves (one fact per command, see Ctx.finish) ----------------------
@fact("prompt_asked", 2)
class PromptAsked(EventData):
    """The rules asked a prompt of kind ``kind`` (its id) of the players ``to``, saying
    ``text`` (a message: the log stores its id and arguments), with ``data`` (what answers
    it), and wait for the answer. The to-do list after it is the steps ``todo`` followed by
    the last ``kept`` steps of the list before it (only what changed is stored)."""

    kind: str
    to: list[str]
    text: str
    todo: Sequence[Mapping[str, Any]] = ()
    data: Mapping[str, Any] | None = None
    kept: int = 0


@fact("prompt_cleared", 2)
class PromptCleared(EventData):
    """The command left no question standing (it was answered, or the game ended); the
    to-do list is ``todo`` then the last ``kept`` steps of the list before (none once the
    rules have settled)."""

    todo: Sequence[Mapping[str, Any]] = ()
    kept: int = 0


def flow_upcast(data: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    """An earlier version's ``flow_changed`` (the prompt, or None, and the to-do list) as the
    fact it was."""
    if data["prompt"] is None:
        return "prompt_cleared", {"todo": data["todo"]}
    return "prompt_asked", {"prompt": data["prompt"], "todo": data["todo"]}


def asked_upcast(data: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    """Version 1 of ``prompt_asked`` (the whole prompt and the whole to-do list) as version 2."""
    prompt = data["prompt"]
    extra = {"data": prompt["data"]} if prompt.get("data") else {}
    return PromptAsked.tag(), {"kind": prompt["kind"], "to": prompt["to"],
                               "text": prompt["text"], **extra, "todo": data["todo"]}


UPCASTERS.update({
    "flow_changed": flow_upcast,
    "prompt_asked": asked_upcast,
    "prompt_cleared": lambda data: (PromptCleared.tag(), data),
})


def todo_change(before: tuple[Task, ...], after: tuple[Task, ...]) -> dict[str, Any]:
    """How ``prompt_asked``/``prompt_cleared`` store the to-do list ``after`` that follows
    ``before``: the new steps first (``todo``), then how many of the last steps before stay."""
    kept = 0
    for old, new in zip(reversed(before), reversed(after), strict=False):
        if old != new:
            break
        kept += 1
    out: dict[str, Any] = {}
    if len(after) > kept:
        out["todo"] = [t.to_json() for t in after[:len(after) - kept]]
    if kept:
        out["kept"] = kept
    return out


def _todo(before: tuple[Task, ...], todo: Sequence[Mapping[str, Any]], kept: int
          ) -> tuple[Task, ...]:
    """The to-do list :func:`todo_change` stored."""
    return (*(Task.from_json(t) for t in todo), *(before[len(before) - kept:] if kept else ()))


class SharedEvents(Generic[S]):
    """How the engine's own events change the fields every state has (the ``on_`` handlers
    every edition's :class:`~companion.engine.rules.Rules` inherits)."""

    def on_prompt_asked(self, state: S, e: PromptAsked) -> S:
        text = e.text if isinstance(e.text, Msg) else str(e.text)
        data = prompt_log.read(self, e.kind, e.to, e.data or {})
        return evolve(state, prompt=Prompt(e.kind, tuple(e.to), text, data),
                      todo=_todo(state.todo, e.todo, e.kept))

    def on_prompt_cleared(self, state: S, e: PromptCleared) -> S:
        return evolve(state, prompt=None, todo=_todo(state.todo, e.todo, e.kept))

    def on_rolled(self, state: S, e: Rolled) -> S:
        return evolve(state, rng=e.rng, last_roll=tuple(e.dice))

    def on_rng_advanced(self, state: S, e: RngAdvanced) -> S:
        return evolve(state, rng=e.rng)

    def on_noted(self, state: S, e: Noted) -> S:
        return state

    def on_finished(self, state: S, e: Finished) -> S:
        return evolve(
            state,
            finished=True,
            winners=tuple(e.winners),
            end_reason=e.reason,
            prompt=None,
            todo=(),
        )


T = TypeVar("T")


def evolve(obj: T, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with ``changes`` (``dataclasses.replace``); a
    :func:`draft` is changed in place instead and returned. Unknown field names are refused."""
    values = vars(obj)
    if DRAFT not in values:
        return replace(obj, **changes)  # type: ignore[type-var]
    unknown = changes.keys() - values.keys()
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field(s) {sorted(unknown)}")
    values.update(changes)
    return obj


DRAFT = "_draft"
"""The key a draft's instance dict holds (no dataclass field has it)."""


def draft(obj: T) -> T:
    """A working copy of the frozen dataclass ``obj`` that :func:`evolve` changes in place:
    one copy per command (or replay) instead of one per event, the one mechanism kept for
    cheap state changes (docs/decisions.md, 2026-12-07: a replay copying the state per event
    takes about four times as long, beyond the 50 ms budget). Whoever makes a draft holds the
    only reference to it and must :func:`seal` it before anyone else sees it; ``obj`` itself
    never changes."""
    new = copy.copy(obj)
    vars(new)[DRAFT] = True
    return new


def seal(obj: T) -> T:
    """``obj`` made an ordinary immutable value again (a no-op on one that is not a draft)."""
    vars(obj).pop(DRAFT, None)
    return obj
