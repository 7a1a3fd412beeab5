"""The rules' front door by edition name: start a game, decide commands, apply events, replay
a log. Each call finds its edition's rules in the installed editions (:mod:`.editions`).

These functions are pure: the same inputs always give the same outputs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.engine.context import Ctx
from companion.engine.i18n import Msg
from companion.engine.log import GAME_STARTED, UNDONE, effective, taken_back, undo_marks
from companion.engine.state import BaseState, draft, seal
from companion.engine.types import Action, Command, Event, GameSetup
from companion.plugins.editions import find_edition

__all__ = ["GAME_STARTED", "UNDONE", "apply", "decide", "effective", "legal_actions",
           "new_game", "replay", "step", "taken_back", "undo_marks", "view"]


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
