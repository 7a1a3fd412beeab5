"""Paying, debt, selling to the Bank, and bankruptcy."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.engine.commands import NoArgs, Small, takes
from companion.engine.context import Ctx, cites
from companion.engine.i18n import Msg
from companion.engine.prompts import CommandPrompt
from companion.engine.registry import task
from companion.engine.state import Task
from companion.engine.types import IllegalCommand
from companion.monopoly.host import MonopolyHost
from companion.monopoly.state import MonopolyState

C = Ctx[MonopolyState]

DEBT = CommandPrompt("debt")
"""Raise the money owed (selling) or declare bankruptcy."""


@dataclass(frozen=True)
class SpaceArgs:
    """A space the command is about."""

    space: Small = None
    """The space's index on the board."""


class MonopolyDebts(MonopolyHost):
    """Money moving between players, the Bank and the pot. Mixed into MonopolyRules."""

    def receive(self, ctx: C, pid: str, amount: int, why: str, source: str = "bank",
                cite: str | None = None) -> None:
        if amount > 0:
            ctx.emit("money_paid", why, source=source, to=pid, amount=amount, cite=cite)

    def pay(self, ctx: C, payer: str, payee: str, amount: int, why: str,
            cite: str = "") -> None:
        """Make ``payer`` pay; if they cannot, they owe it and must raise money first
        (``cite``: the rule's citation id, else the rule being applied)."""
        if amount <= 0 or ctx.state.player(payer).bankrupt:
            return
        if payee == "bank":
            payee, why = self.bank_payee(ctx.state, why)
        cite = cite or ctx.cite
        if ctx.state.prompt is not None or ctx.state.debt is not None:
            later = {"payer": payer, "payee": payee, "amount": amount, "why": why}
            ctx.then(Task("charge", {**later, "cite": cite} if cite else later))
            return
        self.task_charge(ctx, payer, payee, amount, why, cite=cite)

    @task("charge")
    @cites(lambda self, ctx, *args, cite="", **kw: cite)
    def task_charge(self, ctx: C, payer: str, payee: str, amount: int, why: str,
                    cite: str = "") -> None:
        p = ctx.state.player(payer)
        if p.bankrupt or (payee not in ("bank", "pot") and ctx.state.player(payee).bankrupt):
            return
        if p.money >= amount:
            ctx.emit("money_paid", Msg("{why}.", why=why), source=payer, to=payee, amount=amount)
            return
        if self.short_payment == "pay_all":
            if p.money > 0:
                ctx.emit("money_paid", Msg("{why}: {player} has only {amount} and pays it all.",
                                           why=why, player=p.name, amount=ctx.state.cash(p.money)),
                         source=payer, to=payee, amount=p.money)
            return
        ctx.emit("debt_owed",
                 Msg("{why}: {player} has only {amount} and must raise {owed}.", why=why,
                     player=p.name, amount=ctx.state.cash(p.money), owed=ctx.state.cash(amount)),
                 player=payer, creditor=payee, amount=amount, reason=why,
                 **({"rule": ctx.cite} if ctx.cite else {}))
        self.ask_debt(ctx)

    short_payment: Literal["debt", "pay_all"] = "debt"
    """Policy: a player who cannot pay in full owes the rest as a ``debt`` (raise money or go
    bankrupt), or (``pay_all``, Monopolino) hands over all they have and owes nothing."""

    def bank_payee(self, state: MonopolyState, why: str) -> tuple[str, str]:
        """Edition hook: where a payment to the Bank goes, and its words (the Free Parking
        pot house rule sends it to ``"pot"``)."""
        return "bank", why

    def ask_debt(self, ctx: C) -> None:
        d = ctx.state.debt
        assert d is not None
        if d.creditor == "bank":  # its own sentence: "alla Banca", not "a la Banca"
            text = Msg("{player} owes {amount} to the Bank: sell, trade, or declare bankruptcy",
                       player=ctx.state.name(d.player), amount=ctx.state.cash(d.amount))
        elif d.creditor == "pot":
            text = Msg("{player} owes {amount} to the pot: sell, trade, or declare bankruptcy",
                       player=ctx.state.name(d.player), amount=ctx.state.cash(d.amount))
        else:
            text = Msg("{player} owes {amount} to {creditor}: sell, trade, or declare "
                       "bankruptcy", player=ctx.state.name(d.player),
                       amount=ctx.state.cash(d.amount), creditor=ctx.state.name(d.creditor))
        ctx.ask(DEBT, (d.player,), text, amount=d.amount, creditor=d.creditor)

    def settle_debt(self, ctx: C) -> None:
        """Pay the debt as soon as the debtor has the money."""
        d = ctx.state.debt
        if d is None:
            return
        p = ctx.state.player(d.player)
        if p.money >= d.amount:
            ctx.clear_prompt()
            ctx.emit("debt_settled")
            ctx.emit("money_paid", Msg("{why}: {player} pays {amount}.", why=d.reason,
                                       player=p.name, amount=ctx.state.cash(d.amount)),
                     source=d.player, to=d.creditor, amount=d.amount, cite=d.cite or None)
        else:
            self.ask_debt(ctx)

    def bank_price(self, state: MonopolyState, index: int) -> int:
        """What the Bank pays for a space (the full price, or half in classic rules)."""
        price = state.b.spaces[index].price
        return price // 2 if state.b.rule("sell_to_bank") == "half" else price

    @cites("sell-to-bank")
    @takes(SpaceArgs)
    def cmd_sell_to_bank(self, ctx: C, actor: str, args: SpaceArgs) -> None:
        """Sell one of your spaces to the Bank to pay a debt."""
        space = args.space
        pid = actor
        if not isinstance(space, int) or ctx.state.owner(space) != pid:
            raise IllegalCommand(Msg("You can only sell a space you own."))
        value = self.bank_price(ctx.state, space)
        name = ctx.state.b.spaces[space].name
        self.take_deed(ctx, space, None, Msg("{player} sells {space} to the Bank for {amount}.",
                                             player=ctx.state.name(pid), space=name,
                                             amount=ctx.state.cash(value)))
        ctx.emit("money_paid", source="bank", to=pid, amount=value)
        self.settle_debt(ctx)

    def cmd_declare_bankruptcy(self, ctx: C, actor: str, args: NoArgs) -> None:
        """Give up: everything goes to the creditor (or back to the Bank)."""
        d = ctx.state.debt
        assert d is not None
        ctx.clear_prompt()
        ctx.emit("debt_settled")
        self.go_bankrupt(ctx, d.player, d.creditor)

    @cites(lambda self, ctx, pid, creditor: "bankrupt-bank" if creditor in ("bank", "pot")
           else "bankrupt-player", "bankrupt-bank", "bankrupt-player")
    def go_bankrupt(self, ctx: C, pid: str, creditor: str) -> None:
        state = ctx.state
        p = state.player(pid)
        owned = state.owned_by(pid)  # read before the deeds change hands
        to_player = creditor not in ("bank", "pot")
        heir = creditor if to_player else "bank"
        if p.money:
            ctx.emit("money_paid", source=pid, to=heir, amount=p.money)
        for index in owned:
            self.take_deed(ctx, index, creditor if to_player else None, "")
        for card in p.cards:
            if to_player:
                ctx.emit("card_kept", player=pid, card=card, keep=False)
                ctx.emit("card_kept", player=creditor, card=card, keep=True)
            else:
                self.return_card(ctx, pid, card)
        self.hand_over_extras(ctx, pid, creditor if to_player else None)
        ctx.emit("went_bankrupt", Msg("{player} is bankrupt: everything goes to {other}.",
                                      player=p.name, other=state.name(creditor)) if to_player
                 else Msg("{player} is bankrupt: everything goes to the Bank.", player=p.name),
                 player=pid)
        if not to_player:
            self.after_bank_bankruptcy(ctx, pid, owned)
        if ctx.state.turn_player.id == pid:
            ctx.set_todo([])
            ctx.then(Task("end_turn"))

    def hand_over_extras(self, ctx: C, pid: str, heir: str | None) -> None:
        """Edition hook: hand over edition assets (wild Pokémon) on bankruptcy."""

    def after_bank_bankruptcy(self, ctx: C, pid: str, spaces: tuple[int, ...]) -> None:
        """Edition hook: what happens to spaces returned to the Bank (Star Wars auctions)."""
