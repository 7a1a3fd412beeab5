"""Every command of every edition is declared once, with its handler, and played under every
setting value: an offered action, filled in as a phone fills it, is never refused for its
arguments (Mario's ``ask_rent`` was, under ``rent_collection = ask``: the argument table lived
apart from the handler and lacked ``claim``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from companion import limits
from companion.engine import game
from companion.engine.editions import available, find_edition
from companion.engine.state import BaseState
from companion.engine.types import Action, Command, GameSetup, RuleError

STEPS = 400


def variants() -> Iterator[tuple[str, dict[str, Any]]]:
    """Each edition with its defaults, then with each other value of each choice setting."""
    for edition in available():
        yield edition, {}
        for s in find_edition(edition).setup_info()["settings"]:
            if s["type"] == "choice":
                for c in s["choices"]:
                    if c["value"] != s.get("default"):
                        yield edition, {s["name"]: c["value"]}


def filled(rnd: random.Random, state: Any, a: Action) -> Command:
    """The command a phone sends for action ``a``: its args plus its input filled in."""
    args = dict(a.args)
    spec = a.input or {}
    kind = spec.get("kind")
    if kind == "amount":
        args["amount"] = rnd.randint(spec["min"], max(spec["min"], min(spec["max"],
                                                                       spec["min"] + 3)))
    elif kind == "choice" and spec.get("options") and not (spec.get("optional")
                                                           and rnd.random() < 0.5):
        args[spec.get("arg", "option")] = rnd.choice(spec["options"])["value"]
    elif kind == "trade" and "with" in spec:  # Master Trainer's trade form
        other = rnd.choice(spec["with"])
        if spec["give"] and spec["take"].get(other):
            args.update({"with": other, "give": rnd.choice(spec["give"]),
                         "take": rnd.choice(spec["take"][other])})
            if spec["items"] and rnd.random() < 0.5:
                args["items"] = [rnd.choice(spec["items"])]
    elif kind == "trade":
        others = [p for p in state.active if p.id != a.actor]
        mine = state.owned_by(a.actor)
        give = {"spaces": [rnd.choice(mine)]} if mine and rnd.random() < 0.5 else {
            "money": min(state.player(a.actor).money, 1)}
        args.update(to=rnd.choice(others).id, give=give, take={"money": rnd.randint(0, 2)})
    elif kind == "transfer":
        args.update(source=a.actor if a.actor != "banker" else "bank",
                    to=rnd.choice([p.id for p in state.active]), amount=1,
                    reason="a correction")
    return Command(a.actor, a.type, args)


def send(state: BaseState, command: Command) -> BaseState:
    """As the service does: the command's envelope checked, then decided."""
    limits.check_command(command)
    return game.step(state, command)[1]


@pytest.mark.parametrize(("edition", "settings"), list(variants()),
                         ids=lambda v: v if isinstance(v, str) else
                         ",".join(f"{k}={x}" for k, x in v.items()) or "defaults")
def test_every_offered_command_is_played_under_every_setting_value(
        edition: str, settings: dict[str, Any]) -> None:
    rnd = random.Random(7)
    played: set[str] = set()
    offered: set[str] = set()
    for seed in (1, 2):
        setup = GameSetup.from_json({"edition": edition, "players": ["Ann", "Bob", "Cat"],
                                     "seed": seed, "dice": "digital", "settings": settings})
        state = game.replay(game.new_game(setup))
        for _ in range(STEPS):
            if state.finished:
                break
            legal = [a for a in game.legal_actions(state) if a.type != "end_game"]
            if not legal:
                break
            offered |= {a.type for a in legal}
            fresh = [a for a in legal if a.type not in played]
            order = rnd.sample(fresh, len(fresh)) + rnd.sample(legal, len(legal))
            for a in order:
                command = filled(rnd, state, a)
                try:
                    state = send(state, command)
                except RuleError as exc:
                    text = str(exc)
                    assert "argument" not in text.lower(), (a.to_json(), command, text)
                    continue
                played.add(a.type)
                break
    assert offered <= played, f"offered but never played: {sorted(offered - played)}"


def test_the_openapi_command_body_is_derived_from_each_handlers_declaration() -> None:
    from companion.engine.commands import args_schema
    from web.openapi import command_schema

    variants = command_schema()["anyOf"]
    for edition in available():
        for name, args in find_edition(edition).command_args().items():
            assert any(name in v["properties"]["type"]["enum"]
                       and v["properties"]["args"] == args_schema(args) for v in variants), name
    ask = next(v for v in variants if v["properties"]["type"]["enum"] == ["ask_rent"])
    assert ask["properties"]["args"]["properties"]["claim"]["minimum"] == 0


def test_an_undeclared_or_out_of_bounds_argument_is_refused_wherever_it_comes_from() -> None:
    """A script (no service in between) meets the same check as a phone."""
    from companion.script import ScriptError, run_script

    base = {"edition": "mario", "players": ["Ann", "Bob"], "dice": "physical", "seed": 1}
    with pytest.raises(ScriptError, match="'roll' takes no argument 'colour'"):
        run_script({**base, "steps": [{"actor": "ann", "type": "roll",
                                       "args": {"dice": [1, 2], "colour": "red"}}]})
    with pytest.raises(ScriptError, match="Argument 'dice' of 'roll' must be"):
        run_script({**base, "steps": [{"actor": "ann", "type": "roll",
                                       "args": {"dice": [1, 2, 3, 4, 5, 6, 7]}}]})


def test_a_roll_sent_at_the_wrong_moment_is_told_it_is_not_the_time_to_roll(
        tmp_path: Any) -> None:
    """Through the service, as `companion play` sends a script: a roll with named dice while
    the game asks something else says it is not the time to roll (it said "'roll' takes no
    argument 'red'")."""
    from companion.script import parse_step
    from companion.service import GameService

    with GameService(tmp_path) as service:
        made = service.create_game({"edition": "mario", "players": ["Ann", "Bob"],
                                    "dice": "physical", "seed": 1,
                                    "settings": {"order": "seated"}})
        gid = made.game_id
        assert service.submit(gid, parse_step(service.state(gid)[1], "roll red=1 black=2")).ok
        _, state = service.state(gid)
        assert state.prompt is not None and state.prompt.kind == "buy"
        out = service.submit(gid, parse_step(state, "ann: roll red=3 black=4"))
        assert not out.ok
        assert out.error.startswith("It is not the time to roll."), out.error
        assert "argument" not in out.error
