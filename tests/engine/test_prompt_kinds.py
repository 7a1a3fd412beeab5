"""Prompts are declared types that name what answers them (companion/engine/prompts.py): an
edition asking a prompt no step answers fails when its class is defined (at import), a
string is no prompt, and every prompt a saved game holds is one its edition declares."""

from __future__ import annotations

import json
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.engine.context import ChoiceAsk, Ctx, RollAsk, ask_of
from companion.engine.prompts import ChoicePrompt, CommandPrompt, PromptKind, RollPrompt
from companion.engine.registry import prompt_kind, prompts, task, unanswered
from companion.engine.rules import Rules
from companion.engine.state import BaseState
from companion.engine.types import Action, GameSetup, PlayerSeat, Prompt
from companion.plugins.editions import find_edition
from tests.playing import replay_export

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "logs"

BET = RollPrompt("bet", then="bet_rolled")
"""A roll whose step the edition below declares under another name (a typo)."""
PICK = ChoicePrompt("pick", then="picked")
SHOUT = CommandPrompt("shout")
"""A command prompt with no ``@prompt_kind`` handler."""


@dataclass(frozen=True)
class Tiny(BaseState):
    pass


class Parts(Rules[Tiny]):
    """A part of an edition (no ``name``): not checked on its own."""

    def initial_state(self, setup: GameSetup) -> Tiny:
        return Tiny(setup=setup, rng=1)

    def start(self, ctx: Ctx[Tiny]) -> None:
        pass

    def actions(self, state: Tiny) -> list[Action]:
        return []

    def view(self, state: Tiny, viewer: str | None = None) -> dict[str, Any]:
        return {}

    @task("bet_roled")
    def task_bet(self, ctx: Ctx[Tiny], dice: list[int]) -> None:
        ctx.say("bet")

    @task("picked")
    def task_picked(self, ctx: Ctx[Tiny], option: str) -> None:
        ctx.say(option)


def test_an_edition_asking_a_prompt_no_step_answers_fails_at_import() -> None:
    with pytest.raises(TypeError) as refused:
        class Typo(Parts):  # noqa: F841 (defining it is the test)
            name = "typo"
    said = str(refused.value)
    assert "'bet' runs step 'bet_rolled', which is not declared" in said
    assert "'shout' has no @prompt_kind handler" in said
    assert "'pick'" not in said  # its step is declared


def test_the_same_edition_with_every_prompt_answered_is_defined() -> None:
    class Fixed(Parts):
        name = "fixed"

        @task("bet_rolled")
        def task_bet_rolled(self, ctx: Ctx[Tiny], dice: list[int]) -> None:
            ctx.say("bet")

        @prompt_kind(SHOUT)
        def actions_shout(self, state: Tiny) -> list[Action]:
            return [Action("ann", "shout", "Shout")]

    assert unanswered(Fixed) == []
    assert set(prompts(Fixed)) >= {"bet", "pick", "shout"}


def test_two_prompts_of_one_kind_are_refused() -> None:
    module = types.ModuleType("twice_declared_prompts")
    module.A = CommandPrompt("again")  # type: ignore[attr-defined]
    module.B = RollPrompt("again", then="picked")  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    try:
        twice = type("Twice", (Parts,), {"__module__": module.__name__})
        assert any("'again' is declared twice" in p for p in unanswered(twice))
    finally:
        del sys.modules[module.__name__]


def test_a_string_is_no_prompt_and_a_roll_needs_its_own_step() -> None:
    state = Tiny(setup=GameSetup("toy", (PlayerSeat("ann", "Ann", "hat"),)), rng=1)
    ctx: Ctx[Tiny] = Ctx(find_edition("mario"), state)
    with pytest.raises(TypeError, match="declared prompt"):
        ctx.ask("buy", ("ann",), "Buy it?")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="RollAsk"):
        ctx.ask(BET, ("ann",), "Roll", RollAsk("ann", 1, "another_step"))
    with pytest.raises(TypeError, match="ChoiceAsk"):
        ctx.ask(PICK, ("ann",), "Pick")
    ctx.ask(BET, ("ann",), "Roll", RollAsk("ann", 1, "bet_rolled"))
    assert ctx.state.prompt is not None and ctx.state.prompt.kind == "bet"
    with pytest.raises(TypeError):
        prompt_kind("bet")  # type: ignore[arg-type]


def _stored_prompts() -> list[tuple[str, str, dict[str, Any]]]:
    """(edition, kind, data) of every prompt the golden logs' games ever stood at."""
    out = []
    for path in sorted(GOLDEN.glob("*.jsonl")):
        lines = path.read_text("utf-8").splitlines()
        edition = json.loads(lines[0])["edition"]
        for line in lines[1:]:
            row = json.loads(line)
            if row.get("type") in ("prompt_asked", "flow_changed", "flow"):
                prompt = (row.get("data") or {}).get("prompt")
                if prompt:
                    out.append((edition, prompt["kind"], prompt.get("data", {})))
        replay_export(lines)  # and the log still replays
    return out


def test_every_prompt_a_saved_game_holds_is_declared_by_its_edition_with_its_type() -> None:
    stored = _stored_prompts()
    assert len({e for e, _, _ in stored}) == 5, "a golden log of every edition"
    for edition, kind, data in stored:
        declared: PromptKind | None = prompts(type(find_edition(edition))).get(kind)
        assert declared is not None, f"{edition} stored a prompt {kind!r} it does not declare"
        ask = ask_of(_prompt(kind, data))
        if isinstance(declared, RollPrompt):
            assert isinstance(ask, RollAsk) and ask.task == declared.then, (edition, kind)
        elif isinstance(declared, ChoicePrompt):
            assert isinstance(ask, ChoiceAsk) and ask.task == declared.then, (edition, kind)
        else:
            assert ask is None, (edition, kind)


def _prompt(kind: str, data: dict[str, Any]) -> Prompt:
    return Prompt(kind, ("x",), "", data)
