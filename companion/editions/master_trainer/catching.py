"""Catching a chip: which die results catch it, with or without a Poké Ball."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from companion.editions.master_trainer.data import Ball, Chip
from companion.engine.i18n import Msg


def catching_adjustment(roll: int, chip: Chip, ball: Ball | None) -> int | None:
    """The adjustment (0 = the plain roll) that makes ``roll`` catch ``chip``, or None.
    The player chooses the adjustment after the roll, so any one that works counts."""
    options = [0] if ball is None else ([0] if ball.keep_roll else []) + list(ball.adjust)
    for adjust in options:
        if roll + adjust in chip.catch:
            return adjust
    return None


@lru_cache(maxsize=1024)
def catch_odds(chip: Chip, ball: Ball | None) -> Fraction:
    """The chance that one die catches ``chip`` with ``ball`` (None: no ball); worked out
    once per chip and ball (every catch prompt and its actions ask)."""
    wins = sum(catching_adjustment(face, chip, ball) is not None for face in range(1, 7))
    return Fraction(wins, 6)


@lru_cache(maxsize=64)
def odds_text(odds: Fraction) -> str:
    """``4 in 6 (67%)``: how players say it at the table."""
    sixths = odds * 6
    return Msg("{n} in 6 ({percent}%)", n=int(sixths.numerator),
               percent=round(float(odds) * 100))


@lru_cache(maxsize=4096)
def catch_choices(chip: Chip, balls: tuple[Ball, ...]) -> tuple[tuple[str, str], ...]:
    """(ball, label with the exact odds) for a catch attempt at ``chip`` holding ``balls``:
    no ball first, then each ball held (worked out once per chip and balls held)."""
    out = [("none", Msg("No ball: {odds}", odds=odds_text(catch_odds(chip, None))))]
    for b in balls:
        out.append((b.key.removesuffix("_ball"), Msg("{ball}: {odds}", ball=b.name,
                                                     odds=odds_text(catch_odds(chip, b)))))
    return tuple(out)
