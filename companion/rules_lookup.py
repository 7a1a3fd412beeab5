"""Rules at hand: the rulebook passages and readings of the game being played, searchable,
and the readings in force for a game (docs/history.md, "Rules at hand").

Read from the edition's data file (its ``[citations]``, the passage behind every rule the
companion applies, and its ``[[readings]]``, the companion's choices where the rulebook is
silent); a reading offered as a setting shows the choice this game was set up with.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from companion.editions import readings as data
from companion.i18n import N_


def _plain(text: str) -> str:
    """Case and accents left out, so "pokemon" finds "Pokémon" and "ZOE" finds "Zoë"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def in_force(edition: str, settings: Mapping[str, Any]) -> list[dict[str, str]]:
    """Every reading the game plays by: ``{id, topic, chosen}`` (``chosen``: the option
    this game was set up with, for a reading offered as a setting; "" for a fixed one)."""
    out = []
    for r in data.readings(edition):
        chosen = ""
        if "setting" in r:
            value = settings.get(r["setting"], r["default"])
            chosen = next((o["label"] for o in r["options"] if o["value"] == value), str(value))
        out.append({"id": str(r["id"]), "topic": str(r["topic"]), "chosen": chosen})
    return out


def passages(edition: str, settings: Mapping[str, Any]) -> list[dict[str, str]]:
    """The rulebook passages the companion cites and the readings in force, each
    ``{kind: "rule" | "reading", id, title, text}``."""
    out = []
    for rule, entry in data.citations(edition).items():
        if "quote" in entry:
            out.append({"kind": "rule", "id": rule, "title": entry.get("section", ""),
                        "text": entry["quote"]})
        elif "house" in entry:
            out.append({"kind": "rule", "id": rule, "title": N_("House default (unverified)"),
                        "text": entry["house"]})
    for r in in_force(edition, settings):
        out.append({"kind": "reading", "id": r["id"], "title": r["topic"],
                    "text": r["chosen"] or N_("The companion's reading (docs/readings).")})
    return out


def search(edition: str, settings: Mapping[str, Any], query: str,
           limit: int = 30) -> list[dict[str, str]]:
    """Passages holding every word of ``query`` (any case, any accents), those whose title
    holds them first; every passage when the query is blank."""
    words = _plain(query).split()
    found: list[tuple[int, int, dict[str, str]]] = []
    for p in passages(edition, settings):
        title, body = _plain(p["title"]), _plain(p["text"])
        if all(w in title or w in body for w in words):
            found.append((-sum(w in title for w in words), len(found), p))
    return [p for _, _, p in sorted(found)[:limit]]
