"""Every command of every edition is declared once, with its handler, and played under every
setting value: an offered action, filled in as a phone fills it, is never refused for its
arguments (Mario's ``ask_rent`` was, under ``rent_collection = ask``: the argument table lived
apart from the handler and lacked ``claim``)."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from companion.engine import limits
from companion.engine.state import BaseState
from companion.engine.types import Action, Command, GameSetup, RuleError
from companion.plugins.editions import available, find_edition
from companion.service import game

STEPS = 500
ASIDE = frozenset({"propose_trade", "trade", "transfer", "decline_trade", "cancel_trade"})
"""Commands open at any time: played once, then the game is moved on by what it asks."""
ANSWERS = frozenset({"accept_trade", "decline_trade", "cancel_trade"})
"""A trade offer's answers (accepted or declined before one is withdrawn)."""


def variants() -> Iterator[tuple[str, dict[str, Any]]]:
    """Each edition with no settings, then with each value of each choice setting (the form's
    default too: a setting left out is not always the form's default)."""
    for edition in available():
        yield edition, {}
        for s in find_edition(edition).setup_info()["settings"]:
            if s["type"] == "choice":
                for c in s["choices"]:
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


@functools.cache
def play(edition: str, settings_json: str) -> tuple[frozenset[str], frozenset[str]]:
    """Two random games under the settings, each offered command played at least once when
    it can be: the command types offered, and those played (accepted)."""
    settings = json.loads(settings_json)
    rnd = random.Random(7)
    played: set[str] = set()
    offered: set[str] = set()
    offers = 0
    for seed in (1, 2):
        setup = GameSetup.from_json({"edition": edition, "players": ["Ann", "Bob", "Cat"],
                                     "seed": seed, "dice": "digital", "settings": settings})
        state = game.replay(game.new_game(setup))
        for step in range(STEPS):
            if state.finished:
                break
            if step == 1:
                try:  # the banker may end the game at any time (played, then not kept)
                    send(state, Command("banker", "end_game"))
                    played.add("end_game")
                except RuleError:
                    pass
            if step == STEPS // 5 and edition != "monopolino":  # (it ends at no money)
                state = squeezed(state)  # the banker takes the money: debts, auctions
            legal = [a for a in game.legal_actions(state) if a.type != "end_game"]
            if not legal:
                break
            offered |= {a.type for a in legal}
            left = ANSWERS - played  # each offer is answered once: offer until all are played
            answers = [a for a in legal if a.type in left and (
                a.type != "cancel_trade" or left == {"cancel_trade"})]
            again = "propose_trade" if left and offers < 6 else ""
            fresh = [a for a in legal if (a.type not in played or a.type == again)
                     and a.type not in ANSWERS]
            asked = state.prompt.to if state.prompt is not None else ()
            moving = [a for a in legal if a.actor in asked and a.type not in ASIDE]
            order = answers + rnd.sample(fresh, len(fresh)) + rnd.sample(moving, len(moving)) \
                + rnd.sample(legal, len(legal))
            for a in order:
                command = filled(rnd, state, a)
                try:
                    state = send(state, command)
                except RuleError as exc:
                    text = str(exc)
                    assert "argument" not in text.lower(), (a.to_json(), command, text)
                    continue
                played.add(a.type)
                offers += a.type == "propose_trade"
                break
    return frozenset(offered), frozenset(played)


def label(v: Any) -> str:
    return v if isinstance(v, str) else ",".join(f"{k}={x}" for k, x in v.items()) or "none"


@pytest.mark.parametrize(("edition", "settings"), list(variants()), ids=label)
def test_every_offered_command_is_played_under_every_setting_value(
        edition: str, settings: dict[str, Any]) -> None:
    offered, played = play(edition, json.dumps(settings, sort_keys=True))
    assert offered <= played, f"offered but never played: {sorted(offered - played)}"


@pytest.mark.parametrize("edition", available())
def test_every_command_of_every_edition_is_played(edition: str) -> None:
    """Every command an edition declares is played in one of its settings' games (``draw``
    only where the decks are physical, ``ask_rent`` only where rent is asked for)."""
    played: set[str] = set()
    for ed, settings in variants():
        if ed == edition:
            played |= play(edition, json.dumps(settings, sort_keys=True))[1]
    declared = set(find_edition(edition).command_args())
    unplayed = declared - played - RARE.get(edition, set())
    assert not unplayed, f"declared but never played: {sorted(unplayed)}"


RARE: dict[str, set[str]] = {"master-trainer": {"choose"}, "pokemon": {"auction"}}
"""Commands these games do not reach: Master Trainer asks no generic choice (the engine's
``choose``; its own prompts name their arguments); a Pokémon auction needs a Trainer who
cannot afford an uncontrolled location (played in tests/pokemon/test_pokemon_catching.py)."""


def squeezed(state: Any) -> Any:
    """The banker moves all but 1 of each player's money to the Bank, but the first one's
    (Monopoly family): debts, auctions, and a creditor who can pay change."""
    if not hasattr(state, "players") or not hasattr(state, "bank"):
        return state
    for p in state.players[1:]:
        if not p.bankrupt and p.money > 1:
            try:
                state = send(state, Command("banker", "transfer", {
                    "source": p.id, "to": "bank", "amount": p.money - 1,
                    "reason": "a test squeezes the players"}))
            except RuleError:
                pass
    return state


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
    from companion.service.script import ScriptError, run_script

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
    from companion.service.game_service import GameService
    from companion.service.script import parse_step

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
