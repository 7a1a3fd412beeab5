"""How each Monopoly-family event changes the state (pure functions, one per event)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.engine.event_format import UPCASTERS, Blob, Data, EventData, fact
from companion.engine.events import (
    CardKept,
    DeedOwned,
    DoublesCounted,
    MoneyPaid,
    MovedTo,
    OrderDecided,
    OrderRolled,
    OrderRollsCleared,
    TradeClosed,
    TradeProposed,
    TurnPassed,
    WentBankrupt,
)
from companion.engine.state import evolve
from companion.monopoly.host import MonopolyHost
from companion.monopoly.state import Assets, Auction, Debt, Deed, MonopolyState, Player, Trade

M = MonopolyState


# -- auctions and debts ------------------------------------------------------------------------
@fact("auction_started")
class AuctionStarted(EventData):
    """The space at ``space`` goes to auction, bids from ``floor``."""

    space: int
    floor: int


@fact("bid_placed")
class BidPlaced(EventData):
    player: str
    amount: int


@fact("auction_dropped_out")
class AuctionDroppedOut(EventData):
    """``player`` passed: out of this auction."""

    player: str


@fact("auction_closed")
class AuctionClosed(EventData):
    """The auction is over (the payment and the deed follow when someone bid)."""


@fact("debt_owed")
class DebtOwed(EventData):
    """``player`` owes ``creditor`` ``amount`` they cannot pay now (``reason``; ``rule``: the
    citation of the rule that charged it). Replaces the debt that stood."""

    player: str
    creditor: str
    amount: int
    reason: str
    rule: str = ""


@fact("debt_settled")
class DebtSettled(EventData):
    """The debt that stood is over (paid, or the debtor went bankrupt)."""


# -- jail ---------------------------------------------------------------------------------------
@fact("went_to_jail")
class WentToJail(EventData):
    """``player`` is In Jail (the move there is its own ``moved_to``)."""

    player: str


@fact("stayed_in_jail")
class StayedInJail(EventData):
    """``player`` did not roll their way out of Jail: ``tries`` turns tried so far."""

    player: str
    tries: int


@fact("left_jail")
class LeftJail(EventData):
    """``player`` is out of Jail (paid, a card, doubles, or a rule pulled them out)."""

    player: str


def _jail_changed(data: Data) -> tuple[str, Data]:
    """An earlier version's ``jail_changed`` (whether In Jail, the tries) as the fact it was."""
    if not data["in_jail"]:
        return "left_jail", {"player": data["player"]}
    tries = data.get("tries", 0)
    if tries:
        return "stayed_in_jail", {"player": data["player"], "tries": tries}
    return "went_to_jail", {"player": data["player"]}


# -- decks --------------------------------------------------------------------------------------
@fact("deck_card_drawn")
class DeckCardDrawn(EventData):
    """``player`` drew ``card`` from the companion's ``deck``, which is ``cards`` after it
    (a card that is not kept goes under the pile)."""

    player: str
    deck: str
    card: str
    cards: list[str]


@fact("card_put_under")
class CardPutUnder(EventData):
    """A used card that was kept went back under its ``deck``."""

    deck: str
    card: str


@fact("deck_ordered")
class DeckOrdered(EventData):
    """``deck`` lies in the order ``cards`` (top first): an earlier version's record of a
    card put back, and how a test stacks a deck. No rule emits it now."""

    deck: str
    cards: list[str]


def _deck_changed(data: Data) -> tuple[str, Data]:
    """An earlier version's ``deck_changed`` (a deck's new order, with the card and player
    when a card was drawn) as the fact it was."""
    if data.get("card"):
        return "deck_card_drawn", {"player": data.get("player", ""), "deck": data["deck"],
                                   "card": data["card"], "cards": data["cards"]}
    return "deck_ordered", {"deck": data["deck"], "cards": data["cards"]}


UPCASTERS.update({"jail_changed": _jail_changed, "deck_changed": _deck_changed})


# -- legacy: generic patches earlier versions stored; replayed, never emitted --------------------
# ``auction_changed`` set a whole auction: a bid and a pass can leave the same one.
@fact("auction_changed", legacy=True)
class AuctionChanged(EventData):
    auction: Blob


# Each set whole values of an edition's state (Bowser, the rent claims, the caught Pokémon...),
# often several at once: their data does not say which fact happened, so no upcaster can turn
# them into the editions' own events (``bowser_moved``, ``pokemon_caught``...), which the rules
# emit now. Old logs apply them as they always did.
@fact("edition_values_set", legacy=True)
class EditionValuesSet(EventData):
    """Values of an edition's own state (``set``: field name -> new value)."""

    set: Mapping[str, object]


@fact("player_value_set", legacy=True)
class PlayerValueSet(EventData):
    """An edition's own per-player value (Monopolino's booths left)."""

    key: str
    player: str
    value: int


def _with_player(state: M, pid: str, **changes: Any) -> M:
    players = tuple(evolve(p, **changes) if p.id == pid else p for p in state.players)
    return evolve(state, players=players)


def _paid(state: M, source: str, to: str, amount: int) -> M:
    """``amount`` from account ``source`` to account ``to``, in one new state."""
    changes: dict[str, Any] = {}
    players: list[Player] | None = None
    for account, delta in ((source, -amount), (to, amount)):
        if account == "bank":
            changes["bank"] = changes.get("bank", state.bank) + delta
        elif account == "pot":
            changes["pot"] = changes.get("pot", state.pot) + delta
        else:
            if players is None:
                players = list(state.players)
            for i, p in enumerate(players):
                if p.id == account:
                    players[i] = evolve(p, money=p.money + delta)
                    break
            else:
                raise KeyError(account)
    if players is not None:
        changes["players"] = tuple(players)
    return evolve(state, **changes)


