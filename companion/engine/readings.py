"""Readings, settings and citations kept in each edition's data file.

A *reading* is the companion's choice where a rulebook is silent or two of its passages
disagree (``[[readings]]``); each is explained in ``docs/readings/<edition>.md``. A reading with
two plausible answers is a *setting* the banker picks at setup: ``setting``, ``default`` and
``options`` (each a value and a label in words). *Citations* (``[citations.<rule id>]``) give
the rulebook section and a short exact quote for each automatic action.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from companion.engine.money import Currency
from companion.engine.types import SetupError

DATA: dict[str, Traversable] = {}
"""Each loaded edition's data folder as its rules declare it (``data_folder``, a
folder of its own package read with importlib.resources), holding ``<edition>.toml`` and the
files beside it. A board asked for by name before its edition loads is read from ``seeds/``."""


def data_file(edition: str, suffix: str = ".toml") -> Traversable:
    """The edition's data file (or with ``suffix`` a file beside it, ``.it.toml``)."""
    return DATA.get(edition, resources.files("seeds")).joinpath(f"{edition}{suffix}")


def shown(edition: str) -> str:
    """The data file's name in messages: ``seeds/mario.toml`` for a shipped edition."""
    path = data_file(edition)
    seeds = resources.files("seeds").joinpath(path.name)
    return f"seeds/{path.name}" if str(path) == str(seeds) else str(path)


@cache
def _tables(edition: str, suffix: str = ".toml") -> Mapping[str, Any]:
    """The edition's data file, or (``suffix=".search.toml"``) the file beside it, in the
    data folder its rules declare (an edition installed from outside brings its own); an
    edition whose data is a folder of files (``seeds/<edition>/``) has ``rules.toml``."""
    folder = resources.files("seeds").joinpath(edition)
    path = folder.joinpath("rules" + suffix) if folder.is_dir() else data_file(edition, suffix)
    if suffix != ".toml" and not path.is_file():
        return {}  # an edition with no search words yet
    return tomllib.loads(path.read_text("utf-8"))


def readings(edition: str) -> list[dict[str, Any]]:
    """Every reading the edition takes, in the data file's order."""
    return [dict(r) for r in _tables(edition).get("readings", ())]


def extract_texts(fileobj: Any, keywords: Any, comment_tags: Any, options: Any
                  ) -> Iterator[tuple[int, str, str | tuple[str, str], list[str]]]:
    """Babel's extraction method for a data file (babel.cfg ``[readings: seeds/**.toml]``):
    each reading's words (topic, setting label, choices) go into the catalogue; the page reads
    them in its language (``I18n.t``); money counted in things (no symbol) gives its name
    and an amount of it (``Currency.counted``)."""
    data = tomllib.loads(fileobj.read().decode("utf-8"))
    money = data.get("money", {})
    if money.get("one") and money.get("many") and not money.get("symbol"):
        yield 0, "Msgs", Currency(str(money["one"]), str(money["many"])).counted(), []
        yield 0, "N_", str(money["many"]), []
    for r in data.get("readings", ()):
        choices = [o.get("label") for o in r.get("options", ())]
        for text in (r.get("topic"), r.get("label"), r.get("winner"), *choices):
            if text:
                yield 0, "N_", str(text), []


def citations(edition: str) -> dict[str, dict[str, str]]:
    """Rule id -> ``{section, quote}`` (or ``{reading}`` for the companion's own choice)."""
    return {k: dict(v) for k, v in _tables(edition).get("citations", {}).items()}


def summaries(edition: str, lang: str) -> dict[str, str]:
    """What each cited passage says in language ``lang``, by rule id: the edition's own words
    for the rules search, in the file beside its data (``seeds/<edition>.search.toml``, one
    table per language; none for English, whose words are the rulebook's)."""
    return {k: str(v) for k, v in _tables(edition, ".search.toml").get(lang, {}).items()}


def settings_info(edition: str) -> tuple[dict[str, Any], ...]:
    """The readings offered as settings, as setup-form entries (type ``choice``)."""
    return tuple(
        {"name": r["setting"], "label": r["label"], "type": "choice", "default": r["default"],
         "choices": [{"value": o["value"], "label": o["label"]} for o in r["options"]]}
        for r in readings(edition) if "setting" in r)


