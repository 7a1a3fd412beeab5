"""The readings a Monopoly-family edition offers as settings, and the house rules tables play.

Mixed in before ``MonopolyRules``. The settings themselves are listed in the edition's data file
(``[[readings]]``, see ``companion/engine/readings.py``); the banker picks them at setup.
House rules are off by default:

- ``free_parking_pot``: payments to the Bank that are not purchases (taxes, fines, Bowser's
  toll, cards) go onto Free Parking; a player landing there takes the pot.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.engine import readings
from companion.engine.i18n import Msg, Msgs
from companion.engine.registry import space_kind
from companion.engine.rules import Ctx, cites
from companion.monopoly.board import Space
from companion.monopoly.host import MonopolyHost
from companion.monopoly.state import MonopolyState

C = Ctx[MonopolyState]


class TableSettings(MonopolyHost):
    """``reading(state, name)``, settings checked at setup, the Free Parking pot."""

    def reading(self, state: MonopolyState, name: str) -> str:
        """The value the banker chose for setting ``name`` (or its documented default)."""
        return readings.chosen(self.name, state.setup.settings, name)

    def edition_setup(self, state: MonopolyState) -> MonopolyState:
        readings.check(self.name, state.setup.settings)
        out: MonopolyState = super().edition_setup(state)  # type: ignore[misc]
        return out

    # -- house rule: the Free Parking pot -------------------------------------------------
    def pot_rule(self, state: MonopolyState) -> bool:
        return "free_parking_pot" in readings.setting_names(self.name) and \
            self.reading(state, "free_parking_pot") == "on"

    def bank_payee(self, state: MonopolyState, why: str) -> tuple[str, str]:
        if self.pot_rule(state):
            return "pot", Msg("{why} (onto Free Parking: house rule)", why=why)
        return "bank", why

    @space_kind("free_parking")
    @cites("free-parking-pot")
    def land_free_parking(self, ctx: C, pid: str, space: Space) -> None:
        pot = ctx.state.pot
        if self.pot_rule(ctx.state) and pot > 0:
            self.receive(ctx, pid, pot, Msg("{player} lands on Free Parking and takes the "
                                            "{amount} there (house rule).",
                                            player=ctx.state.name(pid),
                                            amount=ctx.state.cash(pot)), source="pot")

    # -- the ranking when the banker ends a game early -------------------------------------
    def money_ranking(self, state: MonopolyState, in_money: bool = True
                      ) -> tuple[list[str], str]:
        """Money only (``in_money``: the sentence says "in money")."""
        return _best(state, lambda pid: state.player(pid).money, in_money)


def _best(state: MonopolyState, score: Callable[[str], int],
          in_money: bool) -> tuple[list[str], str]:
    best = max(score(p.id) for p in state.active)
    winners = [p.id for p in state.active if score(p.id) == best]
    names = [state.name(w) for w in winners]
    if in_money:
        return winners, Msgs("{players} is richest with {amount} in money.",
                             "{players} are richest with {amount} in money.", len(winners),
                             players=names, amount=state.cash(best))
    return winners, Msgs("{players} is richest with {amount}.",
                         "{players} are richest with {amount}.", len(winners), players=names,
                         amount=state.cash(best))
