"""The phone page names no edition: what it draws differently for one is data the edition
declares (``Rules.page``, sent as the view's ``page``), and it recognises log lines by their
event types (the view's ``log_events``), never by their words (issue 40)."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path
from typing import Any

from companion.engine.prompts import PromptKind
from companion.monopoly.rules import MonopolyRules
from companion.plugins.editions import available, find_edition

INPUT_KINDS = {"dice", "amount", "choice", "trade", "transfer"}
"""What an action asks before it is sent (companion/engine/types.py ``Action.input``)."""
ROOT = Path(__file__).resolve().parents[2]
PAGE_FILES = sorted([*(ROOT / "web" / "static").glob("*.js"),
                     *(ROOT / "web" / "templates").rglob("*.html")])
EDITION_IDS = re.compile(r"mario|pokemon|star[-_ ]?wars|monopolino|master[-_ ]?trainer|lemonade",
                         re.IGNORECASE)


def _edition_only_names() -> set[str]:
    """Commands and prompt kinds an edition declares that the Monopoly family does not."""
    shared = {n[4:] for n in dir(MonopolyRules) if n.startswith("cmd_")}
    shared |= _prompt_kinds("companion.monopoly") | _prompt_kinds("companion.engine")
    shared |= INPUT_KINDS
    own: set[str] = set()
    for name in available():
        own |= {n[4:] for n in dir(type(find_edition(name))) if n.startswith("cmd_")}
    own |= _prompt_kinds("companion.editions")
    return own - shared


def _prompt_kinds(package: str) -> set[str]:
    pkg = importlib.import_module(package)
    out: set[str] = set()
    for info in pkgutil.walk_packages(pkg.__path__, f"{package}."):
        module = importlib.import_module(info.name)
        out |= {v.kind for v in vars(module).values() if isinstance(v, PromptKind)}
    return out


def test_the_page_names_no_edition() -> None:
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in PAGE_FILES
             for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
             if EDITION_IDS.search(line)]
    assert found == []


def test_the_page_compares_no_edition_only_command_or_prompt() -> None:
    names = _edition_only_names()
    assert {"ask_rent", "reroll", "catch"} <= names  # the list is the editions' own
    used = re.compile(r"""(?:type|kind|edition)\s*[!=]==?\s*["'`](\w+)["'`]"""
                      r"""|["'`](\w+)["'`]\s*[!=]==?\s*[\w.]*(?:type|kind)\b"""
                      r"""|post\(\s*["'`](\w+)["'`]""")
    found = [f"{path.relative_to(ROOT)}:{n}: {m.group(0)}" for path in PAGE_FILES
             for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
             for m in used.finditer(line) if set(m.groups()) & names]
    assert found == []


def test_the_page_reads_no_log_line_by_its_words() -> None:
    """No line's message is compared with a message id ("… declines the trade.", the
    banker's undo): the page decides from ``log_events``."""
    said = re.compile(r"""(?<!typeof )\b[\w.]+\.msg\s*[!=]==?\s*["'`]"""
                      r"""|["'`]\s*[!=]==?\s*[\w.]*\.msg\b|includes\([\w.]*\.msg\)""")
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in PAGE_FILES
             for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
             if said.search(line)]
    assert found == []


SHARED_VIEWS = ("companion.engine.types", "companion.service.game_record",
                "companion.monopoly.view")
"""Where the view's shared shape is declared (TypedDicts any edition may fill)."""


def _declared() -> set[str]:
    """Every key the shared view declares (PhoneView, PlayerView, Score, the board's marks...)."""
    out: set[str] = set()
    for name in SHARED_VIEWS:
        for value in vars(importlib.import_module(name)).values():
            if isinstance(value, type) and issubclass(value, dict) and hasattr(
                    value, "__required_keys__"):
                out |= set(value.__annotations__)
    return out


def _keys(view: dict[str, Any]) -> set[str]:
    """The names a view gives its parts: its own keys, ``extra``'s, a player's, the board's and
    a space's (what the page reads by name; deeper keys are the parts' own data)."""
    board = view.get("board") or {}
    parts = [view, view.get("extra") or {}, *view["players"], board, *board.get("spaces", ())]
    return {str(k) for part in parts for k in part}