def assets_from_json(raw: Mapping[str, Any]) -> Assets:
    extra = {k: tuple(v) for k, v in raw.items() if k not in ("money", "spaces", "cards")}
    return Assets(int(raw.get("money", 0)), tuple(raw.get("spaces", ())),
                  tuple(raw.get("cards", ())), extra)


class MonopolyEvents(MonopolyHost):
    """Apply handlers (``on_<event>``) for the events every Monopoly edition emits."""

    def on_order_decided(self, state: M, e: OrderDecided) -> M:
        by_id = {p.id: p for p in state.players}
        return evolve(state, players=tuple(by_id[i] for i in e.order), current=0,
                       order_rolls={})

    def on_order_rolled(self, state: M, e: OrderRolled) -> M:
        return evolve(state, order_rolls={**state.order_rolls, e.player: e.total})

    def on_order_rolls_cleared(self, state: M, e: OrderRollsCleared) -> M:
        return evolve(state, order_rolls={})

    def on_money_paid(self, state: M, e: MoneyPaid) -> M:
        return _paid(state, e.source, e.to, e.amount)

    def on_moved_to(self, state: M, e: MovedTo) -> M:
        return _with_player(state, e.player, position=e.to)

    def on_went_to_jail(self, state: M, e: WentToJail) -> M:
        return _with_player(state, e.player, in_jail=True, jail_tries=0)

    def on_stayed_in_jail(self, state: M, e: StayedInJail) -> M:
        return _with_player(state, e.player, in_jail=True, jail_tries=e.tries)

    def on_left_jail(self, state: M, e: LeftJail) -> M:
        return _with_player(state, e.player, in_jail=False, jail_tries=0)

    def on_deed_owned(self, state: M, e: DeedOwned) -> M:
        index = e.space
        if index not in state.deeds:
            raise KeyError(index)
        return evolve(state, deeds={**state.deeds, index: Deed(e.owner)})

    def on_turn_passed(self, state: M, e: TurnPassed) -> M:
        return evolve(state, current=e.current, doubles=0, again=False,
                       turn_no=state.turn_no + 1)

    def on_doubles_counted(self, state: M, e: DoublesCounted) -> M:
        return evolve(state, doubles=e.count, again=e.again)

    def on_deck_card_drawn(self, state: M, e: DeckCardDrawn) -> M:
        return evolve(state, decks={**state.decks, e.deck: tuple(e.cards)})

    def on_card_put_under(self, state: M, e: CardPutUnder) -> M:
        return evolve(state, decks={**state.decks, e.deck: (*state.decks[e.deck], e.card)})

    def on_deck_ordered(self, state: M, e: DeckOrdered) -> M:
        return evolve(state, decks={**state.decks, e.deck: tuple(e.cards)})

    def on_card_kept(self, state: M, e: CardKept) -> M:
        p = state.player(e.player)
        if e.keep:
            return _with_player(state, p.id, cards=(*p.cards, e.card))
        cards = list(p.cards)
        cards.remove(e.card)
        return _with_player(state, p.id, cards=tuple(cards))

    def on_auction_started(self, state: M, e: AuctionStarted) -> M:
        return evolve(state, auction=Auction(e.space, e.floor, 0, None, ()))

    def on_bid_placed(self, state: M, e: BidPlaced) -> M:
        assert state.auction is not None
        return evolve(state, auction=replace(state.auction, high=e.amount, bidder=e.player))

    def on_auction_dropped_out(self, state: M, e: AuctionDroppedOut) -> M:
        a = state.auction
        assert a is not None
        return evolve(state, auction=replace(a, passed=(*a.passed, e.player)))

    def on_auction_closed(self, state: M, e: AuctionClosed) -> M:
        return evolve(state, auction=None)

    def on_auction_changed(self, state: M, e: AuctionChanged) -> M:  # legacy
        raw = e.auction
        if raw is None:
            return evolve(state, auction=None)
        return evolve(state, auction=Auction(raw["space"], raw["floor"], raw["high"],
                                              raw["bidder"], tuple(raw["passed"])))

    def on_debt_owed(self, state: M, e: DebtOwed) -> M:
        return evolve(state, debt=Debt(e.player, e.creditor, e.amount, e.reason, e.rule))

    def on_debt_settled(self, state: M, e: DebtSettled) -> M:
        return evolve(state, debt=None)

    def on_went_bankrupt(self, state: M, e: WentBankrupt) -> M:
        return _with_player(state, e.player, bankrupt=True, in_jail=False, cards=())

    def on_trade_proposed(self, state: M, e: TradeProposed) -> M:
        trade = Trade(e.id, e.proposer, e.to, assets_from_json(e.give),
                      assets_from_json(e.take))
        return evolve(state, trades=(*state.trades, trade), next_trade=e.id + 1)

    def on_trade_closed(self, state: M, e: TradeClosed) -> M:
        return evolve(state, trades=tuple(t for t in state.trades if t.id != e.id))

    def on_edition_values_set(self, state: M, e: EditionValuesSet) -> M:  # legacy
        return evolve(state, ext=state.ext.updated(e.set))

    def on_player_value_set(self, state: M, e: PlayerValueSet) -> M:  # legacy
        """An edition value kept per player: field ``key`` maps player ids to values."""
        key, pid = e.key, e.player
        table = {**getattr(state.ext, key), pid: e.value}
        return evolve(state, ext=state.ext.updated({key: table}))


def new_player(pid: str, name: str, token: str, money: int) -> Player:
    return Player(pid, name, token, money)


def fresh_deeds(board_ownable: tuple[int, ...]) -> dict[int, Deed]:
    return {i: Deed() for i in board_ownable}
