"""Prompts are typed: a roll prompt and a choice prompt name the command that answers them
and the step that follows (companion.engine.context.RollAsk / ChoiceAsk), read back the
same from the log's JSON, and the command they name is the one the player is offered."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.engine.context import ChoiceAsk, RollAsk, ask_of
from companion.engine.types import Command, GameSetup, Prompt, RuleError
from companion.plugins.editions import find_edition
from companion.service import game

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.json"))


def _setups() -> dict[str, dict[str, object]]:
    out = {}
    for p in EXAMPLES:
        raw = json.loads(p.read_text(encoding="utf-8"))
        setup = {**raw.get("setup", raw), "dice": "digital"}
        out.setdefault(setup["edition"], setup)
    return out


@pytest.mark.parametrize("edition", sorted(_setups()))
def test_a_typed_prompt_names_the_command_the_player_is_offered(edition: str) -> None:
    state = game.replay(game.new_game(GameSetup.from_json(_setups()[edition])))
    rules = find_edition(edition)
    rnd = random.Random(3)
    asked: set[str] = set()
    for _ in range(400):
        if state.finished or state.prompt is None:
            break
        ask = ask_of(state.prompt)
        legal = rules.legal_actions(state)
        if ask is not None:
            asked.add(ask.command)
            assert ask_of(Prompt.from_json(json.loads(json.dumps(state.prompt.to_json())))) \
                == ask  # as the log stores it
            offered = {a.type for a in legal if a.actor in state.prompt.to}
            assert ask.command in offered, (state.prompt, offered)
            if isinstance(ask, RollAsk):
                assert ask.who in state.prompt.to and ask.count >= 1
        plain = [a for a in legal if not a.input or a.type in ("roll", "choose")]
        action = rnd.choice(plain or legal)
        try:
            _, state = game.step(state, Command(action.actor, action.type, dict(action.args)))
        except RuleError:
            continue
    if edition != "master-trainer":  # its dice rounds and choices are its own commands
        assert "roll" in asked, "no roll prompt in 400 moves"


def test_choice_ask_is_answered_by_choose_then_its_step() -> None:
    ask = ChoiceAsk(((1, "One"), ("b", "Bee")), "after_pick", {"who": "p1"})
    back = ask_of(Prompt("pick", ("p1",), "Pick one.", ask.data()))
    assert back == ask and back.command == "choose"
    assert ask_of(Prompt("buy", ("p1",), "Buy it?", {"space": 3})) is None
