"""A command being decided (:class:`Ctx`: the working state, the events emitted so far, the
rule being applied), the ``@cites`` decorator that names a rule method's citation, and the
check of dice a player entered. The interpreter that runs them: :mod:`companion.engine.rules`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

from companion.engine import prompt_log
from companion.engine import rng as rng_mod
from companion.engine.event_format import checked
from companion.engine.prompts import ChoicePrompt, CommandPrompt, PromptKind, RollPrompt
from companion.engine.state import (
    BaseState,
    PromptAsked,
    PromptCleared,
    Task,
    evolve,
    todo_change,
)
from companion.engine.types import Event, IllegalCommand, Prompt

S = TypeVar("S", bound=BaseState)
F = TypeVar("F", bound=Callable[..., Any])
_ASKED, _CLEARED = PromptAsked.NAME, PromptCleared.NAME  # emitted by name, stored by tag


@dataclass(frozen=True)
class RollAsk:
    """A prompt the ``roll`` command answers: ``who`` rolls (or enters) ``count`` dice, then
    the step ``task`` runs with ``dice=`` and ``args``; ``label`` is the button's word."""

    who: str
    count: int
    task: str
    args: Mapping[str, Any] = field(default_factory=dict)
    label: str = "Roll"
    command: ClassVar[str] = "roll"

    def data(self) -> dict[str, Any]:
        """The prompt's data as the log stores it."""
        return {"roll": {"who": self.who, "count": self.count, "task": self.task,
                         "args": dict(self.args), "label": self.label}}


@dataclass(frozen=True)
class ChoiceAsk:
    """A prompt the ``choose`` command answers with the value of one of ``options``
    ((value, label) pairs); then the step ``task`` runs with ``option=`` and ``args``."""

    options: tuple[tuple[Any, str], ...]
    task: str
    args: Mapping[str, Any] = field(default_factory=dict)
    command: ClassVar[str] = "choose"

    def data(self) -> dict[str, Any]:
        """The prompt's data as the log stores it."""
        return {"options": [{"value": v, "label": label} for v, label in self.options],
                "task": self.task, "args": dict(self.args)}


Ask = RollAsk | ChoiceAsk
"""A prompt the engine's own commands answer; any other prompt is answered by the
edition's commands for its ``kind`` (``legal_actions`` lists them)."""


def ask_of(prompt: Prompt | None) -> Ask | None:
    """The typed ask of ``prompt``, read back from its data (as the log stores it); None
    when the edition's own commands answer it."""
    if prompt is None:
        return None
    data = prompt.data
    spec = data.get("roll")
    if spec is not None:
        return RollAsk(spec["who"], spec["count"], spec.get("task", ""), spec.get("args", {}),
                       spec.get("label", "Roll"))
    if "options" in data and "task" in data:
        return ChoiceAsk(tuple((o["value"], o["label"]) for o in data["options"]),
                         data["task"], data["args"])
    return None


class Applies(Protocol[S]):
    """What a command being decided needs of its edition's rules (every
    :class:`~companion.engine.rules.Rules` has it)."""

    def apply(self, state: S, event: Event) -> S: ...

    def can_end(self, tag: str) -> bool: ...


