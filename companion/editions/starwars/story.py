"""Star Wars' story: the family's lines (see companion/engine/story.py)."""

from __future__ import annotations

from companion.monopoly.story import STORY_COUNTERS

__all__ = ["STORY_COUNTERS"]