@cache
def _settings(edition: str) -> tuple[dict[str, Any], ...]:
    """``settings_info``, read once per edition (rules read settings on every move)."""
    return settings_info(edition)


@cache
def setting_names(edition: str) -> tuple[str, ...]:
    return tuple(info["name"] for info in _settings(edition))


@cache
def _setting(edition: str, name: str) -> tuple[dict[str, Any], tuple[object, ...]]:
    """Setting ``name``'s entry and its values, found once per edition (read on every move)."""
    for info in _settings(edition):
        if info["name"] == name:
            return info, tuple(c["value"] for c in info["choices"])
    raise KeyError(name)


def chosen(edition: str, settings: Mapping[str, object], name: str) -> str:
    """The value of setting ``name`` in ``settings`` (its default when not given); a value
    that is not one of its options is refused with the options in words."""
    info, values = _setting(edition, name)
    value = settings.get(name, info["default"])
    if value not in values:
        words = "; ".join(f"'{c['value']}' ({c['label']})" for c in info["choices"])
        raise SetupError(f"Setting '{name}' ({info['label']}) is one of: {words}.")
    return str(value)


def early_end_words(edition: str, settings: Mapping[str, object]) -> str:
    """How the winner is picked when the banker ends the game early, as the words ending
    "the winner is …": the chosen option of the ``early-end`` reading's setting, or the
    reading's ``winner`` ("" for an edition without that reading)."""
    for r in readings(edition):
        if r["id"] == "early-end":
            if "setting" in r:
                value = chosen(edition, settings, r["setting"])
                return str(next(o["label"] for o in r["options"] if o["value"] == value))
            return str(r.get("winner", ""))
    return ""


def check(edition: str, settings: Mapping[str, object]) -> None:
    """Refuse a game whose reading settings have a value that is not an option."""
    for name in setting_names(edition):
        chosen(edition, settings, name)


def catalogue_problems(edition: str, doc: str, rulebook: str | None = None) -> list[str]:
    """What is wrong with an edition's readings and citations: every reading needs a section
    in its document (``doc``), every setting a default among its options and a word in the
    document, every citation a quote or a reading; given the ``rulebook`` text, every quote
    (in the data and the document) must be in it word for word, and every section heading."""
    problems = []
    ids = {r["id"] for r in readings(edition)}
    for r in readings(edition):
        if f"## {r['id']}:" not in doc:
            problems.append(f"reading {r['id']} has no section in the document")
        if r["id"] == "early-end" and "setting" not in r and not r.get("winner"):
            problems.append("reading early-end names neither a setting nor its winner")
        if "setting" in r:
            if r["default"] not in [o["value"] for o in r["options"]]:
                problems.append(f"setting {r['setting']}: default is not an option")
            if f"Setting `{r['setting']}`" not in doc:
                problems.append(f"setting {r['setting']} is not named in the document")
    for rule, c in citations(edition).items():
        if not ("quote" in c or "reading" in c or "house" in c):
            problems.append(f"citation {rule} has no quote, reading or house rule")
        if "reading" in c and c["reading"] not in ids:
            problems.append(f"citation {rule} names an unknown reading {c['reading']}")
        if "quote" in c and "section" not in c:
            problems.append(f"citation {rule} has a quote without a section")
    if rulebook is None:
        return problems
    text = " ".join(rulebook.split())
    lines = {" ".join(line.split()).removesuffix("[]") for line in rulebook.splitlines()}
    quotes = [(f"citation {k}", c["quote"]) for k, c in citations(edition).items() if "quote" in c]
    quotes += [(f"citation {k} section", c["section"]) for k, c in citations(edition).items()
               if "section" in c]
    for line in doc.splitlines():
        if line.startswith("> ") and ': "' in line:
            quotes.append((f"document {line[2:40]}", line.split(': "', 1)[1].rstrip('"')))
            quotes.append((f"document {line[2:40]} section", line[2:].split(': "', 1)[0]))
    for where, quote in quotes:
        if where.endswith("section"):
            if " ".join(quote.split()) not in lines:
                problems.append(f"{where}: no such heading in the rulebook: {quote!r}")
        elif " ".join(quote.split()) not in text:
            problems.append(f"{where}: not in the rulebook word for word: {quote!r}")
    return problems
