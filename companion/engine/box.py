"""What a box profile (companion/boxes/profiles.py) holds for an edition, declared by the
edition's rules (``box``): the card objects a tag may stand for, the check of its settings,
the facts still taken from the shipped defaults, how one is confirmed, and what the profile
editor shows. The Monopoly family's is companion/boxes/monopoly_box.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class BoxProfile:
    """An edition whose box has nothing to correct: its tag objects, no facts to confirm."""

    def card_objects(self, rules: Any, settings: Mapping[str, Any]) -> set[str]:
        """The objects a card tag of this box may stand for (``card:<id>``)."""
        return {o for o, _ in getattr(rules, "tag_objects", list)()}

    def check(self, rules: Any, settings: Mapping[str, Any]) -> None:
        """Refuse settings the box cannot have (a SetupError naming ``settings.<field>``);
        the trial game that follows checks the rest."""

    def unverified(self, rules: Any, settings: Mapping[str, Any]) -> list[str]:
        """Facts the settings still take from the shipped defaults."""
        return []

    def confirm(self, rules: Any, settings: dict[str, Any], fact: str) -> None:
        """Mark ``fact`` (one of :meth:`unverified`) as printed on the owner's box."""

    def editor(self, rules: Any, profile: Mapping[str, Any], facts: list[str]
               ) -> dict[str, Any]:
        """What the profile editor shows beside the profile (``board``, ``card_tags``...), in the
        edition's words: ``tag_decks`` [{deck, title}] names the decks of ``card_tags``,
        ``settings_hint`` what the other settings hold (message ids)."""
        return {}
