"""Each shipped edition owns its words (issue 40): the messages its package (and its data in
seeds/) makes are in its own catalogue (``companion/editions/<x>/locales``), translated, and
every reader finds them before the edition's rules were loaded."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from catalogues import CENTRAL, KEYWORDS, data_owners, extract, folders, po_path

from companion.engine.i18n import LANGUAGES, PLACEHOLDER, SOURCE, message_id

ROOT = Path(__file__).resolve().parents[2]
EDITIONS = sorted(p.parent.name for p in (ROOT / "companion/editions").glob("*/__init__.py"))
TRANSLATED = [lang for lang in LANGUAGES if lang != SOURCE]


def _key(message_id: str | tuple[str, ...] | list[str]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


@pytest.fixture(scope="module")
def by_edition() -> dict[str, set[str]]:
    """The msgids each edition's own files make: its package, and its data files in seeds/."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    data = {prefix: package.name for prefix, package in data_owners(ROOT).items()}
    out: dict[str, set[str]] = {name: set() for name in EDITIONS}
    for filename, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS):
        parts = Path(filename).parts
        edition = parts[2] if parts[:2] == ("companion", "editions") and len(parts) > 3 else \
            next((e for prefix, e in data.items()
                  if filename.startswith((prefix + ".", prefix + "/"))), None)
        if edition is not None:
            out[edition].add(_key(message))
    return out


def _po(path: Path) -> Catalog:
    return read_po(io.BytesIO(path.read_bytes()))


def _untranslated(cat: Catalog) -> dict[str, bool]:
    """msgid -> whether it reads in the catalogue's language."""
    return {_key(m.id): not m.fuzzy and all(
        [m.string] if isinstance(m.string, str) else m.string) for m in cat if m.id}


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_shipped_edition_message_is_only_in_the_central_catalogue(
        edition: str, by_edition: dict[str, set[str]]) -> None:
    """Each msgid extracted from companion/editions/<x>/ (and x's data) is in x's own
    catalogue, translated in every language."""
    folder = ROOT / "companion/editions" / edition / "locales"
    assert by_edition[edition], edition
    assert (folder / "messages.pot").is_file(), f"{edition} has no catalogue of its own"
    held = {_key(m.id) for m in _po(folder / "messages.pot") if m.id}
    assert sorted(by_edition[edition] - held) == []
    for lang in TRANSLATED:
        words = _untranslated(_po(po_path(folder, lang)))
        assert sorted(k for k in by_edition[edition] if not words.get(k)) == [], lang


def _catalogues() -> Iterator[tuple[Path, str]]:
    for folder in folders(ROOT):
        for lang in TRANSLATED:
            yield folder, lang


@pytest.fixture(scope="module")
def made() -> dict[Path, Catalog]:
    return extract(ROOT)


@pytest.mark.parametrize(("folder", "lang"), list(_catalogues()), ids=str)
def test_each_catalogue_holds_what_its_owner_says_translated(
        folder: Path, lang: str, made: dict[Path, Catalog]) -> None:
    """No msgid missing, none unused, none untranslated, in any catalogue (run
    ./scripts/messages, then translate: docs/translating.md)."""
    want = {_key(m.id) for m in made[folder] if m.id}
    words = _untranslated(_po(ROOT / po_path(folder, lang)))
    assert (sorted(want - set(words)), sorted(set(words) - want),
            sorted(k for k, ok in words.items() if not ok)) == ([], [], [])
    assert {_key(m.id) for m in _po(ROOT / folder / "messages.pot") if m.id} == want


@pytest.mark.parametrize(("folder", "lang"), list(_catalogues()), ids=str)
def test_a_translation_keeps_the_placeholders_in_every_catalogue(folder: Path, lang: str) -> None:
    wrong = []
    for m in _po(ROOT / po_path(folder, lang)):
        want = set(PLACEHOLDER.findall(_key(m.id))) if m.id else set()
        for text in [m.string] if isinstance(m.string, str) else m.string:
            if m.id and set(PLACEHOLDER.findall(text)) != want:
                wrong.append((m.id, text))
    assert wrong == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_msgid_in_two_catalogues_translates_the_same_in_both(lang: str) -> None:
    seen: dict[str, tuple[Path, object]] = {}
    differ = []
    for folder in folders(ROOT):
        for m in _po(ROOT / po_path(folder, lang)):
            if not m.id:
                continue
            first = seen.setdefault(_key(m.id), (folder, m.string))
            if first[1] != m.string:
                differ.append((_key(m.id), str(first[0]), str(folder)))
    assert differ == []


