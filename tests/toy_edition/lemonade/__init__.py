"""Lemonade Stand: the smallest edition, written against the declared rules API.

Everything shared (turns, buying, rent, cards, debts) comes from the Monopoly family; the data
file gives the board; this module adds the one rule of its own: ``kind = "heatwave"``.
"""

from __future__ import annotations

from importlib import resources

from companion.engine import readings
from companion.engine.context import Ctx, cites
from companion.engine.i18n import N_, Msg
from companion.engine.panels import Panel
from companion.engine.registry import space_kind
from companion.monopoly.board import Space
from companion.monopoly.rules import MonopolyRules
from companion.monopoly.state import MonopolyState


class LemonadeRules(MonopolyRules):
    name = "lemonade"
    title = "Lemonade Stand"
    data_folder = resources.files(__name__)  # lemonade.toml and its words files, in this package
    locales = resources.files(__name__) / "locales"  # its own messages in Italian and Spanish

    @space_kind("heatwave")
    @cites("heatwave")
    def land_heatwave(self, ctx: Ctx[MonopolyState], pid: str, space: Space) -> None:
        """Heatwave: every other player (or, as the banker chose, the Bank for each of them)
        buys a lemonade from the lander."""
        by_bank = readings.chosen(self.name, ctx.state.setup.settings, "heatwave") == "bank"
        for p in ctx.state.active:
            if p.id != pid:
                said = Msg(N_("Heatwave: {buyer} buys a lemonade from {seller}"),
                           buyer=ctx.state.name("bank" if by_bank else p.id),
                           seller=ctx.state.name(pid))
                if by_bank:
                    self.receive(ctx, pid, space.amount, said)
                else:
                    self.pay(ctx, p.id, pid, space.amount, said)

    def panels(self, state: MonopolyState) -> list[Panel]:
        """Its own section of the phone's table, in its words (drawn like every edition's)."""
        heat = next(s for s in state.b.spaces if s.kind == "heatwave")
        return [{"title": Msg(N_("The stand")), "blocks": [{"text": Msg(
            N_("{space}: every other player buys a lemonade for {amount}."),
            space=heat.name, amount=state.cash(heat.amount))}]}]
