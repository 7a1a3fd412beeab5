"""Helpers for the Star Wars tests: start games, send commands, arrange positions, random play."""

from __future__ import annotations

import random
from typing import Any

from companion.engine.types import Command, Event, GameSetup, IllegalCommand
from companion.monopoly.state import MonopolyState
from companion.service import game
from tests.playing import TableGame


class Table(TableGame):
    """A Star Wars game under test (the shared harness, actor named first in ``do``)."""

    state: MonopolyState

    def __init__(self, players: list[str] | None = None, dice: str = "physical", seed: int = 1,
                 **settings: Any) -> None:
        g = TableGame.start("starwars", players or ["Luke", "Leia"], dice=dice, seed=seed,
                            settings=settings)
        super().__init__(g.state, g.events, g.batches)

    @property
    def log(self) -> list[Event]:
        return self.events

    def do(self, actor: str, type: str, **args: Any) -> list[Event]:  # type: ignore[override]
        return self.by(actor, type, **args)

    def set_owner(self, space: str, owner: str | None) -> None:
        """Arrange a position: give a space to a player without payment (test setup)."""
        self.arrange("deed_owned", space=self.index(space), owner=owner)

    def total_money(self) -> int:
        return sum(p.money for p in self.state.players) + self.state.bank + self.state.pot


def random_command(state: MonopolyState, rnd: random.Random) -> Command:
    """A random legal command; now and then a random trade offer or a banker's close."""
    legal = game.legal_actions(state)
    actions = [a for a in legal
               if a.type not in ("propose_trade", "transfer", "end_game", "close_auction")]
    if state.auction is not None and rnd.random() < 0.3:
        actions += [a for a in legal if a.type == "close_auction"]
    owned = [(i, d.owner) for i, d in state.deeds.items() if d.owner is not None]
    if owned and rnd.random() < 0.03:
        space, owner = rnd.choice(owned)
        other = rnd.choice([p.id for p in state.active if p.id != owner] or [owner])
        return Command(other, "propose_trade", {"to": owner, "take": {"spaces": [space]},
                                                "give": {"money": rnd.randint(0, 300)}})
    a = rnd.choice(actions)
    args = dict(a.args)
    if a.input and a.input.get("kind") == "dice":
        args["dice"] = [rnd.randint(1, 6) for _ in range(a.input["count"])]
    if a.input and a.input.get("kind") == "amount":
        args["amount"] = rnd.randint(a.input["min"], min(a.input["max"], a.input["min"] + 60))
    return Command(a.actor, a.type, args)


HARSH = {"board": {"spaces": {**{s: {"rent": 400} for s in (
    "mos-eisley", "lars-homestead", "jabbas-palace", "echo-base", "ice-plains", "wampa-cave",
    "forest-moon", "ewok-village", "shield-bunker", "theed", "gungan-city", "royal-palace",
    "cloud-city", "carbon-freezing", "tibanna-mines", "jedi-temple", "senate",
    "imperial-palace")}, "empire-tax-1": {"amount": 700}, "empire-tax-2": {"amount": 900}}}}
"""Banker corrections that make debts and bankruptcies common (for property tests)."""


def random_game(seed: int, players: int = 3, max_commands: int = 3000, harsh: bool = False,
                ) -> tuple[MonopolyState, list[Event], list[tuple[Command, int, MonopolyState]]]:
    """Play random commands (illegal ones are refused and skipped); returns the final state,
    the log and each accepted command with the log length and the live state before it.
    Checks after every event: no negative balance, players + bank + pot constant."""
    rnd = random.Random(seed)
    names = ["Luke", "Leia", "Han", "Rey"][:players]
    setup = GameSetup.from_json({"edition": "starwars", "players": names, "dice": "physical",
                                 "seed": seed,
                                 "settings": {"order": "seated", **(HARSH if harsh else {})}})
    log = game.new_game(setup)
    state: MonopolyState = game.replay(log)  # type: ignore[assignment]
    total = sum(p.money for p in state.players) + state.bank + state.pot
    commands = []
    for _ in range(max_commands):
        if state.finished:
            break
        cmd = random_command(state, rnd)
        try:
            events = game.decide(state, cmd)
        except IllegalCommand:
            continue
        commands.append((cmd, len(log), state))
        for e in events:
            state = game.apply(state, e)  # type: ignore[assignment]
            assert all(p.money >= 0 for p in state.players), e
            assert sum(p.money for p in state.players) + state.bank + state.pot == total, e
        log += events
    return state, log, commands

def arrange(table: Table, type: str, **data: Any) -> None:
    """Apply a raw event to set up a position (kept in the log, so replay still matches)."""
    table.arrange(type, **data)


def place(table: Table, pid: str, space: str) -> None:
    arrange(table, "moved_to", player=pid, to=table.index(space))


def set_money(table: Table, pid: str, amount: int) -> None:
    delta = amount - table.p(pid).money
    if delta > 0:
        arrange(table, "money_paid", source="bank", to=pid, amount=delta)
    elif delta < 0:
        arrange(table, "money_paid", source=pid, to="bank", amount=-delta)


def stack(table: Table, *cards: str) -> None:
    """Put ``cards`` on top of the Chance pile in this order."""
    rest = [c for c in table.state.decks["chance"] if c not in cards]
    arrange(table, "deck_changed", deck="chance", cards=[*cards, *rest])
