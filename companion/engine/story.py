"""A game's story: who won and why, and what each player's game was, counted from its log.

A pure function of the event log (``story(rows)``), so it works for every saved game, old
formats included (the events are upcast as a replay does). What is counted is declared per
edition by its rules (``Rules.story_counters``: the family's in ``companion/monopoly/story.py``,
an edition's own in its package): a :class:`Counter` looks at one :class:`Step` (an event
with the states before and after it) and says which player it adds to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, pairwise
from typing import Any

from companion.engine import i18n
from companion.engine.event_format import EVENT_TYPES, EventData, upcast
from companion.engine.i18n import N_, Msg, Msgs
from companion.engine.log import GAME_STARTED, UNDONE, taken_back, undo_marks
from companion.engine.rules import Rules
from companion.engine.state import BaseState
from companion.engine.types import Event, GameSetup


@dataclass(frozen=True, slots=True)
class Step:
    """One event of the game in force, as the story's counters see it."""

    seq: int
    cmd: int
    time: float
    name: str
    """The event's current name (an old log's ``money`` is ``money_paid``)."""
    data: EventData
    """Its typed, current fields."""
    say: str
    cite: str
    before: BaseState
    after: BaseState
    next_name: str = ""
    """The next event's name in the same command ("" at a command's end)."""
    next_data: EventData | None = None


Count = Iterable[tuple[str, int, str]]
"""What one step adds: ``(player id, amount, detail)``; ``detail`` "" or a breakdown key
(a Pokémon type)."""


@dataclass(frozen=True)
class Counter:
    """One line of every player's story."""

    key: str
    label: str
    count: Callable[[Step], Count]
    money: bool = False
    """The value is money, written in the edition's currency."""
    feature: str = ""
    """A family feature (``auctions``, ``trades``, ``jail``) an edition may leave out
    (``Rules.without``): the line is left out with it."""
    details: Callable[[BaseState, str], str] = field(default=lambda state, key: key)
    """The words for a breakdown key (a type id -> its name)."""
    short: str = ""
    """The figure's name on the 128x64 OLED's end screen, a message marked ``N_`` ("" = not
    shown there)."""


def counters(rules: Rules[Any]) -> list[Counter]:
    """The edition's declared counters (``Rules.story_counters``), without those for
    features it leaves out."""
    declared: Sequence[Counter] = rules.story_counters()
    without = getattr(rules, "without", {})
    return [c for c in declared if not c.feature or c.feature not in without]


Row = tuple[int, int, float, Event]
"""``(seq, cmd, time, event)``: a stored event (``store.Row`` fields, an export line's)."""


def rows_of(stored: Iterable[Any]) -> list[Row]:
    """``store.Row`` objects as :data:`Row` tuples."""
    return [(r.seq, r.cmd, r.time, r.event) for r in stored]


def current(event: Event) -> tuple[str, EventData]:
    """An event's current name and typed fields, whatever version stored it."""
    tag, data = upcast(event.type, event.data)
    name = tag.split("@", 1)[0]
    return name, EVENT_TYPES[name](**data)


def in_force(rows: Iterable[Row]) -> Iterator[Row]:
    """The rows no undo took back (:func:`companion.engine.log.taken_back`), one at a time;
    ``rows`` is read twice, its undos first."""
    marks = undo_marks((r[0], r[3]) for r in rows)
    for row in rows:
        if row[3].type != UNDONE and not taken_back(row[0], marks):
            yield row


def steps(rows: Iterable[Row], rules: Rules[Any]) -> Iterator[Step]:
    """The events in force (undone ones left out), each with the states around it. ``rows``
    is read twice (its undos first), one row at a time, so a log read from the store is
    never held whole (:class:`Reread`)."""
    state: BaseState | None = None
    typed = ((row, current(row[3])) for row in in_force(rows))
    for here, nxt in pairwise(chain(typed, [None])):  # each row with the one after it
        (seq, cmd, time, event), (name, data) = here  # type: ignore[misc]  # None comes last
        after: BaseState = rules.initial_state(GameSetup.from_json(event.data)) \
            if event.type == GAME_STARTED or state is None else rules.apply(state, event)
        follow = nxt[1] if nxt is not None and nxt[0][1] == cmd else None  # the same command's
        if state is not None:
            yield Step(seq, cmd, time, name, data, event.say, event.cite, state, after,
                       follow[0] if follow else "", follow[1] if follow else None)
        state = after


class Reread:
    """A log :func:`story` may read more than once, each time afresh from ``read()`` (a
    store's cursor: one row at a time)."""

    def __init__(self, read: Callable[[], Iterable[Row]]) -> None:
        self.read = read

    def __iter__(self) -> Iterator[Row]:
        return iter(self.read())