FRESH = """
import json, sys
import companion.plugins.editions  # what the service and the page import, before any game
from companion.engine import i18n
said = i18n.data_from_stored(sys.argv[1])["text"]
print(json.dumps({"it": i18n.render(said, "it"),
                  "page": i18n.page_catalogue("es")["messages"].get(sys.argv[2]),
                  "loaded": "companion.editions.master_trainer" in sys.modules}))
"""


def test_a_fresh_process_reads_a_master_trainer_prompt_in_italian_before_loading_it() -> None:
    """A log replayed (or the page's catalogue fetched) before Master Trainer's rules were
    loaded in the process: its stored message id still names its words, in Italian."""
    key = "{player}: accept the challenge."
    stored = json.dumps({"text": {"id": message_id(key), "args": {"player": "Ash"}}})
    out = subprocess.run([sys.executable, "-c", FRESH, stored, key], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    assert json.loads(out) == {"it": "Ash: accetta la sfida.",
                               "page": "{player}: acepta el desafío.", "loaded": False}


def test_the_central_catalogue_keeps_only_what_companion_says(
        by_edition: dict[str, set[str]], made: dict[Path, Catalog]) -> None:
    """A msgid only an edition says is not in companion/locales."""
    central = {_key(m.id) for m in _po(ROOT / CENTRAL / "messages.pot") if m.id}
    only_editions = set().union(*by_edition.values()) - {_key(m.id) for m in made[CENTRAL]}
    assert sorted(central & only_editions) == []


def test_the_folder_found_before_loading_is_the_one_the_rules_declare() -> None:
    """The plugin floor finds each installed edition's catalogues without importing its rules
    (``locales/`` beside the module its entry point names): the folder its rules declare."""
    from importlib.metadata import entry_points

    from companion.plugins.editions import GROUP, catalogue_folders
    declared = [point.load().locales for point in entry_points(group=GROUP)]
    assert sorted(map(str, catalogue_folders())) == sorted(str(d) for d in declared if d)


def test_the_pages_pseudo_language_decorates_an_editions_words() -> None:
    """The pseudo-language marks every msgid of every catalogue, an edition's included (a
    word it left undecorated would look like English no catalogue holds)."""
    from web.pages import pseudo_catalogue

    messages = pseudo_catalogue()["messages"]
    assert messages["{player}: accept the challenge."] == "⟦{player}: accept the challenge.⟧"


def test_an_editions_retired_and_current_message_ids_read_back(tmp_path: Path) -> None:
    """An edition's catalogue folder brings its template and its retired msgids: a log that
    stored either by id reads the words back."""
    from companion.engine import i18n

    (tmp_path / "messages.pot").write_text('msgid "Lemon words: {x}"\nmsgstr ""\n', "utf-8")
    (tmp_path / "retired.json").write_text('[["Old lemon words", ""]]\n', "utf-8")
    i18n.add_catalogues(tmp_path)
    try:
        for key in ("Lemon words: {x}", "Old lemon words"):
            assert i18n.message_by_id(message_id(key)) == (key, "")
    finally:
        i18n.EDITION_LOCALES.remove(tmp_path)
        i18n.known_messages.cache_clear()
        i18n.catalogue.cache_clear()
    with pytest.raises(ValueError, match="no message has the id"):
        i18n.message_by_id(message_id("Old lemon words"))


def test_a_broken_installed_package_leaves_the_other_editions_words_readable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An installed edition whose package fails to import (available() says why) has no words
    to read; every other edition's catalogue is still found."""
    from importlib.metadata import EntryPoint

    from companion.plugins import editions

    (tmp_path / "broken_words_pkg").mkdir()
    (tmp_path / "broken_words_pkg/__init__.py").write_text("raise RuntimeError('broken')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    shipped = editions.catalogue_folders()
    broken = EntryPoint("broken", "broken_words_pkg.rules:Rules", editions.GROUP)
    real = editions._entry_points()
    monkeypatch.setattr(editions, "_entry_points", lambda: {"broken": broken, **real})
    assert editions.catalogue_folders() == shipped
