"""No module decides from a message's English text (issue 41): what a line says is for its
reader; what the code does follows the event's type, the message's id and its arguments.

The check reads the code: Python by its syntax tree (``ast``), the page's JavaScript line by
line. A decision is a test of text a reader sees (a ``say``, a log line, an exception's
text, a rendered message) against English words: ``"wins" in text``,
``line.startswith("Card: ")``, ``/^The banker undoes/.test(row.say)``. A message's id
(``m.msg === "{player} declines the trade."``) is an id, not its English, and may be
compared."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY = [p for d in ("companion", "web", "hardware") for p in sorted((ROOT / d).rglob("*.py"))
      if "emulator" not in p.parts and "fonts" not in p.parts]
JS = [p for p in sorted((ROOT / "web").rglob("*.js")) if "vendor" not in p.parts]

TEXT_NAMES = {"say", "says", "said", "text", "line", "lines", "message", "headline", "render",
              "str", "join", "error", "reason"}
"""Names that hold (or make) text a reader sees."""
ENGLISH = " ".join(re.findall(r'^msgid(?:_plural)? "(.*)"$', "\n".join(
    p.read_text("utf-8") for p in [ROOT / "companion/locales/messages.pot",
                                   *(ROOT / "companion/editions").glob("*/locales/messages.pot")]),
    re.M)).lower()
"""Every message's English (companion's and each edition's templates): what a decision would
look for."""
SYSTEM_TEXT = {("companion/store/database.py", "locked"),
               ("companion/store/database.py", "readonly"),
               ("companion/store/database.py", "unable to open")}
"""SQLite's own error text (Python's sqlite3 exceptions), not a message of ours."""


def _texty(node: ast.AST) -> bool:
    """Whether ``node`` is (or computes) text a reader sees."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in TEXT_NAMES:
            return True
        if isinstance(sub, ast.Attribute) and sub.attr in TEXT_NAMES:
            return True
    return False


def _words(node: ast.AST) -> str | None:
    """A string constant that is some message's English words, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.search(
            r"[A-Za-z]{2}", node.value) and "{" not in node.value and re.search(
            r"(?<!\w)" + re.escape(node.value.lower()) + r"(?!\w)", ENGLISH):
        return node.value
    return None


def python_decisions(source: str) -> Iterator[tuple[int, str]]:
    """(line, the English) of each decision from text in Python ``source``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for op, right in zip(node.ops, node.comparators, strict=True):
                if isinstance(op, ast.In | ast.NotIn):
                    word = _words(node.left)
                    if word is not None and _texty(right):
                        yield node.lineno, word
                elif isinstance(op, ast.Eq | ast.NotEq):
                    for a, b in ((node.left, right), (right, node.left)):
                        word = _words(a)
                        if word is not None and " " in word and _texty(b):
                            yield node.lineno, word
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr in ("startswith", "endswith", "find", "count")):
            if _texty(node.func.value):
                for arg in node.args:
                    word = _words(arg)
                    if word is not None:
                        yield node.lineno, word


_JS_TEXT = r"(?:say|text|Text|englishOf|logText|rowText|words|said|line)\b"
_JS_DECISIONS = [
    # /English/.test(<text>)
    re.compile(r"/((?:[^/\\\n]|\\.)*[A-Za-z]{3}(?:[^/\\\n]|\\.)*)/[gimsuy]*\.test\(([^)]*"
               + _JS_TEXT + r"[^)]*)\)"),
    # <text>.startsWith("English") and its kin
    re.compile(r"((?:\w+\.)*\w*" + _JS_TEXT + r"(?:\([^)]*\))?)\.(?:startsWith|endsWith|includes|"
               r"indexOf|match)\(\s*([\"'`][^\"'`]*[A-Za-z]{3}[^\"'`]*[\"'`])"),
]


_JS_WORDS = re.compile(r"/((?:[^/\\\n]|\\.)*\\b(?:[^/\\\n]|\\.)*)/[gimsuy]*")
"""A regular expression literal that looks for whole words (``\\b``)."""
FIELD_PATHS = {"web/static/profile.js": ("spaces", "colors", "cards")}
"""Regular expressions over a refusal's field path ("settings.board.colors.endor"), an id."""


def js_decisions(source: str, rel: str = "") -> Iterator[tuple[int, str]]:
    """(line, the code) of each decision from text in JavaScript ``source``: a test of a
    line's text against English words, or a regular expression looking for English words."""
    skip = FIELD_PATHS.get(rel, ())
    for n, line in enumerate(source.splitlines(), 1):
        for rx in _JS_DECISIONS:
            for m in rx.finditer(line):
                yield n, m.group(0)
        for m in _JS_WORDS.finditer(line):
            words = [w for w in re.findall(r"[a-z]{4,}", m.group(1).replace("\\b", " "))
                     if re.search(rf"(?<!\w){w}(?!\w)", ENGLISH)]
            if words and not any(w in skip for w in words):
                yield n, m.group(0)


def test_the_checks_see_a_decision_from_english() -> None:
    assert list(python_decisions('if "wins" in text or "winner" in text:\n    pass\n')) == [
        (1, "wins"), (1, "winner")]
    assert list(python_decisions('code = "x" if "there is no profile" in str(exc) else "y"\n'))
    assert list(python_decisions('ok = line.startswith("Card: ")\n'))
    assert not list(python_decisions('ok = m.key == "{player} wins."\nok = kind in ("roll",)\n'))
    assert list(js_decisions('if (/^The banker undoes/.test(row.say)) {'))
    assert list(js_decisions('fresh.some((x) => englishOf(x).startsWith(`${to} declines`))'))
    assert not list(js_decisions('if (S.confirm.startsWith("undo:")) {'))
    assert not list(js_decisions('const undoes = (e) => UNDOES.includes(e.msg);'))
    assert list(js_decisions('return /\\b(pays|loses|draws)\\b/.test(t) && x;'))
    assert not list(js_decisions('if (/^[a-z]{3,20}$/.test(css)) return css;'))


def test_no_python_module_decides_from_english_text() -> None:
    found = []
    for path in PY:
        rel = path.relative_to(ROOT).as_posix()
        for line, word in python_decisions(path.read_text("utf-8")):
            found.append(f"{rel}:{line}: {word!r}")
    assert found == []


def test_no_page_script_decides_from_english_text() -> None:
    found = [f"{p.relative_to(ROOT).as_posix()}:{line}: {code}" for p in JS
             for line, code in js_decisions(p.read_text("utf-8"), p.relative_to(ROOT).as_posix())]
    assert found == []
