"""Helpers for the Pokémon tests: start games, send commands, random legal play, scripts."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from companion.engine.state import BaseState
from companion.engine.types import Command, Event, GameSetup, IllegalCommand
from companion.monopoly.state import MonopolyState
from companion.service import game
from tests.playing import TableGame

ROOT = Path(__file__).resolve().parents[2]


class Table(TableGame):
    """A Pokémon game (the shared harness, actor named first in ``do``)."""

    state: MonopolyState

    def __init__(self, players: list[str] | None = None, dice: str = "physical", seed: int = 1,
                 **settings: Any) -> None:
        g = TableGame.start("pokemon", players or ["Ash", "Misty"], dice=dice, seed=seed,
                            settings=settings)
        super().__init__(g.state, g.events, g.batches)

    @property
    def history(self) -> list[list[Event]]:
        """The events of each command played (the opening events are not one)."""
        return self.batches[1:]

    def do(self, actor: str, type: str, **args: Any) -> list[Event]:  # type: ignore[override]
        return self.by(actor, type, **args)

    @property
    def asked(self) -> str:
        assert self.state.prompt is not None
        return self.state.prompt.to[0]

    @property
    def kind(self) -> str | None:
        return None if self.state.prompt is None else self.state.prompt.kind

    def land_on(self, space_id: str, steps: int = 1) -> list[Event]:
        """Place the Trainer whose roll is asked ``steps`` before a space and roll ``steps``."""
        pid = self.asked
        target = self.state.b.find(space_id).index
        start = (target - steps) % len(self.state.b.spaces)
        self.arrange("moved_to", player=pid, to=start)
        return self.roll(steps)

    def money(self, pid: str) -> int:
        return self.state.player(pid).money

    def caught(self, pid: str) -> list[str]:
        return list(self.state.ext.caught[pid])

    def give(self, pid: str, *chips: str) -> None:
        """Set up a test position: move wild chips onto a Trainer's mat (banker-free, by events)."""
        wild = {t: [c for c in cs if c not in chips] for t, cs in self.state.ext.wild.items()}
        caught = {p: list(c) for p, c in self.state.ext.caught.items()}
        caught[pid] += list(chips)
        self.arrange("edition_values_set", set={"wild": wild, "caught": caught})

    def own(self, pid: str | None, *space_ids: str) -> None:
        for sid in space_ids:
            index = self.state.b.find(sid).index
            self.arrange("deed_owned", space=index, owner=pid)

    def _inject(self, event: Event) -> None:
        self.state = game.apply(self.state, event)  # type: ignore[assignment]
        self.events.append(event)

    def log(self) -> str:
        return "\n".join(e.say for e in self.events if e.say)


def total_money(state: MonopolyState) -> int:
    return sum(p.money for p in state.players) + state.bank + state.pot


def random_trade(state: MonopolyState, rnd: random.Random) -> Command | None:
    """A small random trade offer between two Trainers still in the game."""
    active = [p.id for p in state.active]
    if len(active) < 2:
        return None
    a, b = rnd.sample(active, 2)

    def side(pid: str) -> dict[str, Any]:
        out: dict[str, Any] = {"money": rnd.randint(0, min(2, state.player(pid).money))}
        owned = list(state.owned_by(pid))
        if owned and rnd.random() < 0.5:
            out["spaces"] = [rnd.choice(owned)]
        chips = list(state.ext.caught[pid])
        if chips and rnd.random() < 0.5:
            out["pokemon"] = [rnd.choice(chips)]
        return out

    return Command(a, "propose_trade", {"to": b, "give": side(a), "take": side(b)})


def random_command(state: BaseState, rnd: random.Random) -> Command | None:
    assert isinstance(state, MonopolyState)
    if rnd.random() < 0.03:
        trade = random_trade(state, rnd)
        if trade is not None:
            return trade
    skip = {"end_game", "transfer", "propose_trade", "close_auction", "declare_bankruptcy"}
    actions = game.legal_actions(state)
    pool = [a for a in actions if a.type not in skip] or [
        a for a in actions if a.type == "declare_bankruptcy"]
    if not pool:
        return None
    a = rnd.choice(pool)
    args = dict(a.args)
    inp = a.input or {}
    if inp.get("kind") == "dice" and inp.get("physical"):
        args["dice"] = [rnd.randint(1, 6) for _ in range(inp["count"])]
    elif inp.get("kind") == "amount":
        args["amount"] = rnd.randint(inp["min"], min(inp["max"], inp["min"] + 2))
    return Command(a.actor, a.type, args)


def random_game(seed: int, players: int = 3, dice: str = "digital", steps: int = 3000,
                **settings: Any) -> tuple[list[list[Event]], list[MonopolyState], list[Command]]:
    """Random legal play; returns each command's events, the states after each, the commands."""
    rnd = random.Random(seed)
    setup = GameSetup.from_json({"edition": "pokemon", "dice": dice, "seed": seed,
                                 "players": [f"T{i}" for i in range(players)],
                                 "settings": settings})
    opening = game.new_game(setup)
    state: MonopolyState = game.replay(opening)  # type: ignore[assignment]
    batches, states, commands = [opening], [state], []
    for _ in range(steps):
        if state.finished:
            break
        cmd = random_command(state, rnd)
        if cmd is None:
            break
        try:
            evs = game.decide(state, cmd)
        except IllegalCommand:
            if cmd.type in ("propose_trade", "accept_trade"):  # offers that went stale
                continue
            raise
        for e in evs:
            state = game.apply(state, e)  # type: ignore[assignment]
        batches.append(evs)
        states.append(state)
        commands.append(cmd)
    return batches, states, commands
