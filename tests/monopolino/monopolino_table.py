"""A Monopolino table for tests: physical dice chosen by the test, seated order, and a few
arranging helpers that append ordinary events (so replaying the log still rebuilds the state)."""

from __future__ import annotations

from typing import Any

from companion.engine import game
from companion.engine.types import Command, Event, GameSetup
from companion.monopoly.state import MonopolyState


class Table:
    """A game in progress: its event log and the live state."""

    def __init__(self, players: tuple[str, ...] = ("Anna", "Ben"), seed: int = 1,
                 dice: str = "physical", **settings: Any) -> None:
        setup = GameSetup.from_json({"edition": "monopolino", "players": list(players),
                                     "seed": seed, "dice": dice,
                                     "settings": {"order": "seated", **settings}})
        self.events: list[Event] = game.new_game(setup)
        self.state: MonopolyState = game.replay(self.events)  # type: ignore[assignment]

    # -- playing ------------------------------------------------------------------------
    def do(self, actor: str, type: str, **args: Any) -> list[Event]:
        new = game.decide(self.state, Command(actor, type, args))
        for e in new:
            self.state = game.apply(self.state, e)  # type: ignore[assignment]
        self.events += new
        return new

    def roll(self, value: int, actor: str | None = None) -> list[Event]:
        assert self.state.prompt is not None, "nothing asks for a roll"
        return self.do(actor or self.state.prompt.to[0], "roll", dice=[value])

    def choose(self, option: Any, actor: str | None = None) -> list[Event]:
        assert self.state.prompt is not None, "nothing asks for a choice"
        return self.do(actor or self.state.prompt.to[0], "choose", option=option)

    # -- arranging a position -----------------------------------------------------------
    def arrange(self, type: str, **data: Any) -> None:
        event = Event(type, data)
        self.state = game.apply(self.state, event)  # type: ignore[assignment]
        self.events.append(event)

    def put(self, pid: str, space: str) -> None:
        self.arrange("moved", player=pid, to=self.index(space))

    def give_booth(self, pid: str, space: str) -> None:
        self.arrange("deed", space=self.index(space), owner=pid)
        self.arrange("player_ext", key="booths", player=pid, value=self.booths(pid) - 1)

    def set_booths(self, pid: str, count: int) -> None:
        self.arrange("player_ext", key="booths", player=pid, value=count)

    def set_money(self, pid: str, amount: int) -> None:
        delta = amount - self.money(pid)
        if delta > 0:
            self.arrange("money", source="bank", to=pid, amount=delta)
        elif delta < 0:
            self.arrange("money", source=pid, to="bank", amount=-delta)

    def stack(self, *cards: str) -> None:
        """Put ``cards`` on top of the RISK deck, in this order."""
        rest = [c for c in self.state.decks["risk"] if c not in cards]
        self.arrange("deck", deck="risk", cards=[*cards, *rest])

    # -- reading ------------------------------------------------------------------------
    def index(self, space: str) -> int:
        return self.state.b.find(space).index

    def money(self, pid: str) -> int:
        return self.state.player(pid).money

    def position(self, pid: str) -> str:
        return self.state.b.spaces[self.state.player(pid).position].id

    def booths(self, pid: str) -> int:
        return int(self.state.ext["booths"][pid])

    def owner(self, space: str) -> str | None:
        return self.state.owner(self.index(space))

    def total(self) -> int:
        s = self.state
        return sum(p.money for p in s.players) + s.bank + s.pot

    def said(self) -> str:
        return "\n".join(e.say for e in self.events if e.say)
