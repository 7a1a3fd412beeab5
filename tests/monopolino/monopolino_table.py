"""A Monopolino table for tests: physical dice chosen by the test, seated order, and a few
arranging helpers that append ordinary events (so replaying the log still rebuilds the state)."""

from __future__ import annotations

from typing import Any

from companion.engine.types import Event
from companion.monopoly.state import MonopolyState
from tests.playing import TableGame


class Table(TableGame):
    """A Monopolino game in progress (the shared harness, actor named first in ``do``)."""

    state: MonopolyState

    def __init__(self, players: tuple[str, ...] = ("Anna", "Ben"), seed: int = 1,
                 dice: str = "physical", **settings: Any) -> None:
        g = TableGame.start("monopolino", list(players), dice=dice, seed=seed,
                            settings=settings)
        super().__init__(g.state, g.events, g.batches)

    # -- playing ------------------------------------------------------------------------
    def do(self, actor: str, type: str, **args: Any) -> list[Event]:  # type: ignore[override]
        return self.by(actor, type, **args)

    # -- arranging a position -----------------------------------------------------------

    def put(self, pid: str, space: str) -> None:
        self.arrange("moved_to", player=pid, to=self.index(space))

    def give_booth(self, pid: str, space: str) -> None:
        self.arrange("deed_owned", space=self.index(space), owner=pid)
        self.arrange("player_value_set", key="booths", player=pid, value=self.booths(pid) - 1)

    def set_booths(self, pid: str, count: int) -> None:
        self.arrange("player_value_set", key="booths", player=pid, value=count)

    def set_money(self, pid: str, amount: int) -> None:
        delta = amount - self.money(pid)
        if delta > 0:
            self.arrange("money_paid", source="bank", to=pid, amount=delta)
        elif delta < 0:
            self.arrange("money_paid", source=pid, to="bank", amount=-delta)

    def stack(self, *cards: str) -> None:
        """Put ``cards`` on top of the RISK deck, in this order."""
        rest = [c for c in self.state.decks["risk"] if c not in cards]
        self.arrange("deck_changed", deck="risk", cards=[*cards, *rest])

    # -- reading ------------------------------------------------------------------------
    def money(self, pid: str) -> int:
        return self.state.player(pid).money

    def position(self, pid: str) -> str:
        return self.state.b.spaces[self.state.player(pid).position].id

    def booths(self, pid: str) -> int:
        return int(self.state.ext.booths[pid])

    def owner(self, space: str) -> str | None:
        return self.state.owner(self.index(space))

    def total(self) -> int:
        s = self.state
        return sum(p.money for p in s.players) + s.bank + s.pot

    def said(self) -> str:
        return "\n".join(e.say for e in self.events if e.say)
