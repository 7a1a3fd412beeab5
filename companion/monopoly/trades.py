"""Trades that both sides confirm: one proposes, the other accepts or declines."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.engine.commands import Id, Small, TradeSide, takes
from companion.engine.context import Ctx, cites
from companion.engine.i18n import Money, Msg
from companion.engine.types import IllegalCommand
from companion.monopoly.events import assets_from_json
from companion.monopoly.host import MonopolyHost
from companion.monopoly.state import Assets, MonopolyState, Trade

C = Ctx[MonopolyState]


@dataclass(frozen=True)
class ProposeTradeArgs:
    """Offer a trade to another player."""

    to: Id | None = None
    """The player offered the trade."""
    give: Small | TradeSide = None
    """What the proposer gives: ``money`` and lists of ``spaces``, ``cards`` (and an
    edition's extras)."""
    take: Small | TradeSide = None
    """What the proposer takes in return (the same shape)."""


@dataclass(frozen=True)
class TradeArgs:
    """Answer or withdraw a trade offer."""

    trade: Small = None
    """The offer's id (``view.trades[].id``)."""


class MonopolyTrades(MonopolyHost):
    """Proposing, accepting, declining and cancelling trades. Mixed into MonopolyRules."""

    trade_extras: tuple[str, ...] = ()
    """Edition asset kinds that can be traded (``"pokemon"``)."""

    def parse_assets(self, raw: Any) -> Assets:
        if raw is None:
            return Assets()
        if not isinstance(raw, Mapping):
            raise IllegalCommand(Msg("Each side of a trade is an object (money, spaces, cards)."))
        unknown = set(raw) - {"money", "spaces", "cards", *self.trade_extras}
        if unknown:
            raise IllegalCommand(Msg("A trade cannot include {keys}.",
                                     keys=", ".join(sorted(unknown))))
        money = raw.get("money", 0)
        if isinstance(money, bool) or not isinstance(money, int) or money < 0:
            raise IllegalCommand(Msg("Money in a trade is a whole amount, not negative."))
        for key in ("spaces", "cards", *self.trade_extras):
            items = raw.get(key, [])
            if not isinstance(items, list) or len(set(map(str, items))) != len(items):
                raise IllegalCommand(Msg("'{key}' in a trade is a list without repeats.", key=key))
        if not all(isinstance(i, int) and not isinstance(i, bool) for i in raw.get("spaces", [])):
            raise IllegalCommand(Msg("Spaces in a trade are given by their number on the "
                                     "board."))
        return assets_from_json(dict(raw))

    def check_holds(self, state: MonopolyState, pid: str, assets: Assets) -> None:
        p = state.player(pid)
        if assets.money > p.money:
            raise IllegalCommand(Msg("{player} does not have {amount}.", player=p.name,
                                     amount=state.cash(assets.money)))
        for index in assets.spaces:
            if state.owner(index) != pid:
                raise IllegalCommand(Msg("{player} does not own space {n}.", player=p.name,
                                         n=str(index)))
            if state.auction is not None and state.auction.space == index:
                raise IllegalCommand(Msg("A space being auctioned cannot be traded."))
        for card in assets.cards:
            if card not in p.cards:
                raise IllegalCommand(Msg("{player} does not hold card {card}.", player=p.name,
                                         card=card))
        self.check_holds_extra(state, pid, assets)

    def check_holds_extra(self, state: MonopolyState, pid: str, assets: Assets) -> None:
        """Edition hook: check the edition assets in a trade."""

    @takes(ProposeTradeArgs)
    def cmd_propose_trade(self, ctx: C, actor: str, args: ProposeTradeArgs) -> None:
        """Offer a trade: ``to`` (player id), ``give`` and ``take`` (money, spaces, cards)."""
        state = ctx.state
        to = args.to
        if to == actor or not isinstance(to, str) or to not in [p.id for p in state.active]:
            raise IllegalCommand(Msg("Trade with another player still in the game."))
        give = self.parse_assets(args.give)
        take = self.parse_assets(args.take)
        if give.empty and take.empty:
            raise IllegalCommand(Msg("A trade must exchange something."))
        self.check_holds(state, actor, give)
        self.check_holds(state, to, take)
        tid = state.next_trade
        ctx.emit("trade_proposed", Msg("{player} offers {other} a trade: {give} for {take}.",
                                      player=state.name(actor), other=state.name(to),
                                      give=self.describe(state, give),
                                      take=self.describe(state, take)),
                 id=tid, proposer=actor, to=to, give=give.to_json(),
                 take=take.to_json())

    def describe(self, state: MonopolyState, a: Assets) -> str:
        parts: list[str | Money] = []
        if a.money:
            parts.append(state.cash(a.money))
        parts += [state.b.spaces[i].name for i in a.spaces]
        parts += [state.b.card(c).first_sentence for c in a.cards]
        for kind, items in a.extra.items():
            parts += [f"{kind} {i}" for i in items]
        if not parts:
            return Msg("nothing")
        said = Msg("{item}", item=parts[-1])
        for part in reversed(parts[:-1]):
            said = Msg("{item}, {rest}", item=part, rest=said)
        return said

    def find_trade(self, state: MonopolyState, tid: object) -> Trade:
        for t in state.trades:
            if t.id == tid:
                return t
        raise IllegalCommand(Msg("There is no such open trade."))

    @cites("trade")
    @takes(TradeArgs)
    def cmd_accept_trade(self, ctx: C, actor: str, args: TradeArgs) -> None:
        """Accept a trade offered to you; both sides must still hold what they offered."""
        t = self.find_trade(ctx.state, args.trade)
        self.check_holds(ctx.state, t.proposer, t.give)
        self.check_holds(ctx.state, t.to, t.take)
        ctx.emit("trade_closed", Msg("{player} accepts the trade with {other}.",
                                    player=ctx.state.name(t.to),
                                    other=ctx.state.name(t.proposer)), id=t.id, accepted=True)
        self.hand_over(ctx, t.proposer, t.to, t.give)
        self.hand_over(ctx, t.to, t.proposer, t.take)
        self.settle_debt(ctx)

    def hand_over(self, ctx: C, giver: str, taker: str, a: Assets) -> None:
        if a.money:
            ctx.emit("money_paid", source=giver, to=taker, amount=a.money)
        for index in a.spaces:
            self.take_deed(ctx, index, taker, "")
            self.after_gain(ctx, taker, index)
        for card in a.cards:
            ctx.emit("card_kept", player=giver, card=card, keep=False)
            ctx.emit("card_kept", player=taker, card=card, keep=True)
        self.hand_over_extra(ctx, giver, taker, a)

    def hand_over_extra(self, ctx: C, giver: str, taker: str, a: Assets) -> None:
        """Edition hook: move edition assets of an accepted trade."""

    @takes(TradeArgs)
    def cmd_decline_trade(self, ctx: C, actor: str, args: TradeArgs) -> None:
        """Decline a trade offered to you."""
        t = self.find_trade(ctx.state, args.trade)
        ctx.emit("trade_closed", Msg("{player} declines the trade.", player=ctx.state.name(t.to)),
                 id=t.id,
                 accepted=False)

    @takes(TradeArgs)
    def cmd_cancel_trade(self, ctx: C, actor: str, args: TradeArgs) -> None:
        """Withdraw a trade you proposed."""
        t = self.find_trade(ctx.state, args.trade)
        ctx.emit("trade_closed", Msg("{player} withdraws the trade offer.",
                                    player=ctx.state.name(t.proposer)),
                 id=t.id, accepted=False)
