"""First-game help: what a question the game asks means, with the rule it comes from.

An edition declares one :class:`Help` per prompt kind it asks (``Rules.prompt_help``; the
Monopoly family's shared ones in ``companion/monopoly/help.py``); the service resolves the
rule for players (``companion/service/prompt_help.py``).
"""

from __future__ import annotations

from typing import NamedTuple


class Help(NamedTuple):
    text: str
    """What the choice means, for a first game (marked for the catalogue: the page reads it
    in its language)."""
    cite: str
    """The rule it comes from (an id in the edition's citation catalogue)."""
