"""What a Monopoly edition's rulebook prints about its board, declared by its rules
(``board_totals``); companion/monopoly/board_edit.py checks a corrected board against it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Totals:
    """What an edition's rulebook prints about its board (None: not printed), declared by its
    rules (``board_totals``, from the rulebook; seeds/<edition>.toml's header)."""

    spaces: int | None = None
    locations: int | None = None
    group_size: tuple[int, int] = (2, 4)
    group_exact: Mapping[str, int] = field(default_factory=dict)
    kind_counts: Mapping[str, int] = field(default_factory=dict)
    fixed: tuple[str, ...] = ()
    """Space ids the rulebook places (never removed or moved)."""
