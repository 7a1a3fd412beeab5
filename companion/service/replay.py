"""Replay a game move by move: the state after step ``n`` is the fold of the events of its
first ``n`` commands (undone ones left out), rendered by the same view code as the live game.

Step 0 is the game as it began (its opening events); step ``k`` adds the ``k``-th command
still in force. A :class:`Replay` keeps the state every :data:`EVERY` steps once computed,
so stepping forwards or back, or jumping to a turn, folds at most that many commands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.engine.i18n import Msg
from companion.engine.state import BaseState
from companion.engine.story import Row
from companion.engine.types import Event
from companion.plugins.editions import find_edition
from companion.service import game
from companion.service.game_record import RECENT, _cite_text, page_of

EVERY = 32
"""Steps between the states a replay keeps."""


@dataclass(frozen=True)
class StepInfo:
    """One step: the command it replays and what was said."""

    cmd: int
    time: float
    first: int
    """Index of its first event in :attr:`Replay.events`."""
    end: int
    """Index after its last event."""
    version: int
    """The sequence number of its last event (the live game's version after it)."""


@dataclass
class Replay:
    """A game's log in force, cut into steps (see the module docstring)."""

    game_id: str
    events: list[tuple[int, Event]]
    steps: list[StepInfo]
    kept: dict[int, BaseState] = field(default_factory=dict)
    pace: Callable[[], None] = field(default=lambda: None)
    """Called between events folded (companion/service/past.py rests there: bounded CPU)."""

    @classmethod
    def of(cls, game_id: str, rows: Sequence[Row],
           pace: Callable[[], None] = lambda: None) -> Replay:
        when = {seq: (cmd, time) for seq, cmd, time, _ in rows}
        events = game.effective((seq, e) for seq, _, _, e in rows)
        if not events:
            raise ValueError("an empty log has no game")
        steps: list[StepInfo] = []
        start = 0
        for i, (seq, _) in enumerate(events):
            cmd = when[seq][0]
            last = i + 1 == len(events) or when[events[i + 1][0]][0] != cmd
            if last:
                steps.append(StepInfo(cmd, when[seq][1], start, i + 1, seq))
                start = i + 1
        return cls(game_id, events, steps, pace=pace)

    @property
    def last(self) -> int:
        """The last step's number (the game as it stands)."""
        return len(self.steps) - 1

    def state(self, step: int) -> BaseState:
        """The state after ``step`` (0 .. :attr:`last`)."""
        if not 0 <= step <= self.last:
            raise IndexError(f"there is no step {step}: steps go from 0 to {self.last}")
        base = max((k for k in self.kept if k <= step), default=-1)
        state = self.kept.get(base)
        k = base + 1
        while k <= step:
            mark = -(-k // EVERY) * EVERY  # the next step whose state is kept
            stop = mark if mark <= step else step
            begin, end = self.steps[k].first, self.steps[stop].end
            state = game.replay(self._paced(e for _, e in self.events[begin:end]), state)
            if stop == mark:
                self.kept[mark] = state
            k = stop + 1
        assert state is not None
        return state

    def _paced(self, events: Iterable[Event]) -> Iterator[Event]:
        for event in events:
            self.pace()
            yield event

    def said(self, step: int) -> list[tuple[int, Event]]:
        """The events of ``step`` that said something."""
        info = self.steps[step]
        return [(s, e) for s, e in self.events[info.first:info.end] if e.say]

    def turns(self) -> list[dict[str, Any]]:
        """Where each turn begins: ``{step, player, text}`` (the line that started it)."""
        out: list[dict[str, Any]] = []
        for k, info in enumerate(self.steps):
            for _, e in self.events[info.first:info.end]:
                name = e.type.split("@", 1)[0]
                if name in ("turn", "turn_passed", "turn_started"):
                    out.append({"step": k, "text": e.say or Msg("Turn {n}", n=len(out) + 1)})
                    break
        return out

    def view(self, step: int, viewer: str | None, join_code: str = "") -> dict[str, Any]:
        """The view after ``step`` for ``viewer``, as the live page would have shown it
        then (the same view code; the log lines said up to that step), plus ``replay``:
        ``{step, last, cmd, time, said, cites}``."""
        state = self.state(step)
        rules = find_edition(state.edition)
        recent = [(s, e) for s, e in self.events[: self.steps[step].end] if e.say][-RECENT:]
        out = game.view(state, viewer)
        out.update(game_id=self.game_id, version=self.steps[step].version, join_code=join_code,
                   log=[e.say for _, e in recent],
                   log_cites=[_cite_text(rules, e.cite) for _, e in recent],
                   log_events=[e.type for _, e in recent], page=page_of(rules))
        info = self.steps[step]
        said = self.said(step)
        out["replay"] = {"step": step, "last": self.last, "cmd": info.cmd, "time": info.time,
                         "said": [e.say for _, e in said],
                         "cites": [_cite_text(rules, e.cite) for _, e in said]}
        return out
