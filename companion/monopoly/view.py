"""The JSON view of a Monopoly-family game (see docs/state.md for every field)."""

from __future__ import annotations

from typing import Any, Protocol

from companion.engine.i18n import Msg
from companion.engine.types import Action
from companion.monopoly.board import Board
from companion.monopoly.board_edit import facts_by_space
from companion.monopoly.state import Assets, MonopolyState
from companion.monopoly.turns import ORDER


class ViewedRules(Protocol):
    """What the view reads of an edition's rules (``MonopolyRules`` has all of it)."""

    name: str
    title: str
    family: str

    def legal_actions(self, state: MonopolyState) -> list[Action]: ...

    def game_over_at(self, state: MonopolyState, index: int) -> bool: ...

    def describe(self, state: MonopolyState, a: Assets) -> str: ...

    def end_rule(self, state: MonopolyState) -> str: ...


_MARKS: dict[int, tuple[Any, dict[str, list[str]]]] = {}


def marks_of(facts: Any) -> dict[str, list[str]]:
    """:func:`facts_by_space` of a board's unverified facts, worked out once per board (a
    board never changes; this was 40% of every view)."""
    hit = _MARKS.get(id(facts))
    if hit is None or hit[0] is not facts:
        if len(_MARKS) >= 64:
            _MARKS.clear()
        hit = _MARKS[id(facts)] = (facts, facts_by_space(facts))
    return hit[1]


def space_entries(board: Board) -> tuple[tuple[int | None, dict[str, Any]], ...]:
    """Each space's entry in the view as far as the board says (owner and GAME OVER left to
    fill, keys in the view's order), with its index when it is ownable: worked out once per
    board instead of for every view."""
    marks = marks_of(board.data.get("unverified_facts", ()))
    out = []
    for s in board.spaces:
        item: dict[str, Any] = {"index": s.index, "id": s.id, "name": s.name, "kind": s.kind,
                                "color": s.color}
        if s.ownable:
            item.update(price=s.price, rent=s.rent, owner=None, game_over=False)
        if s.kind == "tax":
            item["amount"] = s.amount
        if s.id in marks:  # facts shipped as defaults, not (yet) checked against the box
            item["unverified"] = marks[s.id]
        out.append((s.index if s.ownable else None, item))
    return tuple(out)


def monopoly_view(rules: ViewedRules, state: MonopolyState) -> dict[str, Any]:
    b = state.b
    current = state.turn_player.id if state.players and not state.finished else None
    if state.prompt is not None and state.prompt.kind == ORDER.kind:
        current = state.prompt.to[0]  # the starting roll: whoever it waits for, not seat one
    marks = marks_of(b.data.get("unverified_facts", ()))
    players = [
        {
            "id": p.id, "name": p.name, "token": b.token(p.token),
            "colour": b.token_colours.get(p.token), "money": p.money,
            "money_text": b.currency.format(p.money), "position": p.position,
            "space": b.spaces[p.position].name, "in_jail": p.in_jail, "jail_tries": p.jail_tries,
            "cards": [{"id": c, "text": b.card(c).text} | ({"unverified": ["text"]} if c in marks
                                                             else {}) for c in p.cards],
            "bankrupt": p.bankrupt, "is_current": p.id == current,
            "spaces": list(state.owned_by(p.id)),
        }
        for p in state.players
    ]
    spaces = []
    deeds = state.deeds
    for index, base in b.derived("view_spaces", space_entries):
        item = base.copy()
        if index is not None:  # ownable: who owns it, and Mario's GAME OVER mark
            deed = deeds.get(index)
            item["owner"] = deed.owner if deed else None
            item["game_over"] = rules.game_over_at(state, index)
        spaces.append(item)
    auction = state.auction
    return {
        "edition": rules.name, "title": rules.title, "family": rules.family,
        "currency": b.currency.to_json(),
        "players": players, "current": current,
        "prompt": state.prompt.to_json() if state.prompt else None,
        "actions": [a.to_json() for a in rules.legal_actions(state)] if not state.finished else [],
        "last_roll": list(state.last_roll),
        "finished": state.finished, "winners": list(state.winners),
        "end_reason": state.end_reason, "end_rule": rules.end_rule(state),
        "pot": state.pot, "pot_text": b.currency.format(state.pot),
        "board": {"spaces": spaces, "colors": dict(b.color_names),
                  "unverified": list(b.unverified)},
        "auction": None if auction is None else {
            "space": auction.space, "high": auction.high, "bidder": auction.bidder,
            "passed": list(auction.passed), "floor": auction.floor},
        "debt": None if state.debt is None else {
            "player": state.debt.player, "creditor": state.debt.creditor,
            "amount": state.debt.amount, "reason": state.debt.reason},
        "trades": [{"id": t.id, "proposer": t.proposer, "to": t.to, "give": t.give.to_json(),
                    "take": t.take.to_json(),
                    "text": Msg("{give} for {take}", give=rules.describe(state, t.give),
                                take=rules.describe(state, t.take))}
                   for t in state.trades],
        "turn_no": state.turn_no,
    }
