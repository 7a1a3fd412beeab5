"""Which events an undo takes back: one rule (``game.taken_back``) for a replay, the players'
log and a story read a row at a time."""

from __future__ import annotations

from companion.engine.story import in_force
from companion.engine.types import Event
from companion.service import game


def ev(seq: int, to_seq: int | None = None) -> tuple[int, Event]:
    return (seq, Event("undone", {"to_seq": to_seq}) if to_seq is not None
            else Event("money_paid", {"n": seq}))


# moves 1-5; 6 takes back 4-5; 7, 8; 9 takes back 3-8 (and with it the undo at 6); 10
LOG = [ev(1), ev(2), ev(3), ev(4), ev(5), ev(6, 3), ev(7), ev(8), ev(9, 2), ev(10)]


def test_an_undo_takes_back_what_came_after_its_point_and_a_later_one_takes_it_back_too() -> None:
    assert [s for s, _ in game.effective(LOG)] == [1, 2, 10]
    assert [s for s, _ in game.effective(LOG, keep_markers=True)] == [1, 2, 9, 10]
    assert [s for s, _ in game.effective(LOG[:8], keep_markers=True)] == [1, 2, 3, 6, 7, 8]


def test_the_story_reads_the_same_events_in_force() -> None:
    rows = [(seq, 0, 0.0, e) for seq, e in LOG]
    assert [r[0] for r in in_force(rows)] == [s for s, _ in game.effective(LOG)]
