"""Buying, auctions and rent."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.engine.commands import Amount, NoArgs, takes
from companion.engine.context import Ctx, cites
from companion.engine.i18n import Msg
from companion.engine.prompts import CommandPrompt
from companion.engine.registry import space_kind
from companion.engine.types import BANKER, Action, IllegalCommand
from companion.monopoly.board import Space
from companion.monopoly.host import MonopolyHost
from companion.monopoly.state import Auction, MonopolyState

C = Ctx[MonopolyState]

BUY = CommandPrompt("buy")
"""Buy the space landed on or auction it (``buy``, ``auction``)."""

AUCTION = CommandPrompt("auction")
"""Bid or pass; the banker may close the auction."""


@dataclass(frozen=True)
class BidArgs:
    """Bid in the auction under way."""

    amount: Amount | None = None
    """The bid, in the currency's minor units."""


class MonopolyMarket(MonopolyHost):
    """Landing on an ownable space: buy or auction, or pay rent. Mixed into MonopolyRules."""

    @space_kind("location")
    @space_kind("station")
    def land_location(self, ctx: C, pid: str, space: Space) -> None:
        owner = ctx.state.owner(space.index)
        if owner is None:
            self.offer(ctx, pid, space)
        elif owner != pid and not ctx.state.player(owner).bankrupt:
            self.charge_rent(ctx, pid, owner, space)

    def offer(self, ctx: C, pid: str, space: Space) -> None:
        """Ask the lander to buy at the price or to auction (never neither)."""
        p = ctx.state.player(pid)
        price = self.price(ctx.state, space)
        ctx.ask(BUY, (pid,), Msg("{player}: buy {space} for {amount} or auction it",
                                  player=p.name, space=space.name, amount=ctx.state.cash(price)),
                space=space.index, price=price)

    def price(self, state: MonopolyState, space: Space) -> int:
        return space.price

    def rent(self, state: MonopolyState, space: Space, owner: str) -> tuple[int, str]:
        """The rent due and the rule that set it."""
        if space.color and state.has_set(owner, space.color):
            return space.rent * 2, Msg("complete colour set: double rent")
        return space.rent, Msg("rent")

    rent_cites: Mapping[str, str] = {}
    """Policy: the citation id of a rule ``rent`` names (Mario: GAME OVER's no rent), when
    it is not the rent rule itself."""

    @cites("rent")
    def charge_rent(self, ctx: C, pid: str, owner: str, space: Space) -> None:
        amount, rule = self.rent(ctx.state, space, owner)
        if amount <= 0:
            ctx.emit("noted", Msg("{space}: no rent ({rule}).", space=space.name, rule=rule),
                     cite=self.rent_cites.get(rule))
            return
        if self.rent_claimed_later(ctx, pid, owner, space, amount, rule):
            return
        self.pay(ctx, pid, owner, amount,
                 Msg("{player} pays {owner} {amount} for {space} ({rule})",
                     player=ctx.state.name(pid), owner=ctx.state.name(owner),
                     amount=ctx.state.cash(amount), space=space.name, rule=rule))

    def rent_claimed_later(self, ctx: C, pid: str, owner: str, space: Space, amount: int,
                           rule: str) -> bool:
        """Edition hook: record a rent the owner must ask for, instead of charging it now
        (True when it did; Mario's reading ``rent_collection = ask``)."""
        return False

    def may_take_space(self, state: MonopolyState, pid: str) -> bool:
        """Edition hook: whether ``pid`` may take another space (buy it, bid for it; Star
        Wars: a ship with all its property markers on the board may not)."""
        return True

    @cites("buy")
    def cmd_buy(self, ctx: C, actor: str, args: NoArgs) -> None:
        """Buy the space just landed on at its price."""
        assert ctx.state.prompt is not None
        index = ctx.state.prompt.data["space"]
        price = ctx.state.prompt.data["price"]
        p = ctx.state.player(actor)
        if p.money < price:
            raise IllegalCommand(Msg("{player} has {amount}; the price is {price}. "
                                     "Auction it instead.", player=p.name,
                                     amount=ctx.state.cash(p.money),
                                     price=ctx.state.cash(price)))
        ctx.clear_prompt()
        space = ctx.state.b.spaces[index]
        ctx.emit("money_paid", source=p.id, to="bank", amount=price)
        self.take_deed(ctx, index, p.id, Msg("{player} buys {space} for {amount}.", player=p.name,
                                             space=space.name, amount=ctx.state.cash(price)))
        self.after_gain(ctx, p.id, index)
        self.after_buy(ctx, p.id, index)

    def take_deed(self, ctx: C, index: int, pid: str | None, why: str) -> None:
        ctx.emit("deed_owned", why, space=index, owner=pid)

    def after_gain(self, ctx: C, pid: str, index: int) -> None:
        """Edition hook: a player just gained a space (bought, won, traded)."""

    def after_buy(self, ctx: C, pid: str, index: int) -> None:
        """Edition hook: a player just bought the space they landed on (after ``after_gain``;
        Pokémon: they may explore it)."""

    def cmd_auction(self, ctx: C, actor: str, args: NoArgs) -> None:
        """Auction the space instead of buying it."""
        assert ctx.state.prompt is not None
        index = ctx.state.prompt.data["space"]
        ctx.clear_prompt()
        self.start_auction(ctx, index)

    def start_auction(self, ctx: C, index: int) -> None:
        floor = ctx.state.b.rule("auction_start", 1)
        space = ctx.state.b.spaces[index]
        ctx.emit("auction_started",
                 Msg("{space} goes to auction: bids from {amount}.", space=space.name,
                     amount=ctx.state.cash(floor)),
                 space=index, floor=floor)
        self.ask_auction(ctx)

    def ask_auction(self, ctx: C) -> None:
        a = ctx.state.auction
        assert a is not None
        space = ctx.state.b.spaces[a.space]
        if a.bidder is None:
            text = Msg("Auction for {space}: no bid yet (from {amount})", space=space.name,
                       amount=ctx.state.cash(a.floor))
        else:
            text = Msg("Auction for {space}: {player} bids {amount}", space=space.name,
                       player=ctx.state.name(a.bidder), amount=ctx.state.cash(a.high))
        bidders = [p.id for p in ctx.state.active if p.id not in a.passed]
        ctx.ask(AUCTION, (*bidders, BANKER), text, space=a.space, high=a.high,
                bidder=a.bidder)

    def min_bid(self, a: Auction, state: MonopolyState) -> int:
        step = state.b.rule("auction_step", 1)
        return a.floor if a.bidder is None else a.high + step

    def auction_actions(self, state: MonopolyState) -> list[Action]:
        a = state.auction
        assert a is not None
        out = []
        low = self.min_bid(a, state)
        for p in state.active:
            if p.id in a.passed:
                continue
            if p.money >= low and p.id != a.bidder and self.may_take_space(state, p.id):
                out.append(Action(p.id, "bid", Msg("Bid"), {}, {"kind": "amount", "min": low,
                                                           "max": p.money}))
            if p.id != a.bidder:
                out.append(Action(p.id, "pass", Msg("Pass")))
        out.append(Action(BANKER, "close_auction", Msg("Close the auction")))
        return out

    @takes(BidArgs)
    def cmd_bid(self, ctx: C, actor: str, args: BidArgs) -> None:
        """Bid in the running auction: ``amount`` at least the minimum, at most your money."""
        a = ctx.state.auction
        assert a is not None
        amount = args.amount
        p = ctx.state.player(actor)
        low = self.min_bid(a, ctx.state)
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise IllegalCommand("A bid is a whole amount.")
        if amount < low:
            raise IllegalCommand(Msg("The lowest bid now is {amount}.",
                                     amount=ctx.state.cash(low)))
        if amount > p.money:
            raise IllegalCommand(Msg("{player} cannot bid {amount}: only {cash} in hand.",
                                     player=p.name, amount=ctx.state.cash(amount),
                                     cash=ctx.state.cash(p.money)))
        ctx.emit("bid_placed", Msg("{player} bids {amount}.", player=p.name,
                                   amount=ctx.state.cash(amount)), player=p.id, amount=amount)
        self.auction_settled_or_ask(ctx)

    def cmd_pass(self, ctx: C, actor: str, args: NoArgs) -> None:
        """Drop out of the running auction."""
        a = ctx.state.auction
        assert a is not None
        ctx.emit("auction_dropped_out", Msg("{player} passes.",
                                            player=ctx.state.name(actor)),
                 player=actor)
        self.auction_settled_or_ask(ctx)

    def auction_settled_or_ask(self, ctx: C) -> None:
        """Close on its own once nobody is left to outbid the high bidder."""
        a = ctx.state.auction
        assert a is not None
        left = [p.id for p in ctx.state.active if p.id not in a.passed and p.id != a.bidder
                and self.may_take_space(ctx.state, p.id)]
        if not left:
            self.close_auction(ctx)
        else:
            self.ask_auction(ctx)

    def cmd_close_auction(self, ctx: C, actor: str, args: NoArgs) -> None:
        """The banker closes the auction: the highest bid wins; no bid, it stays unowned."""
        self.close_auction(ctx)

    def close_auction(self, ctx: C) -> None:
        self.settle_auction(ctx)
        self.after_auction(ctx)

    def after_auction(self, ctx: C) -> None:
        """Edition hook: an auction just closed (Star Wars auctions the next Bank property)."""

    @cites("auction")
    def settle_auction(self, ctx: C) -> None:
        a = ctx.state.auction
        assert a is not None
        ctx.clear_prompt()
        space = ctx.state.b.spaces[a.space]
        ctx.emit("auction_closed")
        if a.bidder is None:
            ctx.say(Msg("Nobody bid: {space} stays with the Bank.", space=space.name))
            return
        ctx.emit("money_paid", source=a.bidder, to="bank", amount=a.high)
        self.take_deed(ctx, a.space, a.bidder, Msg("{player} wins {space} at auction for {amount}.",
                                                  player=ctx.state.name(a.bidder),
                                                  space=space.name,
                                                  amount=ctx.state.cash(a.high)))
        self.after_gain(ctx, a.bidder, a.space)
