"""The phone page names no edition: what it draws differently for one is data the edition
declares (``Rules.page``, sent as the view's ``page``), and it recognises log lines by their
event types (the view's ``log_events``), never by their words (issue 40)."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

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
