"""Trades between trainers: offered after passing a mover (Item Cards may sweeten it), or
forced by a Trade Pokémon card."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from companion.editions.master_trainer.base import State, data_of
from companion.editions.master_trainer.cards import CardRules
from companion.editions.master_trainer.state import Offer
from companion.editions.master_trainer.turns import chip_arg
from companion.engine.commands import Id, NoArgs, Small, Smalls, takes
from companion.engine.event_format import UPCASTERS, Data, EventData, fact, renamed
from companion.engine.i18n import Msg
from companion.engine.prompts import CommandPrompt
from companion.engine.registry import declare
from companion.engine.rules import Ctx
from companion.engine.state import evolve
from companion.engine.types import IllegalCommand

FORCED_TRADE = CommandPrompt("forced_trade")
"""A Trade Pokémon card's trade: accept, or stop it with a Poké Doll."""

OFFER = CommandPrompt("offer")
"""A trade offered: accept or decline."""

TRADE_EVENT = CommandPrompt("trade_event")
"""Trade Pokémon card: choose the trade."""


@dataclass(frozen=True)
class MtTradeArgs:
    """Offer the player on your space a trade of chips and Item Cards."""

    with_: Id | None = None
    """The player offered the trade (the argument ``with``)."""
    give: Small = None
    """The chip given."""
    take: Small = None
    """The chip taken."""
    items: Smalls = None
    """Item Cards given with it."""


@fact("trade_offered")
class TradeOffered(EventData):
    """``by`` offered ``give`` (and Item Cards ``items``) for ``to``'s ``take``; ``forced``:
    a Trade Pokémon card, which ``to`` cannot decline."""

    by: str
    to: str
    give: str
    take: str
    forced: bool
    items: list[str] = dataclasses.field(default_factory=list)


@fact("trade_offer_closed")
class TradeOfferClosed(EventData):
    """The trade offer was accepted, declined or stopped."""


def _offer_changed(data: Data) -> tuple[str, Data]:
    """An earlier version's ``offer_changed`` (a whole offer, or None) is ``trade_offered``
    or ``trade_offer_closed``."""
    offer = data["offer"]
    if offer is None:
        return "trade_offer_closed", {}
    return "trade_offered", {k: offer[k] for k in ("by", "to", "give", "take", "forced", "items")
                             if k in offer}


UPCASTERS.update({"offer": renamed("offer_changed"), "offer_changed": _offer_changed})


