"""The base every Monopoly-family mixin builds on: the helpers they call on each other,
declared once so each mixin type-checks on its own (the bodies live in the mixins)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.context import Ctx
from companion.engine.rules import Rules
from companion.monopoly.board import Space
from companion.monopoly.state import MonopolyState

C = Ctx[MonopolyState]


class MonopolyHost(Rules[MonopolyState]):
    """Declarations shared by the mixins assembled in MonopolyRules."""

    if TYPE_CHECKING:
        # turns.py
        def move_to(self, ctx: C, pid: str, target: int, salary: bool = True,
                    why: str = "") -> None: ...
        def send_to_jail(self, ctx: C, pid: str, why: str, cite: str | None = None) -> None: ...
        # market.py
        def take_deed(self, ctx: C, index: int, pid: str | None, why: str) -> None: ...
        def after_gain(self, ctx: C, pid: str, index: int) -> None: ...
        def charge_rent(self, ctx: C, pid: str, owner: str, space: Space) -> None: ...
        # debts.py
        def pay(self, ctx: C, payer: str, payee: str, amount: int, why: str,
                cite: str = "") -> None: ...
        def receive(self, ctx: C, pid: str, amount: int, why: str,
                    source: str = "bank", cite: str | None = None) -> None: ...
        def settle_debt(self, ctx: C) -> None: ...
        # cards.py
        def is_jail_card(self, state: MonopolyState, card_id: str) -> bool: ...
        def return_card(self, ctx: C, pid: str, card_id: str) -> None: ...