def _edition_only_fields() -> dict[str, str]:
    """Key -> the one edition whose views send it (every seat's view of each example game's
    end), less the keys the shared view declares."""
    import json

    from companion.service import game, script

    by_edition: dict[str, set[str]] = {}
    for path in sorted((ROOT / "examples").glob("*.json")):
        data = json.loads(path.read_text("utf-8"))
        state = script.run_script(data).state
        keys = by_edition.setdefault(data["edition"], set())
        for seat in [None, *(p.id for p in state.setup.players)]:
            keys |= _keys(json.loads(json.dumps(game.view(state, seat), default=str)))
    out = {}
    for edition, keys in by_edition.items():
        others = set().union(*(k for e, k in by_edition.items() if e != edition))
        out |= {k: edition for k in keys - others}
    return {k: e for k, e in out.items() if k not in _declared()}


NOT_THE_VIEWS = {
    "order",  # S.seat.order: the seats' order the page keeps, not Master Trainer's extra.order
    "items",  # g.items: a group of log lines
    "decks",  # profile.js: a box profile's board decks, not Master Trainer's extra.decks
}
"""Names the generic code reads that are not (only) an edition's view field."""


def test_the_page_reads_no_field_only_one_edition_sends() -> None:
    """Bowser, GAME OVER, the lottery, Power Points reach the board, the player cards and the
    edition's own sections as the shared view's data (flags, pieces, notes, a named pot, a
    score, panels), never as one edition's fields read by name."""
    only = _edition_only_fields()
    assert {"bowser", "power_points", "teams"} <= set(only)  # the editions' own, found
    code = "".join(path.read_text("utf-8") for path in PAGE_FILES if path.suffix == ".js")
    read = set(re.findall(r"\??\.(\w+)\b(?!\s*\()", code))  # a property, not a method
    read |= set(re.findall(r"""\[["'](\w+)["']\]""", code))
    assert {f"{k} ({only[k]})" for k in read & set(only) - NOT_THE_VIEWS} == set()



def test_the_page_names_no_editions_currency() -> None:
    """Money counted in things is named by the words of the view's currency (its names, which
    the catalogue has from the edition's data), never by a table of the editions' units."""
    from companion.monopoly.board import load_board

    units = {w for name in available() if find_edition(name).family == "monopoly"
             for c in [load_board(name).currency] if not c.symbol for w in (c.one, c.many)}
    assert {"coin", "Poké Balls"} <= units
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in PAGE_FILES
             for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
             for u in units if f'"{u}"' in line]
    assert found == []


EDITION_WORDS = [re.compile(p, re.IGNORECASE) for p in (
    r"pok[eé]mon", r"pok[eé] ?balls?", r"\bbooths?\b", r"\blotter(?:y|ies)\b", r"power points",
    r"\bplateau\b", r"\brivals?\b", r"\bchips?\b", r"\bbowser\b", r"attack bonus",
    r"\bballs?\b", r"\btrainers?\b", r"\bmarkers?\b", r"tracker mats?", r"\btrays?\b",
    r"\bdungeons?\b", r"knocked out", r"hyperspace", r"item cards?", r"event cards?")] + [
    re.compile(p) for p in (r"\bForce\b", r"\bRISK\b", r"GAME OVER")]  # "in force", "Game over"
"""One edition's vocabulary: words only a box of that edition prints (its pieces, spaces, decks),
matched case-sensitively where the same letters are everyone's ("readings in force")."""
PAGE_KEYWORDS = {"tr": None, "trn": (1, 2), "trNodes": None}
"""The page's own message functions (web/static/i18n.js; scripts/catalogues.py KEYWORDS)."""


def _page_messages() -> list[tuple[str, int, str]]:
    """Every message the page's scripts and templates say: (file, line, text), extracted as
    scripts/messages does (babel.cfg: javascript for web/static, jinja2 for the templates)."""
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file

    out = []
    for path in PAGE_FILES:
        method = "javascript" if path.suffix == ".js" else "jinja2"
        for line, message, _, _ in extract_from_file(
                method, str(path), keywords={**DEFAULT_KEYWORDS, **PAGE_KEYWORDS}):
            for text in message if isinstance(message, tuple) else (message,):
                out.append((str(path.relative_to(ROOT)), line, str(text)))
    return out


def test_the_pages_own_words_are_no_editions() -> None:
    """The page's own words (companion's catalogue) belong to every game: a Poké Ball, an
    Attack Bonus card, Bowser or an Item Card is said by the edition that has one (its
    catalogue's message ids, sent as data the page renders with I18n.t)."""
    said = _page_messages()
    assert any(text == "Search the rules" for _, _, text in said)  # the extraction reads them,
    assert any(text == "Back to the game" for _, _, text in said)  # in scripts and templates
    found = [f"{path}:{line}: {m.group(0)!r} in {text!r}" for path, line, text in said
             for word in EDITION_WORDS for m in [word.search(text)] if m]
    assert not found, "one edition's words in the page's own messages:\n" + "\n".join(found)
