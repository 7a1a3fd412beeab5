"""``run_next`` (a step that always follows another skips the to-do list) decides exactly what
``ctx.then`` at the end of the task decides: the same events, prompt, to-do list and ending,
whether the next step runs at once, waits behind a prompt, follows tasks queued first, or
never runs because the game ended in between."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from companion.engine.context import Ctx
from companion.engine.prompts import CommandPrompt
from companion.engine.registry import prompt_kind, task
from companion.engine.rules import Rules
from companion.engine.state import BaseState, Task
from companion.engine.types import Action, Command, Event, GameSetup, PlayerSeat


@dataclass(frozen=True)
class Tiny(BaseState):
    pass


WAIT = CommandPrompt("wait")
"""Ann answers with ``go``."""


class Chain(Rules[Tiny]):
    """Task ``first`` (in one of several situations) hands over to task ``second``."""

    name = "chain"
    title = "Chain"

    def __init__(self, mode: str, chained: bool) -> None:
        self.mode, self.chained = mode, chained

    def initial_state(self, setup: GameSetup) -> Tiny:
        return Tiny(setup=setup, rng=1)

    def start(self, ctx: Ctx[Tiny]) -> None:
        ctx.then(Task("first"), Task("last"))

    def actions(self, state: Tiny) -> list[Action]:
        return [Action("ann", "go", "Go")]

    @prompt_kind(WAIT)
    def actions_wait(self, state: Tiny) -> list[Action]:
        return self.actions(state)

    def cmd_go(self, ctx: Ctx[Tiny], command: Command) -> None:
        if self.mode != "quiet":
            ctx.say("go")
        if self.mode == "ask":
            ctx.ask(WAIT, ("ann",), "Wait for Ann")
        if self.chained:
            self.run_next(ctx, "second", n=1)
        else:
            ctx.then(Task("second", {"n": 1}))

    def view(self, state: Tiny, viewer: str | None = None) -> dict[str, Any]:
        return {}

    @task("first")
    def task_first(self, ctx: Ctx[Tiny]) -> None:
        ctx.say("first")
        if self.mode == "ask":
            ctx.ask(WAIT, ("ann",), "Wait for Ann")
        if self.mode == "queued":
            ctx.then(Task("other"))
        if self.chained:
            self.run_next(ctx, "second", n=2)
        else:
            ctx.then(Task("second", {"n": 2}))

    @task("second")
    def task_second(self, ctx: Ctx[Tiny], n: int) -> None:
        ctx.say(f"second {n}")

    @task("other")
    def task_other(self, ctx: Ctx[Tiny]) -> None:
        ctx.say("other")

    @task("last")
    def task_last(self, ctx: Ctx[Tiny]) -> None:
        ctx.say("last")

    checks = 0

    def after_step(self, ctx: Ctx[Tiny]) -> None:
        self.checks += 1
        if self.mode == "check-queues" and self.checks == 1:
            ctx.then(Task("other"))
        if self.mode == "end" and not ctx.state.finished:
            ctx.emit("finished", "over", winners=[], reason="over")


def decided(mode: str, chained: bool) -> tuple[list[Event], Tiny, int]:
    rules = Chain(mode, chained)
    start = Tiny(setup=GameSetup("chain", (PlayerSeat("ann", "Ann"),)), rng=1)
    ctx = Ctx(rules, start)
    rules.start(ctx)
    rules.run(ctx)
    ctx.finish(start)
    return ctx.events, ctx.state, rules.checks


@pytest.mark.parametrize("mode", ["", "ask", "queued", "end", "check-queues"])
def test_running_the_next_step_at_once_decides_what_queueing_it_decides(mode: str) -> None:
    events, state, checks = decided(mode, chained=True)
    assert (events, state, checks) == decided(mode, chained=False)
    says = [e.say for e in events if e.say]
    expected = {"": ["first", "second 2", "last"], "ask": ["first"],
                "queued": ["first", "other", "second 2", "last"], "end": ["first", "over"],
                "check-queues": ["first", "second 2", "other", "last"]}
    assert says == expected[mode]
    if mode == "ask":
        assert state.prompt is not None
        assert state.todo == (Task("second", {"n": 2}), Task("last"))



def commanded(mode: str, chained: bool) -> tuple[list[Event], Tiny, int]:
    rules = Chain(mode, chained)
    start = Tiny(setup=GameSetup("chain", (PlayerSeat("ann", "Ann"),)), rng=1,
                 todo=(Task("last"),))
    events, state = rules.step(start, Command("ann", "go"))
    return events, state, rules.checks


@pytest.mark.parametrize("mode", ["", "quiet", "ask", "end", "check-queues"])
def test_a_command_running_its_next_step_at_once_decides_what_queueing_it_decides(
        mode: str) -> None:
    assert commanded(mode, chained=True) == commanded(mode, chained=False)
    says = [e.say for e in commanded(mode, chained=True)[0] if e.say]
    expected = {"": ["go", "second 1", "last"], "quiet": ["second 1", "last"], "ask": ["go"],
                "end": ["go", "over"], "check-queues": ["go", "second 1", "other", "last"]}
    assert says == expected[mode]
