"""The box's own words in each language: an edition's space names, deck titles, card texts,
colours, tokens and types, read from its data file (English) and the per-language files beside
it (``seeds/<edition>.<lang>.toml``), with the owner's corrections over them
(docs/translating.md, "The box's words"). Pure: raw dicts in, :class:`Word` out.

A words file holds each word by the id the data file gives it::

    verified = ["spaces.start.name"]   # printed in the rulebook; the rest are translations
    [spaces]                           # marked unverified until the owner confirms them
    start = "VIA"
    [decks]  risk = "RISCHIO"          [cards]  risk-01 = "Paga €0,50 e ..."
    [colors] purple = "Viola"          [tokens] "Red token" = "Segnalino rosso"
    [types]  fire = "Fuoco"            (Pokémon's types: ``types.<id>.name``)
    [edition] unverified = ["ordine delle caselle", ...]  # the data file's notes on its
                                       # unverified facts, in its order (``edition.unverified.1``)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.engine.i18n import LANGUAGES, SOURCE, Word

FIELDS = {"spaces": "name", "decks": "title", "cards": "text", "types": "name"}
"""The field each table's word is (a colour's or a token's word is the table entry itself)."""
TABLES = (*FIELDS, "colors", "tokens")
"""The tables a words file may have."""


def key(table: str, item: str) -> str:
    """The word's name, as a box profile's facts name it: ``spaces.start.name``,
    ``colors.purple``."""
    return f"{table}.{item}.{FIELDS[table]}" if table in FIELDS else f"{table}.{item}"


def note_key(n: int) -> str:
    """The name of the data file's ``n``-th note on its unverified facts (from 1):
    ``edition.unverified.1``."""
    return f"edition.unverified.{n}"


def notes(raw: Mapping[str, Any]) -> list[str]:
    """A data or words file's notes on its unverified facts (``[edition] unverified``)."""
    return [str(n) for n in dict(raw.get("edition", {})).get("unverified", ())]


def translations(files: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, str]]:
    """``{lang: words file}`` -> ``{word key: {lang: text}}``."""
    out: dict[str, dict[str, str]] = {}
    for lang, raw in files.items():
        for table in TABLES:
            for item, text in dict(raw.get(table, {})).items():
                out.setdefault(key(table, str(item)), {})[lang] = str(text)
        for n, text in enumerate(notes(raw), 1):
            out.setdefault(note_key(n), {})[lang] = text
    return out


def verified(files: Mapping[str, Mapping[str, Any]]) -> set[str]:
    """The translations the rulebook prints (``<key>.<lang>``); the others are ours."""
    return {f"{k}.{lang}" for lang, raw in files.items() for k in raw.get("verified", ())}


def word(name: str, english: str, known: Mapping[str, Mapping[str, str]],
         correction: object = None) -> Word:
    """The box's word ``name`` (English ``english``) in every language ``known`` gives, with
    the owner's ``correction`` over it: a text typed as printed (the same for every reader), or
    ``{lang: text}`` (that language's word only)."""
    if isinstance(correction, str):
        return Word.same(name, correction)
    words = {SOURCE: english, **known.get(name, {})}
    if isinstance(correction, Mapping):
        words.update({str(k): str(v) for k, v in correction.items()})
    return Word(name, words)


def check_correction(value: object, most: int) -> str | dict[str, str] | None:
    """A corrected word (a name, a card's text), stripped, or None if it is not one: a text of
    1 to ``most`` characters, or ``{lang: text}`` for languages the companion has."""
    def ok(text: object) -> bool:
        return isinstance(text, str) and 0 < len(text.strip()) <= most

    if isinstance(value, str):
        return value.strip() if ok(value) else None
    if isinstance(value, Mapping) and value and all(
            k in LANGUAGES and ok(v) for k, v in value.items()):
        return {str(k): str(v).strip() for k, v in value.items()}
    return None


def language_facts(facts: Iterable[str], lang: str, known: Mapping[str, Mapping[str, str]],
                   checked: set[str]) -> list[str]:
    """A box in language ``lang`` (not English): its name and text facts are its own words,
    ``spaces.<id>.name.<lang>``, unless the rulebook prints them."""
    out = []
    for fact in facts:
        if fact.endswith((".name", ".text", ".title")) and lang in known.get(fact, {}):
            fact = f"{fact}.{lang}"
            if fact in checked:
                continue
        out.append(fact)
    return out
