"""A command's handler receives the arguments its ``@takes`` declares as that dataclass, built
once from the checked command: who sent it, each argument under its field (``with`` as
``with_``), an argument left out as its declared default; the refusal check gets the same."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from companion.engine.commands import Id, Small, takes
from companion.engine.context import Ctx
from companion.engine.rules import Rules
from companion.engine.state import BaseState
from companion.engine.types import Action, Command, GameSetup, IllegalCommand, PlayerSeat


@dataclass(frozen=True)
class Tiny(BaseState):
    pass


@dataclass(frozen=True)
class WaveArgs:
    """Wave at another player."""

    with_: Id | None = None
    times: Small = 1


class Waving(Rules[Tiny]):
    name = "waving"
    title = "Waving"

    def initial_state(self, setup: GameSetup) -> Tiny:
        return Tiny(setup=setup, rng=1)

    def start(self, ctx: Ctx[Tiny]) -> None:
        pass

    def actions(self, state: Tiny) -> list[Action]:
        return [Action("ann", "wave", "Wave")]

    def view(self, state: Tiny, viewer: str | None = None) -> dict[str, Any]:
        return {}

    def refuse_wave(self, state: Tiny, actor: str, args: WaveArgs) -> str:
        return "Nobody waves at themselves." if args.with_ == actor else ""

    @takes(WaveArgs)
    def cmd_wave(self, ctx: Ctx[Tiny], actor: str, args: WaveArgs) -> None:
        ctx.say(f"{actor} waves at {args.with_} {args.times} time(s)")


START = Tiny(setup=GameSetup("waving", (PlayerSeat("ann", "Ann"),)), rng=1)


def said(command: Command) -> list[str]:
    events, _ = Waving().step(START, command)
    return [e.say for e in events if e.say]


def test_a_handler_reads_its_arguments_from_the_dataclass_it_declares() -> None:
    assert said(Command("ann", "wave", {"with": "bob", "times": 3})) == [
        "ann waves at bob 3 time(s)"]
    assert said(Command("ann", "wave", {"with": "bob"})) == ["ann waves at bob 1 time(s)"]


def test_the_refusal_check_reads_the_same_typed_arguments() -> None:
    with pytest.raises(IllegalCommand, match="Nobody waves at themselves"):
        said(Command("ann", "wave", {"with": "ann"}))
