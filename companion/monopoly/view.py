"""The JSON view of a Monopoly-family game (see docs/state.md for every field)."""

from __future__ import annotations

from typing import Any, NotRequired, Protocol, TypedDict

from companion.engine.i18n import Msg
from companion.engine.types import Action
from companion.monopoly.board import Board
from companion.monopoly.board_edit import facts_by_space
from companion.monopoly.state import Assets, MonopolyState
from companion.monopoly.turns import ORDER


class SpaceFlag(TypedDict):
    """A word on a space of the board (a GAME OVER mark, a booth): the page reads it out with
    the space and, when ``shown``, also writes it on the space."""

    kind: str
    """What it is, as a CSS class of the space ("over"); the page decides nothing from it."""
    text: Msg
    shown: bool


class BoardPiece(TypedDict):
    """A piece on the board that is no player's (Bowser)."""

    index: int
    """The space it stands on."""
    mark: Msg
    """Its short mark on that space ("B")."""
    here: Msg
    """What the space's reading says of it ("Bowser is here")."""


class BoardNote(TypedDict):
    """A line the page writes in the middle of the board."""

    text: Msg
    mark: NotRequired[Msg]
    """A piece's mark written before the line."""


class SpaceView(TypedDict):
    """A space as the view's ``board.spaces`` gives it."""

    index: int
    id: str
    name: str
    kind: str
    color: str | None
    price: NotRequired[int]
    rent: NotRequired[int]
    owner: NotRequired[str | None]
    amount: NotRequired[int]
    """A tax space's amount."""
    unverified: NotRequired[list[str]]
    """Its facts shipped as defaults, not yet checked against the box."""
    flags: NotRequired[list[SpaceFlag]]


class BoardMarks(TypedDict):
    """What an edition adds to its board's view (``MonopolyRules.board_marks``)."""

    flags: dict[int, list[SpaceFlag]]
    """By space index."""
    pieces: list[BoardPiece]
    notes: list[BoardNote]


NO_MARKS = BoardMarks(flags={}, pieces=[], notes=[])


class ViewedRules(Protocol):
    """What the view reads of an edition's rules (``MonopolyRules`` has all of it)."""

    name: str
    title: str
    family: str

    def legal_actions(self, state: MonopolyState) -> list[Action]: ...

    pot_label: str | None

    def board_marks(self, state: MonopolyState) -> BoardMarks: ...

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
    """Each space's entry in the view as far as the board says (owner and flags left to
    fill, keys in the view's order), with its index when it is ownable: worked out once per
    board instead of for every view."""
    marks = marks_of(board.data.get("unverified_facts", ()))
    out = []
    for s in board.spaces:
        item: dict[str, Any] = {"index": s.index, "id": s.id, "name": s.name, "kind": s.kind,
                                "color": s.color}
        if s.ownable:
            item.update(price=s.price, rent=s.rent, owner=None)
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
    marked = rules.board_marks(state)
    flags = marked["flags"]
    for index, base in b.derived("view_spaces", space_entries):
        item = base.copy()
        if index is not None:  # ownable: who owns it
            deed = deeds.get(index)
            item["owner"] = deed.owner if deed else None
        if base["index"] in flags:
            item["flags"] = flags[base["index"]]
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
        **({} if rules.pot_label is None else {"pot_label": Msg(rules.pot_label)}),
        "board": {"spaces": spaces, "colors": dict(b.color_names),
                  "unverified": list(b.unverified),
                  "pieces": marked["pieces"], "notes": marked["notes"]},
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
