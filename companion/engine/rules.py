"""The edition interface and the small interpreter that runs an edition's rules.

An edition is a :class:`Rules` subclass. It names its handlers by prefix:

- ``cmd_<type>(ctx, actor, args)`` decides what a command does (raise :class:`RuleError` to
  refuse): ``actor`` sent it, ``args`` is the dataclass its ``@takes`` declares, built from
  the checked command (:mod:`companion.engine.commands`); ``refuse_<type>(state, actor, args)``
  may explain a refusal better;
- a method declared ``@task("<id>")`` runs one step of the to-do list (the log stores the
  id, so renaming the method changes no saved game; see :mod:`companion.engine.registry`);
- ``on_<event name>(state, e) -> state`` applies one event (pure; ``e`` is the event's
  dataclass from :mod:`companion.engine.events`).

``decide`` runs a command against a working copy of the state: each emitted event is applied
at once, so later rules see its effect, and the resulting event list applied to the original
state gives exactly the same new state. The command being decided and ``@cites``:
:mod:`companion.engine.context`; the engine's own events' handlers:
:class:`companion.engine.state.SharedEvents`; the citation catalogue:
:mod:`companion.engine.citations`; the roll and choice prompts and the commands that answer
them: :mod:`companion.engine.asks`.
"""

from __future__ import annotations

import functools
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from importlib.resources.abc import Traversable
from typing import Any, TypeVar, cast

from companion.engine.asks import GenericAsks
from companion.engine.citations import CitationCatalogue
from companion.engine.commands import ArgumentError, check_args, declared_args, typed_args
from companion.engine.context import Ctx as Ctx  # editions and tests import these from here
from companion.engine.context import cites as cites
from companion.engine.event_format import EVENT_TYPES, is_current, renamed_to, upcast
from companion.engine.help import Help
from companion.engine.i18n import Msg, add_catalogues
from companion.engine.registry import handler, unanswered
from companion.engine.state import BaseState, SharedEvents, draft, seal
from companion.engine.types import BANKER, Action, Command, Event, GameSetup, IllegalCommand

S = TypeVar("S", bound=BaseState)


_NAME = re.compile(r"^[a-z][a-z0-9_]{0,40}$")
MAX_STEPS = 10_000


