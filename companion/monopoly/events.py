"""How each Monopoly-family event changes the state (pure functions, one per event)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.engine.state import evolve
from companion.monopoly.host import MonopolyHost
from companion.monopoly.state import Assets, Auction, Debt, Deed, MonopolyState, Player, Trade

M = MonopolyState


def _with_player(state: M, pid: str, **changes: Any) -> M:
    players = tuple(evolve(p, **changes) if p.id == pid else p for p in state.players)
    return evolve(state, players=players)


def _add(state: M, account: str, delta: int) -> M:
    if account == "bank":
        return evolve(state, bank=state.bank + delta)
    if account == "pot":
        return evolve(state, pot=state.pot + delta)
    p = state.player(account)
    return _with_player(state, account, money=p.money + delta)


def assets_from_json(raw: Mapping[str, Any]) -> Assets:
    extra = {k: tuple(v) for k, v in raw.items() if k not in ("money", "spaces", "cards")}
    return Assets(int(raw.get("money", 0)), tuple(raw.get("spaces", ())),
                  tuple(raw.get("cards", ())), extra)


class MonopolyEvents(MonopolyHost):
    """Apply handlers (``on_<event>``) for the events every Monopoly edition emits."""

    def on_order_decided(self, state: M, data: Mapping[str, Any]) -> M:
        by_id = {p.id: p for p in state.players}
        return evolve(state, players=tuple(by_id[i] for i in data["order"]), current=0,
                       order_rolls={})

    def on_order_rolled(self, state: M, data: Mapping[str, Any]) -> M:
        return evolve(state, order_rolls={**state.order_rolls, data["player"]: data["total"]})

    def on_order_rolls_cleared(self, state: M, data: Mapping[str, Any]) -> M:
        return evolve(state, order_rolls={})

    def on_money_paid(self, state: M, data: Mapping[str, Any]) -> M:
        amount = data["amount"]
        return _add(_add(state, data["source"], -amount), data["to"], amount)

    def on_moved_to(self, state: M, data: Mapping[str, Any]) -> M:
        return _with_player(state, data["player"], position=data["to"])

    def on_jail_changed(self, state: M, data: Mapping[str, Any]) -> M:
        return _with_player(state, data["player"], in_jail=data["in_jail"],
                            jail_tries=data.get("tries", 0))

    def on_deed_owned(self, state: M, data: Mapping[str, Any]) -> M:
        index = data["space"]
        new = replace(state.deeds[index], owner=data["owner"])
        return evolve(state, deeds={**state.deeds, index: new})

    def on_turn_passed(self, state: M, data: Mapping[str, Any]) -> M:
        return evolve(state, current=data["current"], doubles=0, again=False,
                       turn_no=state.turn_no + 1)

    def on_doubles_counted(self, state: M, data: Mapping[str, Any]) -> M:
        return evolve(state, doubles=data["count"], again=data["again"])

    def on_deck_changed(self, state: M, data: Mapping[str, Any]) -> M:
        return evolve(state, decks={**state.decks, data["deck"]: tuple(data["cards"])})

    def on_card_kept(self, state: M, data: Mapping[str, Any]) -> M:
        p = state.player(data["player"])
        if data["keep"]:
            return _with_player(state, p.id, cards=(*p.cards, data["card"]))
        cards = list(p.cards)
        cards.remove(data["card"])
        return _with_player(state, p.id, cards=tuple(cards))

    def on_auction_changed(self, state: M, data: Mapping[str, Any]) -> M:
        raw = data["auction"]
        if raw is None:
            return evolve(state, auction=None)
        return evolve(state, auction=Auction(raw["space"], raw["floor"], raw["high"],
                                              raw["bidder"], tuple(raw["passed"])))

    def on_debt_changed(self, state: M, data: Mapping[str, Any]) -> M:
        raw = data["debt"]
        if raw is None:
            return evolve(state, debt=None)
        return evolve(state, debt=Debt(raw["player"], raw["creditor"], raw["amount"],
                                        raw["reason"]))

    def on_went_bankrupt(self, state: M, data: Mapping[str, Any]) -> M:
        return _with_player(state, data["player"], bankrupt=True, in_jail=False, cards=())

    def on_trade_proposed(self, state: M, data: Mapping[str, Any]) -> M:
        trade = Trade(data["id"], data["proposer"], data["to"], assets_from_json(data["give"]),
                      assets_from_json(data["take"]))
        return evolve(state, trades=(*state.trades, trade), next_trade=data["id"] + 1)

    def on_trade_closed(self, state: M, data: Mapping[str, Any]) -> M:
        return evolve(state, trades=tuple(t for t in state.trades if t.id != data["id"]))

    def on_edition_values_set(self, state: M, data: Mapping[str, Any]) -> M:
        return evolve(state, ext=state.ext.updated(data["set"]))

    def on_player_value_set(self, state: M, data: Mapping[str, Any]) -> M:
        """An edition value kept per player: field ``key`` maps player ids to values."""
        key, pid = data["key"], data["player"]
        table = {**getattr(state.ext, key), pid: data["value"]}
        return evolve(state, ext=state.ext.updated({key: table}))


def new_player(pid: str, name: str, token: str, money: int) -> Player:
    return Player(pid, name, token, money)


def fresh_deeds(board_ownable: tuple[int, ...]) -> dict[int, Deed]:
    return {i: Deed() for i in board_ownable}
