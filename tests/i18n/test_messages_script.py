"""``./scripts/messages`` on an unchanged tree changes nothing (issue 41, item 7): a translator
who runs it to see what is new must not get a diff of dates in every catalogue."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WRITTEN = [str(p.relative_to(ROOT)) for p in sorted(
    [*ROOT.glob("companion/locales/**/messages.po*"),
     *ROOT.glob("companion/editions/*/locales/**/messages.po*")])]
"""Every template and catalogue the script writes: companion's and each edition's."""


def _copy_tree(tmp_path: Path) -> None:
    """This tree's files (tracked or new) copied to ``tmp_path``, with its virtualenv."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, tmp_path / name)
    if (ROOT / ".venv").is_dir():  # the script's Babel (else the one on PATH)
        (tmp_path / ".venv").symlink_to(ROOT / ".venv")


def test_the_messages_script_leaves_an_unchanged_tree_unchanged(tmp_path: Path) -> None:
    """Run on a copy of this tree, it writes the template and every catalogue back byte for
    byte as they are."""
    _copy_tree(tmp_path)
    subprocess.run(["./scripts/messages"], cwd=tmp_path, check=True, capture_output=True)
    changed = [name for name in WRITTEN
               if (tmp_path / name).read_bytes() != (ROOT / name).read_bytes()]
    assert changed == [], "./scripts/messages rewrote them: run it and commit the result"


def test_a_msgid_the_template_drops_is_kept_as_retired(tmp_path: Path) -> None:
    """Words changed in the code: the old msgid leaves the template but stays in
    retired.json, so a log that stored that message by id still reads it back."""
    _copy_tree(tmp_path)
    pot = tmp_path / "companion/locales/messages.pot"
    pot.write_text(pot.read_text("utf-8") + '\nmsgid "Old words: {x}"\nmsgstr ""\n', "utf-8")
    subprocess.run(["./scripts/messages"], cwd=tmp_path, check=True, capture_output=True)
    retired = json.loads((tmp_path / "companion/locales/retired.json").read_text("utf-8"))
    assert ["Old words: {x}", ""] in retired
    assert "Old words" not in pot.read_text("utf-8")


def _entry(msgid: str, text: str = "") -> str:
    return f'\nmsgid "{msgid}"\nmsgstr "{text}"\n'


def test_a_msgid_that_moves_into_an_edition_keeps_its_words_and_is_not_retired(
        tmp_path: Path) -> None:
    """Code that said a message moves into an edition (or two branches merged: one added the
    words to companion's catalogue, the other split the catalogues): the edition's catalogue
    gets the Italian and Spanish already written, companion's drops it, nothing is retired."""
    _copy_tree(tmp_path)
    central = tmp_path / "companion/locales"
    for lang, text in (("it", "Parole spostate"), ("es", "Palabras movidas")):
        po = central / lang / "LC_MESSAGES/messages.po"
        po.write_text(po.read_text("utf-8") + _entry("Moved words", text), "utf-8")
    pot = central / "messages.pot"
    pot.write_text(pot.read_text("utf-8") + _entry("Moved words"), "utf-8")
    (tmp_path / "companion/editions/pokemon/moved.py").write_text(
        'from companion.engine.i18n import N_\n\nWORDS = N_("Moved words")\n', "utf-8")
    subprocess.run(["./scripts/messages"], cwd=tmp_path, check=True, capture_output=True)
    edition = tmp_path / "companion/editions/pokemon/locales"
    assert 'msgid "Moved words"' in (edition / "messages.pot").read_text("utf-8")
    for lang, text in (("it", "Parole spostate"), ("es", "Palabras movidas")):
        assert _entry("Moved words", text) in (
            edition / lang / "LC_MESSAGES/messages.po").read_text("utf-8")
        assert "Moved words" not in (central / lang / "LC_MESSAGES/messages.po").read_text("utf-8")
    assert "Moved words" not in pot.read_text("utf-8")
    assert "Moved words" not in (central / "retired.json").read_text("utf-8")
    assert not (edition / "retired.json").exists()


def test_a_msgid_an_editions_template_drops_is_retired_in_its_own_catalogue(
        tmp_path: Path) -> None:
    _copy_tree(tmp_path)
    pot = tmp_path / "companion/editions/starwars/locales/messages.pot"
    pot.write_text(pot.read_text("utf-8") + _entry("Old force words: {x}"), "utf-8")
    subprocess.run(["./scripts/messages"], cwd=tmp_path, check=True, capture_output=True)
    retired = json.loads((pot.parent / "retired.json").read_text("utf-8"))
    assert retired == [["Old force words: {x}", ""]]
    assert "Old force words" not in pot.read_text("utf-8")