class Rules(SharedEvents[S], CitationCatalogue, GenericAsks[S], ABC):
    """Base class of every edition's rules. Subclasses set ``name`` and ``title``."""

    name: str = ""
    title: str = ""
    family: str = ""
    prompt_help: Mapping[str, Help] = {}
    """First-game help for each prompt kind the edition asks (companion/service/prompt_help.py;
    tests/story/test_prompt_help.py fails on a kind with none)."""
    move_words: Mapping[str, str] = {}
    """Each of the edition's commands as a player names that move (``"{player}'s catch"``,
    a message marked ``N_``), for the banker's undo and the history."""
    glance_forms: Mapping[str, tuple[str, ...]] = {}
    """Each prompt kind's short forms for the 128x64 OLED (``N_`` messages naming the
    prompt's arguments: hardware/glance.py uses the first its message fills)."""
    locales: Traversable | None = None
    """The edition's own words in every language: ``messages.pot`` and
    ``<lang>/LC_MESSAGES/messages.po`` in the ``locales`` folder of its package (kept by
    ./scripts/messages for a shipped edition); read beside companion's catalogue from the
    moment the class exists (:func:`companion.engine.i18n.add_catalogues`)."""
    page: Mapping[str, Any] = {}
    """What the phone page draws differently for this edition, as data it reads (it never
    names an edition): ``assets`` (what is traded beyond money,
    spaces and cards: ``[{kind, label, item}]``), ``dice`` (named dice in words),
    ``you_say`` / ``you_hear`` (its log messages said to the reader: message id -> the
    second-person message id). Sent in the view (``page``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """An edition (a class that sets ``name`` and leaves nothing abstract) must answer
        every prompt it may ask (:func:`companion.engine.registry.unanswered`): checked at
        import, not at the table. Its own catalogues (``locales``) are read from then on."""
        super().__init_subclass__(**kwargs)
        if cls.locales is not None:
            add_catalogues(cls.locales)
        if "name" not in vars(cls) or any(getattr(getattr(cls, n, None), "__isabstractmethod__",
                                                  False) for n in dir(cls)):
            return  # a part of an edition (ABCMeta has not yet counted its abstract methods)
        problems = unanswered(cls)
        if problems:
            raise TypeError(f"{cls.__name__}: " + "; ".join(problems))

    # -- to be provided by each edition -----------------------------------------------------
    @abstractmethod
    def initial_state(self, setup: GameSetup) -> S:
        """The state right after ``game_started`` (raise SetupError for a bad setup)."""

    @abstractmethod
    def start(self, ctx: Ctx[S]) -> None:
        """Schedule the first tasks of a new game."""

    @abstractmethod
    def actions(self, state: S) -> list[Action]:
        """Every legal command right now, for every actor."""

    @abstractmethod
    def view(self, state: S, viewer: str | None = None) -> dict[str, Any]:
        """The JSON a front end shows (``viewer``: whose secrets may be shown)."""

    def setup_info(self) -> dict[str, Any]:
        """What the setup form offers for this edition (``GET /api/editions/<name>``):
        ``settings`` (``[{name, label, type: int|choice|text|counts|json, min?, max?,
        choices?, default}]``), ``tokens`` (names to pick from), ``board`` (correctable board
        data, or None) and ``unverified`` (facts shipped as defaults, not from the rulebook)."""
        return {"settings": [], "tokens": [], "board": None, "unverified": []}

    def check(self) -> None:
        """Check the edition's data against its declared rules when it loads (raise
        :class:`companion.engine.seeds.SeedError` naming the file and field)."""

    def interpret_tap(self, state: S, obj: str, role: str) -> Command:
        """What a tag tap means now (``obj`` like ``"token:..."``); RuleError says why not."""
        raise IllegalCommand(Msg("That tag means nothing in this game."))

    def story_counters(self) -> Sequence[Any]:
        """What the game's story counts for each player (``Counter``s, see
        :mod:`companion.engine.story`), declared beside the edition; none: the story says
        only who won."""
        return ()

    def end_cite(self, state: S) -> str:
        """The rule that ended a finished game, for a log from before citations (which
        stored none with the end); "" when the edition cannot say."""
        return ""

    # -- the interpreter ------------------------------------------------------------------
    def apply(self, state: S, event: Event) -> S:
        """The state after ``event`` (pure; handlers looked up once per event type)."""
        on = self._apply_handlers.get(event.type) or self._add_handler(event.type)
        if event.say and self._hears:
            return self.note_said(on(state, event.data), event.say)
        return on(state, event.data)

    def note_said(self, state: S, say: str) -> S:
        """Edition hook: the state after an event that told the players ``say`` (Master
        Trainer keeps the latest lines for its page); the base keeps nothing."""
        return state

    @functools.cached_property
    def _hears(self) -> bool:
        """Whether the edition implements :meth:`note_said`."""
        return type(self).note_said is not Rules.note_said

    @functools.cached_property
    def _apply_handlers(self) -> dict[str, Callable[[S, Mapping[str, Any]], S]]:
        """Apply handlers by stored tag, filled as tags are first met."""
        return {}

    def _add_handler(self, tag: str) -> Callable[[S, Mapping[str, Any]], S]:
        on = self._apply_handlers[tag] = self._handler(tag)
        return on

    def _handler(self, tag: str) -> Callable[[S, Mapping[str, Any]], S]:
        """The apply handler of events stored as ``tag``; a tag an earlier version wrote is
        upcast to the current event first (see :mod:`companion.engine.events`)."""
        if is_current(tag):
            name = tag.split("@", 1)[0]
            found = getattr(self, "on_" + name, None)
            if found is None:
                raise ValueError(f"{self.name}: no handler for event type {tag!r}")
            on = cast(Callable[[S, Any], S], found)
            cls = EVENT_TYPES[name]

            def apply_current(state: S, data: Mapping[str, Any]) -> S:
                return on(state, cls(**data))

            return apply_current

        same_data = renamed_to(tag)
        if same_data is not None:  # a pure rename: the current handler, nothing per event
            return self._handler(same_data)

        def upcast_then_apply(state: S, data: Mapping[str, Any]) -> S:
            return self.apply(state, Event(*upcast(tag, data)))

        return upcast_then_apply

    def decide(self, state: S, command: Command) -> list[Event]:
        return self.step(state, command)[0]

    def step(self, state: S, command: Command) -> tuple[list[Event], S]:
        """The events ``command`` causes and the state after them (the same state applying
        the events gives; returned so the caller need not apply them again)."""
        if state.finished and command.type not in self.after_end_commands:
            raise IllegalCommand(Msg("The game is over: {reason}", reason=state.end_reason))
        found = self._commands.get(command.type)
        if found is None:
            if not _NAME.match(command.type):
                raise IllegalCommand(Msg("Unknown command {name}.", name=repr(command.type)))
            handler = getattr(self, "cmd_" + command.type, None)
            if handler is None:
                raise IllegalCommand(Msg("{game} has no command {name}.", game=self.title,
                                           name=repr(command.type)))
            found = self._commands[command.type] = (
                handler, getattr(self, "refuse_" + command.type, None), declared_args(handler))
        handler = found[0]
        if command.args:
            try:
                check_args(found[2], command)
            except ArgumentError as exc:
                self.refuse_arguments(state, command, exc)
        args: object = typed_args(found[2], command.args)
        self.check_legal(state, command, args)
        ctx = Ctx(self, draft(state))  # changed in place by each event; ``state`` never is
        handler(ctx, command.actor, args)  # a ``@cites`` handler sets the citation it emits
        if ctx.may_end or self.ends_after is None:
            ctx.may_end = False
            self.after_step(ctx)
        self.run(ctx)
        prompt = ctx.state.prompt
        if prompt is not None and prompt is state.prompt and prompt.kind in self.live_prompts:
            self.refresh_prompt(ctx)
        ctx.finish(state)
        return ctx.events, seal(ctx.state)

    live_prompts: frozenset[str] = frozenset()
    """Kinds of prompt whose words or data depend on more than the command that asked them
    (Pokémon's odds count the Poké Balls): asked again by :meth:`refresh_prompt` after any
    command that leaves them standing."""

    def refresh_prompt(self, ctx: Ctx[S]) -> None:
        """Ask the standing prompt (one of :attr:`live_prompts`) again from ``ctx.state``."""

    after_end_commands: frozenset[str] = frozenset()

    @functools.cached_property
    def _commands(self) -> dict[str, tuple[Callable[..., Any], Callable[..., Any] | None, type]]:
        """Command type -> its ``cmd_`` handler, its ``refuse_`` check and its declared
        arguments (``@takes``), looked up once."""
        return {}

    def command_args(self) -> dict[str, type]:
        """Every command this edition has, with the argument structure its handler declares
        (``@takes``; :mod:`companion.engine.commands`): what the OpenAPI document lists."""
        out = {}
        for name in sorted(dir(type(self))):
            if name.startswith("cmd_") and not self.absent(Command("", name[4:])):
                out[name[4:]] = declared_args(getattr(self, name))
        return out

    def refuse_arguments(self, state: S, command: Command, why: ArgumentError) -> None:
        """Refuse ``command`` whose arguments its handler does not declare or are out of
        bounds (``why``); a command that is not possible now at all is refused for that
        instead (a roll sent at the wrong moment is told it is not the time to roll, not
        about its dice)."""
        same = [a for a in self.legal_actions(state) if a.type == command.type]
        if not same:
            raise IllegalCommand(Msg("It is not the time to {command}. {waiting}",
                                     command=command.type.replace("_", " "),
                                     waiting=self.waiting_for(state))) from None
        actors = sorted({a.actor for a in same})
        if command.actor not in actors:
            raise IllegalCommand(Msg("{actor} cannot do that now: only {names} can.",
                                     actor=self.actor_name(state, command.actor),
                                     names=[self.actor_name(state, a) for a in actors])
                                 ) from None
        raise why

    def run(self, ctx: Ctx[S]) -> None:
        """Run the to-do list until the rules wait for a decision or the game ends."""
        tasks = self._tasks
        for _ in range(MAX_STEPS):
            todo = ctx.todo  # ``set_todo`` may have replaced the list
            state = ctx.state
            if not todo or state.prompt is not None or state.finished:
                return
            task = todo.pop(0)
            ctx._cursor = 0
            ctx.may_end = False
            run_task = tasks.get(task.name) or self._add_task(tasks, task.name)
            run_task(ctx, **task.args)
            if ctx.may_end:  # only events change what ends a game
                ctx.may_end = False
                self.after_step(ctx)
        state = ctx.state
        if ctx.todo and state.prompt is None and not state.finished:  # pragma: no cover
            raise RuntimeError("the rules did not settle")  # a rules bug, never a player's fault

    @functools.cached_property
    def _tasks(self) -> dict[str, Callable[..., Any]]:
        """Task name -> its handler, looked up once (:meth:`_add_task`)."""
        return {}

    def _add_task(self, tasks: dict[str, Callable[..., Any]], name: str) -> Callable[..., Any]:
        """Task ``name``'s handler, kept in ``tasks``."""
        found = handler(self, "task", name)
        if found is None:  # pragma: no cover - a rules bug, never a player's fault
            raise RuntimeError(f"{self.name}: no task declared with id {name!r}")
        tasks[name] = found
        return found

    def after_step(self, ctx: Ctx[S]) -> None:
        """Called after each command and task: editions end the game here when it is over."""

    ends_after: frozenset[str] | None = None
    """The tags of the events that can end the game (``after_step`` runs only after a step
    that emitted one), or None: after any event. An edition whose end depends on few events
    names them, since the check would otherwise run after almost every step."""

    def can_end(self, tag: str) -> bool:
        """Whether an event stored as ``tag`` can end the game (see :attr:`ends_after`)."""
        return self.ends_after is None or tag in self.ends_after

    def action_groups(self, state: S) -> Iterator[list[Action]]:
        """``actions(state)`` in parts, most likely first, so checking a command usually needs
        only the first part (editions with cheap prompt actions and costly free ones split)."""
        yield self.actions(state)

    def legal_actions(self, state: S) -> list[Action]:
        """Every legal command now, for every actor (``actions(state)``)."""
        return self.actions(state)

    def check_legal(self, state: S, command: Command, args: Any) -> None:
        """Refuse a command no legal action matches, saying who may act and on what (``args``:
        its arguments as its handler declares them).

        An edition may explain a refusal better with ``refuse_<type>(state, actor, args)``, or
        refuse a command it does not have at all with ``absent(command)``."""
        why_absent = self.absent(command)
        if why_absent:
            raise IllegalCommand(why_absent)
        found = self._commands.get(command.type)
        refuse = getattr(self, "refuse_" + command.type, None) if found is None else found[1]
        if refuse is not None:
            why = refuse(state, command.actor, args)
            if why:
                raise IllegalCommand(why)
        groups = self.action_groups(state)
        kind, actor, given = command.type, command.actor, command.args
        for group in groups:
            for a in group:
                if a.type == kind and a.actor == actor and (not a.args or all(
                    given.get(k) == v for k, v in a.args.items()
                )):
                    return
        legal = self.actions(state)
        same_type = [a for a in legal if a.type == command.type]
        for a in same_type:
            if a.actor == command.actor and all(
                command.args.get(k) == v for k, v in a.args.items()
            ):
                return
        if same_type:
            actors = sorted({a.actor for a in same_type})
            if command.actor not in actors:
                raise IllegalCommand(Msg("{actor} cannot do that now: only {names} can.",
                                         actor=self.actor_name(state, command.actor),
                                         names=[self.actor_name(state, a) for a in actors]))
            raise IllegalCommand(Msg("That choice is not one of the options: {waiting}",
                                     waiting=self.waiting_for(state)))
        raise IllegalCommand(Msg("That is not possible now. {waiting}",
                                 waiting=self.waiting_for(state)))

    def absent(self, command: Command) -> str:
        """Why this edition has no ``command`` at all ("" when it has it)."""
        return ""

    def waiting_for(self, state: S) -> str:
        if state.prompt is None:
            return Msg("Nothing is being asked.")
        return Msg("Waiting for: {prompt}", prompt=state.prompt.text)

    def actor_name(self, state: S, actor: str) -> str:
        if actor == BANKER:
            return Msg("the banker")
        for seat in state.setup.players:
            if seat.id == actor:
                return seat.name
        return actor