def story(rows: Iterable[Row], find: Callable[[str], Rules[Any]]) -> dict[str, Any]:
    """The game's story as the page, the OLED and the history show it (docs/story.md).
    ``rows``: a list, or a :class:`Reread` log (read three times, never held whole);
    ``find``: the rules of an edition by name (the installed editions' registry)."""
    first = next(iter(rows), None)
    if first is None:
        raise ValueError("an empty log has no game")
    edition = current(first[3])[1]
    rules = find(str(getattr(edition, "edition", "")))
    declared = counters(rules)
    tally: dict[tuple[str, str], dict[str, int]] = {}
    swings: dict[str, tuple[int, str]] = {}
    moved: dict[str, int] = {}
    why: dict[str, tuple[int, str]] = {}
    """Per player, the command's biggest payment and the words said for it."""
    last_cmd = -1
    state: BaseState | None = None
    finish: Step | None = None
    first_time = first[2]
    last_time = first_time
    turns = 0

    def close_command() -> None:
        for pid, amount in moved.items():
            if amount and abs(amount) > abs(swings.get(pid, (0, ""))[0]):
                swings[pid] = (amount, why.get(pid, (0, ""))[1])
        moved.clear()
        why.clear()

    for step in steps(rows, rules):
        state = step.after
        last_time = max(last_time, step.time)
        if step.cmd != last_cmd:
            close_command()
            last_cmd = step.cmd
        if step.say:
            for pid, (amount, text) in why.items():
                if not text:  # a payment without words: the line said right after it
                    why[pid] = (amount, step.say)
        if step.name in ("turn_passed", "turn_started"):
            turns += 1
        if step.name == "money_paid":
            d = step.data
            amount = int(getattr(d, "amount", 0))
            for pid, signed in ((str(getattr(d, "source", "")), -amount),
                                (str(getattr(d, "to", "")), amount)):
                moved[pid] = moved.get(pid, 0) + signed
                if amount > why.get(pid, (0, ""))[0]:
                    why[pid] = (amount, step.say)
        if step.name == "finished":
            finish = step
        for c in declared:
            for pid, amount, detail in c.count(step):
                per = tally.setdefault((c.key, pid), {})
                per[detail] = per.get(detail, 0) + amount
    close_command()
    if state is None:
        raise ValueError("the log has no events after the game's start")
    return _told(rules, state, declared, tally, swings, finish, turns, first_time, last_time)


def _told(rules: Any, state: BaseState, declared: list[Counter],
          tally: dict[tuple[str, str], dict[str, int]], swings: dict[str, tuple[int, str]],
          finish: Step | None, turns: int, first_time: float, last_time: float
          ) -> dict[str, Any]:
    cash: Callable[[int], Any] = getattr(state, "cash", int)  # money in each reader's digits
    names = {p.id: p.name for p in state.setup.players}
    rule = ""
    cite = finish.cite if finish is not None else ""
    if not cite and state.finished:  # a log from before citations: the rule that applies
        cite = rules.end_cite(state)
    citation = rules.citation(cite) if cite else None
    if citation is not None:
        rule = citation["text"]
    winners = list(state.winners)
    headline: str
    if not state.finished:
        headline = Msg("The game is still on.")
    elif winners:
        headline = Msgs("{players} wins: {reason}", "{players} win: {reason}", len(winners),
                        players=[names.get(w, w) for w in winners], reason=state.end_reason)
    else:
        headline = Msg("Nobody wins: {reason}", reason=state.end_reason)
    players = []
    for seat in state.setup.players:
        lines = []
        for c in declared:
            per = tally.get((c.key, seat.id), {})
            total = sum(per.values())
            figure = cash(total) if c.money else total
            detail = {k: v for k, v in per.items() if k}
            text = Msg("{figure} ({detail})", figure=figure, detail=[
                Msg("{what} {n}", what=c.details(state, k), n=v) for k, v in sorted(
                    detail.items())]) if detail else Msg("{figure}", figure=figure)
            lines.append({"key": c.key, "label": c.label, "value": total, "text": text,
                          **({"detail": detail} if detail else {})})
        if seat.id in swings:
            amount, said = swings[seat.id]
            args = {"sign": "+" if amount > 0 else "\u2212", "amount": cash(abs(amount))}
            swing = Msg("{sign}{amount}: {why}", why=said, **args) if said else \
                Msg("{sign}{amount}", **args)
            lines.append({"key": "swing", "label": N_("Biggest swing"), "value": amount,
                          "text": swing})
        players.append({"id": seat.id, "name": seat.name, "winner": seat.id in winners,
                        "lines": lines})
    return {"edition": rules.name, "title": rules.title, "finished": state.finished,
            "winners": winners, "winner_names": [names.get(w, w) for w in winners],
            "headline": headline, "reason": state.end_reason, "rule": rule,
            "turns": turns, "started": first_time, "ended": last_time,
            "seconds": max(0.0, last_time - first_time), "players": players}


def screen_lines(told: Mapping[str, Any], rules: Rules[Any], width: int = 21,
                 lang: str = i18n.SOURCE) -> list[str]:
    """The story (of a game of ``rules``' edition) in short lines for the 128x64 OLED (21
    characters a line) in the table's language ``lang``: the winner, then one line per player
    with the figures their edition shows there (``short``), its own before the family's."""
    names = list(told["winner_names"])
    won = Msgs("{players} wins!", "{players} win!", len(names), players=names) if names \
        else Msg("Nobody wins")
    out = [_cut(i18n.render(won, lang), width)]
    shorts = {c.key: i18n.render(Msg(c.short), lang)
              for c in counters(rules) if c.short}
    for p in told["players"]:
        line = p["name"][:7]
        for item in reversed(p["lines"]):
            short = shorts.get(item["key"])
            if short and len(line) + len(short) + len(str(item["value"])) + 1 <= width:
                line += f" {short}{item['value']}"
        out.append(_cut(line, width))
    return out


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "~"
