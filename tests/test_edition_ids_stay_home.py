"""An edition is a plugin: outside its own package no module names an edition id.

Scans companion/, web/ (Python, templates, static files) and hardware/ for the shipped
editions' ids and the toy edition's (``mario``, ``pokemon``, ``starwars``, ``monopolino``,
``master-trainer``, ``lemonade``) in string literals and identifiers. An edition's own
package (``companion/editions/<id>/``, and its modules ``companion/editions/<id>*.py`` until
they move into it) may name it. Docstrings and comments (also in stylesheets, scripts and
templates) are not scanned: they explain a hook or a policy with the edition that uses it
("Mario: Bowser moves"), which no code reads and which a new edition does not have to edit.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IDS = ("mario", "pokemon", "starwars", "monopolino", "master-trainer", "lemonade")
SCANNED = ("companion", "web", "hardware")
SUFFIXES = (".py", ".html", ".js", ".css")



def _pattern(edition: str) -> re.Pattern[str]:
    """The id as a word, as written (``master-trainer``, ``master_trainer``), never inside a
    longer word: "Mario" in a sentence is the plumber, not the id."""
    spelled = re.escape(edition).replace(r"\-", "[-_]")
    return re.compile(rf"(?<![A-Za-z0-9]){spelled}(?![A-Za-z0-9])")


PATTERNS = {e: _pattern(e) for e in IDS}

NOUNS = {"master-trainer": ("pokemon",)}
"""Ids that are also a word of another edition's own: in Master Trainer a ``pokemon`` is a
creature on a chip (``{pokemon}`` in its messages), not the Monopoly edition."""


def _names(word: str, edition: str) -> bool:
    """Whether a token names ``edition``: a string as written, an identifier in any case
    (``MASTER_TRAINER_TOTALS``)."""
    quoted = word[:1] in "\"'" or word[:2].lower() in ("f'", 'f"', "r'", 'r"', "b'", 'b"')
    return bool(PATTERNS[edition].search(word if quoted else word.lower()))


def _home(path: str, edition: str) -> bool:
    """Whether ``path`` is inside ``edition``'s own package (or the toy edition's folder)."""
    pkg = edition.replace("-", "_")
    return path.startswith(f"companion/editions/{pkg}/") or bool(
        re.fullmatch(rf"companion/editions/{pkg}(_\w+)?\.py", path))


def _python_words(text: str) -> Iterator[tuple[int, str]]:
    """Identifiers and string literals (docstrings left out) with their line numbers."""
    prose = {(n.lineno, n.col_offset) for n in ast.walk(ast.parse(text))
             if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
             and isinstance(n.value.value, str)}  # a string alone as a statement: a docstring
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.STRING and tok.start in prose:
            continue
        if tok.type in (tokenize.NAME, tokenize.STRING) or tok.type == getattr(
                tokenize, "FSTRING_MIDDLE", -1):
            yield tok.start[0], tok.string


COMMENTS = re.compile(r"/\*.*?\*/|<!--.*?-->|^\s*//[^\n]*", re.DOTALL | re.MULTILINE)
"""A comment in a stylesheet, a script or a template (``// ...`` only on a line of its own:
``http://`` in a string stays)."""


def _words(path: Path, text: str) -> Iterator[tuple[int, str]]:
    if path.suffix == ".py":
        yield from _python_words(text)
    else:  # a comment becomes as many empty lines, so line numbers stay
        text = COMMENTS.sub(lambda m: "\n" * m.group(0).count("\n"), text)
        yield from enumerate(text.splitlines(), 1)


def named_outside() -> dict[str, list[str]]:
    """``{file: ["line: id"]}`` for every edition id named outside its package."""
    found: dict[str, list[str]] = {}
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.suffix not in SUFFIXES:
                continue
            for line, word in _words(path, path.read_text(encoding="utf-8")):
                for edition in IDS:
                    if not _home(rel, edition) and _names(word, edition) and not any(
                            _home(rel, owner) and edition in nouns
                            for owner, nouns in NOUNS.items()):
                        found.setdefault(rel, []).append(f"{line}: {edition}")
    return found


def test_no_edition_id_outside_its_package() -> None:
    found = named_outside()
    assert not found, f"edition ids named outside their package: {found}"


def test_the_scan_sees_an_id() -> None:
    """The scan finds an id in code and leaves it in a docstring or a comment."""
    code = '"""About mario."""\n# pokemon\nx = "starwars"\nMASTER_TRAINER = 1\n'
    words = [w for _, w in _python_words(code)]
    assert not any(_names(w, "mario") or _names(w, "pokemon") for w in words)
    assert any(_names(w, "starwars") for w in words)
    assert any(_names(w, "master-trainer") for w in words)
    assert not _names("PokemonRules", "pokemon") and not _names('"Mario: Bowser"', "mario")
    css = [w for _, w in _words(Path("x.css"), "/* pokemon\n */\n.mario{}\n")]
    assert css == ["", "", ".mario{}"]
