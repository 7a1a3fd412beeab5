"""The engine's front door: start a game, decide commands, apply events, replay a log.

These functions are pure: the same inputs always give the same outputs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from companion.engine.context import Ctx
from companion.engine.editions import find_edition
from companion.engine.i18n import Msg
from companion.engine.state import BaseState, draft, seal
from companion.engine.types import Action, Command, Event, GameSetup

GAME_STARTED = "game_started"
UNDONE = "undone"


def new_game(setup: GameSetup) -> list[Event]:
    """The opening events of a game (validates the setup; raises SetupError)."""
    from companion.engine.limits import check_setup  # late: the limits import the engine

    rules = find_edition(setup.edition)
    check_setup(setup, rules.setup_info())  # one check, wherever the settings come from
    first = Event(GAME_STARTED, setup.to_json(),
                  Msg("A game of {title} begins.", title=rules.title))
    state = apply(None, first)
    ctx = Ctx(rules, state)
    rules.start(ctx)
    rules.run(ctx)
    ctx.finish(state)
    return [first, *ctx.events]


def apply(state: BaseState | None, event: Event) -> BaseState:
    """The state after ``event``."""
    if event.type == GAME_STARTED:
        setup = GameSetup.from_json(event.data)
        initial: BaseState = find_edition(setup.edition).initial_state(setup)
        return initial
    if state is None:
        raise ValueError("the first event of a game must be game_started")
    new: BaseState = find_edition(state.edition).apply(state, event)
    return new


def decide(state: BaseState, command: Command) -> list[Event]:
    """The events ``command`` causes, or a RuleError naming the rule it breaks."""
    return find_edition(state.edition).decide(state, command)


def step(state: BaseState, command: Command) -> tuple[list[Event], BaseState]:
    """``decide`` and the state after its events, in one go."""
    return find_edition(state.edition).step(state, command)


def legal_actions(state: BaseState) -> list[Action]:
    """Every command that is legal now, for every actor."""
    if state.finished:
        return []
    return find_edition(state.edition).legal_actions(state)


def view(state: BaseState, viewer: str | None = None) -> dict[str, Any]:
    """The JSON every front end renders."""
    return find_edition(state.edition).view(state, viewer)


def undo_marks(log: Iterable[tuple[int, Event]]) -> list[tuple[int, int]]:
    """Every ``undone`` event of the log: ``(its seq, the last seq it kept)``."""
    return [(seq, int(e.data["to_seq"])) for seq, e in log if e.type == UNDONE]


def taken_back(seq: int, marks: Sequence[tuple[int, int]]) -> bool:
    """Whether an undo took back the event at ``seq``: an ``undone`` event at ``m`` that kept
    up to ``t`` takes back every event between (``marks``: the whole log's
    :func:`undo_marks`, so a log can be read a row at a time after them)."""
    return any(t < seq < m for m, t in marks)


def effective(
    log: Iterable[tuple[int, Event]], keep_markers: bool = False
) -> list[tuple[int, Event]]:
    """The events still in force (:func:`taken_back`). Sequence numbers come from the log;
    nothing is ever deleted there. ``keep_markers`` keeps the ``undone`` events themselves
    that are still in force (for the players' log)."""
    log = list(log)
    marks = undo_marks(log)
    return [(seq, e) for seq, e in log
            if (keep_markers or e.type != UNDONE) and not taken_back(seq, marks)]


def replay(events: Iterable[Event], state: BaseState | None = None) -> BaseState:
    """Fold events (already free of undone ones) into a state (a working copy changed in
    place, sealed at the end: ``state`` itself never changes)."""
    current = None if state is None else draft(state)
    rules = None if state is None else find_edition(state.edition)
    for event in events:
        if event.type == GAME_STARTED or current is None:
            current = draft(apply(current, event))
            rules = find_edition(current.edition)
        else:
            assert rules is not None
            current = rules.apply(current, event)
    if current is None:
        raise ValueError("an empty log has no game")
    return seal(current)