class TradeRules(CardRules):
    """``trade`` and ``decline`` (``accept`` and ``poke_doll`` answer a trade too:
    :mod:`battles`)."""

    def on_trade_offered(self, state: State, e: TradeOffered) -> State:
        return evolve(state, offer=Offer(e.by, e.to, e.give, e.take, e.forced, tuple(e.items)))

    def on_trade_offer_closed(self, state: State, e: TradeOfferClosed) -> State:
        return evolve(state, offer=None)

    # -- who may be traded with --------------------------------------------------------------
    def trade_targets(self, state: State, pid: str) -> list[str]:
        """Players with a Pokémon other than their starter (starters cannot be traded)."""
        if not self.tradeable(state, pid):
            return []
        return [t.id for t in state.trainers if t.id != pid and self.tradeable(state, t.id)]

    # -- offering ---------------------------------------------------------------------------
    def offered_items(self, state: State, pid: str, raw: Any) -> list[str]:
        """Item Cards named as ``potion,fly`` or a list, all held by ``pid``."""
        if raw in (None, "", []):
            return []
        names = raw.replace(" ", ",").split(",") if isinstance(raw, str) else raw
        if not isinstance(names, list | tuple):
            names = [names]
        hand = list(state.trainer(pid).items)
        cards = []
        for name in names:
            if not name:
                continue
            card = self.held_card(state, pid, name)
            if card not in hand:
                raise IllegalCommand(Msg("You hold too few {card} cards.",
                                         card=self.item_name(state, card)))
            hand.remove(card)
            cards.append(card)
        return cards

    @takes(MtTradeArgs)
    def cmd_trade(self, ctx: Ctx[State], actor: str, args: MtTradeArgs) -> None:
        """``trade with=<player> give=<your chip> take=<their chip> [items=potion,fly]``: offer
        a trade after passing a mover (Item Cards may sweeten it), or make the trade a Trade
        Pokémon card forces."""
        state, pid = ctx.state, actor
        other = str(args.with_ or "")
        data = data_of(state)
        give = chip_arg(args.give, data)
        take = chip_arg(args.take, data)
        if other not in self.trade_targets(state, pid):
            raise IllegalCommand(Msg("Trade with another player who has a Pokémon besides the "
                                     "starter (starters cannot be traded)."))
        for chip, owner in ((give, pid), (take, other)):
            t = state.trainer(owner)
            if chip not in t.team:
                raise IllegalCommand(Msg("{pokemon} is not in {player}'s team.",
                                         pokemon=self.chip(state, chip).name,
                                         player=self.pname(state, owner)))
            if chip == t.starter:
                raise IllegalCommand(Msg("Starter Pokémon cannot be traded."))
        forced = state.prompt is not None and state.prompt.kind == TRADE_EVENT.kind
        items = self.offered_items(state, pid, args.items)
        if forced and items:
            raise IllegalCommand(Msg("A Trade Pokémon card swaps one Pokémon for one Pokémon."))
        ctx.clear_prompt()
        g, t_ = self.chip(state, give).name, self.chip(state, take).name
        me, them = self.pname(state, pid), self.pname(state, other)
        offered = Msg("{player} offers {pokemon} for {other}'s {theirs}.", player=me, pokemon=g,
                      other=them, theirs=t_) if not items else \
            Msg("{player} offers {pokemon} + {cards} for {other}'s {theirs}.", player=me,
                pokemon=g, cards=self.plus(state, items), other=them,
                theirs=t_)
        ctx.emit("trade_offered", offered, by=pid, to=other, give=give,
                 take=take, forced=forced, items=items)
        if forced:
            ctx.ask(FORCED_TRADE, (other,), Msg(
                "Trade Pokémon card: {player} must trade {pokemon} for {theirs} unless you stop "
                "it with a Poké Doll.", player=them, pokemon=t_, theirs=g)
                if "poke_doll" in state.trainer(other).items else
                Msg("Trade Pokémon card: {player} must trade {pokemon} for {theirs}.",
                    player=them, pokemon=t_, theirs=g))
        else:
            ctx.ask(OFFER, (other,), Msg("{player}: trade your {pokemon} for {theirs}?",
                                           player=them, pokemon=t_, theirs=g))

    def plus(self, state: State, items: list[str]) -> str:
        """Item Cards' names as "Potion + Fly" (each name in the reader's language)."""
        names = [self.item_name(state, c) for c in items]
        out = names[-1]
        for name in reversed(names[:-1]):
            out = Msg("{first} + {rest}", first=name, rest=out)
        return out

    def cmd_decline(self, ctx: Ctx[State], actor: str, args: NoArgs) -> None:
        """``decline``: turn down a trade offer (the mover goes on to its space)."""
        ctx.clear_prompt()
        ctx.emit("trade_offer_closed",
                 Msg("{player} declines the trade.", player=self.pname(ctx.state, actor)))
        self.back_to_landing(ctx)

    def back_to_landing(self, ctx: Ctx[State]) -> None:
        ctx.emit("passed_mover_left")
        self.ask_land(ctx, Msg("{player}: go on to the space you rolled and say where it is.",
                               player=self.pname(ctx.state, ctx.state.current or "")))

    # -- the Trade Pokémon card -------------------------------------------------------------
    @declare("event_card", "trade")
    def event_trade(self, ctx: Ctx[State], pid: str) -> None:
        if not self.trade_targets(ctx.state, pid):
            ctx.say(Msg("Trade Pokémon: no trade is possible (starters cannot be traded); the "
                        "card is discarded."))
            self.end_turn(ctx)
            return
        ctx.ask(TRADE_EVENT, (pid,), Msg("Trade Pokémon: give one of your Pokémon to another "
                                           "player and take one of theirs (not a starter)."))
