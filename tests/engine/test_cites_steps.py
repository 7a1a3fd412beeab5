"""Every line names the rule of the ``@cites("id")`` step that said it, whether the step ran
from the to-do list, or as the command; a step without a citation names
none."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.engine.commands import NoArgs
from companion.engine.context import Ctx, cites
from companion.engine.registry import task
from companion.engine.rules import Rules
from companion.engine.state import BaseState, Task
from companion.engine.types import Action, Command, GameSetup, PlayerSeat


@dataclass(frozen=True)
class Tiny(BaseState):
    pass


class Cited(Rules[Tiny]):
    name = "cited"
    title = "Cited"

    def initial_state(self, setup: GameSetup) -> Tiny:
        return Tiny(setup=setup, rng=1)

    def start(self, ctx: Ctx[Tiny]) -> None:
        pass

    def actions(self, state: Tiny) -> list[Action]:
        return [Action("ann", "go", "Go")]

    def view(self, state: Tiny, viewer: str | None = None) -> dict[str, Any]:
        return {}

    @cites("go-rule")
    def cmd_go(self, ctx: Ctx[Tiny], actor: str, args: NoArgs) -> None:
        ctx.say("go")
        ctx.later(Task("queued"), Task("plain"))
        ctx.then(Task("chained"))

    @task("chained")
    @cites("chained-rule")
    def task_chained(self, ctx: Ctx[Tiny]) -> None:
        ctx.say("chained")
        self.helper(ctx)
        ctx.say("chained again")

    @task("queued")
    @cites("queued-rule")
    def task_queued(self, ctx: Ctx[Tiny]) -> None:
        ctx.say("queued")
        with ctx.citing("inner-rule"):
            ctx.say("inner")

    @task("plain")
    def task_plain(self, ctx: Ctx[Tiny]) -> None:
        ctx.say("plain")

    @cites(lambda self, ctx: "picked-rule", "picked-rule")
    def helper(self, ctx: Ctx[Tiny]) -> None:
        ctx.say("helper")


def test_each_line_names_the_rule_of_the_step_that_said_it() -> None:
    rules = Cited()
    start = Tiny(setup=GameSetup("cited", (PlayerSeat("ann", "Ann"),)), rng=1)
    for _ in range(2):  # the second time from the remembered handlers
        events, _ = rules.step(start, Command("ann", "go"))
        said = [(e.say, e.cite) for e in events if e.say]
        assert said == [
            ("go", "go-rule"),  # the command; then the step it queued first
            ("chained", "chained-rule"),
            ("helper", "picked-rule"),
            ("chained again", "chained-rule"),
            ("queued", "queued-rule"),
            ("inner", "inner-rule"),
            ("plain", ""),
        ]
