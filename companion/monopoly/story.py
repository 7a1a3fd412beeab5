"""What a Monopoly-family game's story counts for each player (see companion/engine/story.py).

Every counter reads the log as any version wrote it: no counter needs a citation id (logs
from before issue 11 have none), only the events and the states around them.
"""

from __future__ import annotations

from typing import cast

from companion.engine.events import (
    MoneyPaid,
    MovedTo,
    TradeClosed,
    TurnPassed,
)
from companion.engine.i18n import N_
from companion.engine.story import Count, Counter, Step
from companion.monopoly.events import WentToJail
from companion.monopoly.state import MonopolyState


def _m(state: object) -> MonopolyState:
    return cast(MonopolyState, state)


def is_player(state: MonopolyState, account: str) -> bool:
    return any(p.id == account for p in state.players)


def rent(step: Step) -> tuple[str, str, int] | None:
    """``(payer, owner, amount)`` when the step is a player paying the owner of the space
    they stand on (rent, or a bankruptcy to that owner for it); a trade's money is not
    rent."""
    if step.name != "money_paid":
        return None
    e = cast(MoneyPaid, step.data)
    s = _m(step.before)
    if not (is_player(s, e.source) and is_player(s, e.to)) or e.amount <= 0:
        return None
    deed = s.deeds.get(s.player(e.source).position)
    if deed is None or deed.owner != e.to:
        return None
    return e.source, e.to, e.amount


def rent_paid(step: Step) -> Count:
    found = rent(step)
    return [(found[0], found[2], "")] if found else []


def rent_received(step: Step) -> Count:
    found = rent(step)
    return [(found[1], found[2], "")] if found else []


def laps(step: Step) -> Count:
    """Passing (or landing on) GO: a forward move round the corner, or a jump followed at
    once by the salary from the Bank."""
    if step.name != "moved_to":
        return []
    e = cast(MovedTo, step.data)
    s = _m(step.before)
    n = len(s.b.spaces)
    start = s.player(e.player).position
    if e.steps > 0:
        return [(e.player, 1, "")] if start + e.steps >= n else []
    nxt = step.next_data
    if step.next_name == "money_paid" and nxt is not None:
        paid = cast(MoneyPaid, nxt)
        if paid.source == "bank" and paid.to == e.player and e.to <= start:
            return [(e.player, 1, "")]
    return []


def jail_turns(step: Step) -> Count:
    """A turn that begins with its player in Jail."""
    if step.name != "turn_passed":
        return []
    s = _m(step.after)
    p = s.players[cast(TurnPassed, step.data).current]
    return [(p.id, 1, "")] if p.in_jail else []


def sent_to_jail(step: Step) -> Count:
    if step.name != "went_to_jail":
        return []
    e = cast(WentToJail, step.data)
    was = _m(step.before).player(e.player).in_jail
    return [(e.player, 1, "")] if not was else []


def auctions_won(step: Step) -> Count:
    """The high bidder when an auction closes (``auction_closed``, or an old log's
    ``auction_changed``: seen in the state)."""
    a = _m(step.before).auction
    if a is None or _m(step.after).auction is not None:
        return []
    return [(a.bidder, 1, "")] if a is not None and a.bidder is not None else []


def trades_made(step: Step) -> Count:
    if step.name != "trade_closed":
        return []
    e = cast(TradeClosed, step.data)
    if not e.accepted:
        return []
    for t in _m(step.before).trades:
        if t.id == e.id:
            return [(t.proposer, 1, ""), (t.to, 1, "")]
    return []


STORY_COUNTERS = [
    Counter("rent_paid", N_("Rent paid"), rent_paid, money=True),
    Counter("rent_received", N_("Rent received"), rent_received, money=True,
            short=N_("rent")),
    Counter("laps", N_("Laps"), laps, short=N_("laps")),
    Counter("jail_turns", N_("Turns in Jail"), jail_turns, feature="jail"),
    Counter("auctions_won", N_("Auctions won"), auctions_won, feature="auctions"),
    Counter("trades", N_("Trades made"), trades_made, feature="trades"),
]
"""The family's lines, in the order the story shows them; each edition adds its own."""
