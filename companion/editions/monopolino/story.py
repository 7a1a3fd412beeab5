"""Monopolino's story: the family's lines (no auctions, trades or Jail: left out with the
features the edition leaves out, see companion/engine/story.py)."""

from __future__ import annotations

from companion.monopoly.story import STORY_COUNTERS

__all__ = ["STORY_COUNTERS"]
