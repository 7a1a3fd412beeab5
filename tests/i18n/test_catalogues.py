"""The catalogues are complete: every message the code makes (extracted as scripts/messages
does, with babel.cfg) is translated in every language, no catalogue holds a message the code
no longer makes, a translation keeps its placeholders, and the page's plural categories pick
the same form as the catalogue's own Plural-Forms. The catalogue read here is companion's with
every installed edition's beside it (each catalogue file alone: test_edition_catalogues.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel import Locale
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

import companion.plugins.editions  # noqa: F401 - lists every installed edition's catalogue
from companion.engine.i18n import (
    LANGUAGES,
    PLACEHOLDER,
    SOURCE,
    _plural_index,
    catalogue,
    catalogue_folders,
    plural_forms,
)

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"Msg": None, "Msgs": (1, 2),  # as scripts/messages
            "tr": None, "trn": (1, 2), "trNodes": None, "N_": None}
TRANSLATED = [lang for lang in LANGUAGES if lang != SOURCE]


@pytest.fixture(scope="module")
def made() -> dict[str, tuple[str, ...]]:
    """Every message in the code: msgid -> (msgid, plural?)."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    out: dict[str, tuple[str, ...]] = {}
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS):
        ids = (message,) if isinstance(message, str) else tuple(message)
        out[ids[0]] = ids
    return out


def test_the_code_makes_messages(made: dict[str, tuple[str, ...]]) -> None:
    assert "{player} places a booth on {space}." in made
    assert made["{n} coin"] == ("{n} coin", "{n} coins")


def _from_outside(lang: str) -> set[str]:
    """The msgids of an edition installed from outside this tree (a test's toy edition)."""
    out: set[str] = set()
    for folder in catalogue_folders():
        po = folder.joinpath(lang, "LC_MESSAGES", "messages.po")
        if not str(folder).startswith(str(ROOT / "companion")) and po.is_file():
            with po.open("rb") as f:
                out |= {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    return out


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_and_none_is_unused(
        lang: str, made: dict[str, tuple[str, ...]]) -> None:
    cat = catalogue(lang)
    assert cat is not None
    held = {(m.id if isinstance(m.id, str) else m.id[0]): m for m in cat if m.id}
    missing = sorted(set(made) - set(held))
    unused = sorted(set(held) - set(made) - _from_outside(lang))
    untranslated = sorted(k for k, m in held.items() if m.fuzzy or not all(
        [m.string] if isinstance(m.string, str) else m.string))
    assert (missing, unused, untranslated) == ([], [], []), \
        f"{lang}: run ./scripts/messages, then translate (docs/translating.md)"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_translation_keeps_the_placeholders(lang: str) -> None:
    cat = catalogue(lang)
    assert cat is not None
    wrong = []
    for m in cat:
        if not m.id:
            continue
        want = set(PLACEHOLDER.findall(m.id if isinstance(m.id, str) else m.id[0]))
        for text in [m.string] if isinstance(m.string, str) else m.string:
            if set(PLACEHOLDER.findall(text)) != want:
                wrong.append((m.id, text))
    assert wrong == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pages_plural_categories_pick_the_catalogues_form(lang: str) -> None:
    """The page picks a form by Intl.PluralRules' category: each category must stand for one
    form of the catalogue's Plural-Forms, at every count we look at."""
    forms = plural_forms(lang)
    category, index = Locale.parse(lang).plural_form, _plural_index(lang)
    counts = [*range(0, 5000), *range(5000, 3_000_001, 997), 10**6, 10**7, 10**9]
    assert [n for n in counts if forms[category(n)] != index(n)] == []
