"""Rules at hand: the rulebook passages, readings and first-game help of the game being played,
searchable in the reader's language, and the readings in force for a game (docs/history.md,
"Rules at hand"; docs/translating.md, "Rules search").

Read from the edition's data file (its ``[citations]``, the passage behind every rule the
companion applies, and its ``[[readings]]``, the companion's choices where the rulebook is
silent); a reading offered as a setting shows the choice this game was set up with. The
rulebook's words are English quotes: a reader in another language finds them by the edition's
own summaries in that language (``seeds/<edition>.search.toml``), shown above the quote.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from companion.engine import i18n
from companion.engine import readings as data
from companion.engine.i18n import N_, Msg
from companion.plugins.editions import find_edition
from companion.service import prompt_help
from companion.service.game_record import page_of

ENGLISH = i18n.SOURCE
"""The language of the rulebook's quotes (and of a house default's words)."""


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
    """The rulebook passages the companion cites, the readings in force and the first-game
    help, each ``{kind: "rule" | "reading" | "help", id, title, text, title_lang,
    text_lang}``: ``*_lang`` is "en" for the rulebook's English words (shown as they are),
    "" for our words (a catalogue message, shown in the reader's language)."""
    out = []
    for rule, entry in data.citations(edition).items():
        if "quote" in entry:
            out.append({"kind": "rule", "id": rule, "title": entry.get("section", ""),
                        "text": entry["quote"], "title_lang": ENGLISH, "text_lang": ENGLISH})
        elif "house" in entry:
            out.append({"kind": "rule", "id": rule, "title": N_("House default (unverified)"),
                        "text": entry["house"], "title_lang": "", "text_lang": ENGLISH})
    for r in in_force(edition, settings):
        out.append({"kind": "reading", "id": r["id"], "title": r["topic"],
                    "text": r["chosen"] or N_("The companion's reading (docs/readings)."),
                    "title_lang": "", "text_lang": ""})
    for kind, help_ in prompt_help.explanations(edition).items():
        out.append({"kind": "help", "id": kind, "title": N_("What this means"),
                    "text": str(help_["text"]), "title_lang": "", "text_lang": ""})
    return out


def search_example(edition: str) -> str:
    """What the edition suggests searching for, in its own words (its page's
    ``search_example``, a message id of its catalogue; "" when it names none)."""
    return str(page_of(find_edition(edition)).get("search_example", ""))


def _words(text: str, lang: str) -> str:
    """Our words (a catalogue message) in ``lang``."""
    return i18n.render(Msg(text), lang) if text else ""


def search(edition: str, settings: Mapping[str, Any], query: str, lang: str = ENGLISH,
           limit: int = 30) -> list[dict[str, str]]:
    """Passages holding every word of ``query`` (any case, any accents) in English or in
    ``lang``, those whose title holds them first; every passage when the query is blank.
    Each has ``summary``: what a cited passage says in ``lang`` ("" in English)."""
    words = _plain(query).split()
    said = data.summaries(edition, lang) if lang != ENGLISH else {}
    found: list[tuple[int, int, dict[str, str]]] = []
    for p in passages(edition, settings):
        summary = said.get(p["id"], "") if p["kind"] == "rule" else ""
        title = _plain(p["title"] + " " + (_words(p["title"], lang) if not p["title_lang"] else ""))
        body = _plain(" ".join((p["text"], summary,
                                _words(p["text"], lang) if not p["text_lang"] else "")))
        if all(w in title or w in body for w in words):
            found.append((-sum(w in title for w in words), len(found), {**p, "summary": summary}))
    return [p for _, _, p in sorted(found)[:limit]]