class Ctx(Generic[S]):
    """A command being decided: the working state and the events emitted so far."""

    def __init__(self, rules: Applies[S], state: S) -> None:
        self.rules = rules
        self.state = state
        self.events: list[Event] = []
        self.todo: list[Task] = list(state.todo)
        """The working to-do list (written to the state when the command is done)."""
        self._cursor = 0
        self.cite = ""
        """The rule being applied (its citation id), set by :meth:`citing` and ``@cites``."""
        self.may_end = False
        """Whether an event that can end the game (``Rules.ends_after``) was emitted since the
        last end check."""

    def emit(self, type: str, say: str = "", *, cite: str | None = None, **data: Any) -> None:
        """Record event ``type`` (a name declared in :mod:`companion.engine.events`; its
        fields are checked, a missing or misspelt one fails here) and apply it to the working
        state. It carries ``cite``, else the rule being applied (:meth:`citing`)."""
        event = checked(type, data, say, self.cite if cite is None else cite)
        self.state = self.rules.apply(self.state, event)
        self.events.append(event)
        if self.rules.can_end(event.type):
            self.may_end = True

    @contextmanager
    def citing(self, rule: str) -> Iterator[None]:
        """Events emitted inside carry citation id ``rule`` (innermost wins; "" keeps the
        outer one)."""
        outer = self.cite
        self.cite = rule or outer
        try:
            yield
        finally:
            self.cite = outer

    def say(self, text: str) -> None:
        """Record a note for the players that changes nothing else."""
        self.emit("noted", text)

    def ask(self, prompt: PromptKind, to: tuple[str, ...] | list[str], text: str,
            answer: Ask | None = None, **data: Any) -> None:
        """Wait for a decision: the interpreter stops until a command answers it. ``prompt``
        is its declared kind (:mod:`companion.engine.prompts`); a roll or a choice carries
        its ``answer`` (:class:`RollAsk`, :class:`ChoiceAsk`) naming the step that prompt
        declares; the edition's commands answer a :class:`CommandPrompt`."""
        if isinstance(prompt, RollPrompt | ChoicePrompt):
            wanted = RollAsk if isinstance(prompt, RollPrompt) else ChoiceAsk
            if not isinstance(answer, wanted) or answer.task != prompt.then:
                raise TypeError(f"{prompt} is answered by a {wanted.__name__} running "
                                f"{prompt.then!r}, not {answer!r}")
            data = {**answer.data(), **data}
        elif not isinstance(prompt, CommandPrompt) or answer is not None:
            raise TypeError(f"ask takes a declared prompt (companion.engine.prompts), "
                            f"not {prompt!r} with {answer!r}")
        self.state = evolve(self.state, prompt=Prompt(prompt.kind, tuple(to), text, data))

    def ask_again(self, prompt: PromptKind, to: Sequence[str], text: str,
                  data: Mapping[str, Any]) -> None:
        """Ask a prompt that stood before as it was (its stored data already says what
        answers it): Mario's rent asked for while a question stands."""
        self.state = evolve(self.state, prompt=Prompt(prompt.kind, tuple(to), text, dict(data)))

    def clear_prompt(self) -> None:
        if self.state.prompt is not None:
            self.state = evolve(self.state, prompt=None)

    def set_todo(self, todo: list[Task] | tuple[Task, ...]) -> None:
        """Replace the to-do list (``prompt_asked`` or ``prompt_cleared`` records it)."""
        self.todo = list(todo)

    def finish(self, start: BaseState) -> None:
        """Record the question the command leaves and the to-do list after it, in one
        ``prompt_asked`` (or ``prompt_cleared``) fact.

        Bookkeeping changes the working state directly while a command is decided; only its
        end result is stored, so replay does the same with far fewer events."""
        state = self.state
        before = state.todo  # what a replay has when it applies the fact
        todo = () if state.finished else tuple(self.todo)
        if todo != before:
            state = self.state = evolve(state, todo=todo)
        prompt = state.prompt
        if (prompt is not start.prompt and prompt != start.prompt) or state.todo != start.todo:
            data = todo_change(before, todo)
            tag = _CLEARED
            if prompt is not None:
                tag = _ASKED
                kept = prompt_log.stored(self.rules, prompt.kind, prompt.to, prompt.data)
                asked = {"data": kept} if kept else {}
                data = {"kind": prompt.kind, "to": list(prompt.to), "text": prompt.text,
                        **asked, **data}
            self.emit(tag, **data)

    def then(self, *tasks: Task) -> None:
        """Run ``tasks`` next, before anything that was already on the to-do list.

        Several ``then`` calls from one step run in the order they were made."""
        if tasks:
            self.todo[self._cursor : self._cursor] = tasks
            self._cursor += len(tasks)

    def later(self, *tasks: Task) -> None:
        """Run ``tasks`` after everything already on the to-do list."""
        if tasks:
            self.todo.extend(tasks)

    def roll(
        self, count: int, entered: Any, who: str, purpose: str, sides: int = 6
    ) -> tuple[int, ...]:
        """Dice for ``purpose``: the values entered (physical dice) or drawn from the game's
        generator (digital dice). Either way the values land in a ``rolled`` event."""
        physical = self.state.setup.dice == "physical"
        if entered is None or entered == []:
            if physical:
                raise IllegalCommand(
                    f"This game uses physical dice: enter the {count} value(s) you rolled."
                )
            values, nxt = rng_mod.roll(self.state.rng, count, sides)
        else:
            if not physical:
                raise IllegalCommand(
                    "This game rolls digital dice: press roll without entering values."
                )
            values = parse_dice(entered, count, sides)
            nxt = self.state.rng
        self.emit("rolled", who=who, dice=list(values), purpose=purpose, rng=nxt)
        return values

    def draw(self, n: int) -> int:
        """A uniform integer in ``range(n)`` from the game's generator (shuffles, random picks)."""
        value, nxt = rng_mod.below(self.state.rng, n)
        self.emit("rng_advanced", rng=nxt)
        return value


CITES = "__cites__"


def cites(rule: str | Callable[..., str], *ids: str) -> Callable[[F], F]:
    """Events a rule method ``(self, ctx, ...)`` emits carry citation id ``rule``, or the id
    ``rule(self, ctx, ...)`` picks from ``ids`` (a rule that depends on the arguments). The
    edition's ``[citations]`` catalogue must have every id: checked when the edition loads."""
    def pick(self: Any, ctx: Ctx[Any], *args: Any, **kwargs: Any) -> str:
        return rule if isinstance(rule, str) else rule(self, ctx, *args, **kwargs)

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def run(self: Any, ctx: Ctx[Any], *args: Any, **kwargs: Any) -> Any:
            with ctx.citing(pick(self, ctx, *args, **kwargs)):
                return fn(self, ctx, *args, **kwargs)

        named = (rule,) if isinstance(rule, str) else ids
        setattr(run, CITES, (*getattr(fn, CITES, ()), *named))
        return cast(F, run)

    return wrap


def parse_dice(entered: Any, count: int, sides: int = 6) -> tuple[int, ...]:
    """Validate dice values a player entered."""
    if type(entered) is list and len(entered) == count:  # the usual answer: a list of ints
        for v in entered:
            if type(v) is not int or not 1 <= v <= sides:
                break
        else:
            return tuple(entered)
    if isinstance(entered, int) and not isinstance(entered, bool):
        entered = [entered]
    if not isinstance(entered, list | tuple) or len(entered) != count:
        raise IllegalCommand(f"Enter exactly {count} die value(s).")
    values = []
    for v in entered:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= sides:
            raise IllegalCommand(f"A die shows a whole number from 1 to {sides}.")
        values.append(v)
    return tuple(values)
