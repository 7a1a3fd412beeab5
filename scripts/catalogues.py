"""What ``./scripts/messages`` does: extract every message (babel.cfg) and write each catalogue.

There is one catalogue per owner: companion's own (``companion/locales``: what companion/,
web/ and hardware/ say) and one per shipped edition that has a ``locales/`` folder in its
package (``companion/editions/<x>/locales``: what its package says, and the readings and
attacks of its data files in ``seeds/``, which belong to the edition its entry point names).
Each gets a template (``messages.pot``) and one ``<lang>/LC_MESSAGES/messages.po`` per
language companion speaks. A msgid new to a catalogue takes its translation from whichever
catalogue had it (code moved from companion into an edition, or between editions), so nobody
translates it again. A msgid no template holds any more is kept in the ``retired.json`` of the
catalogue it left (a log that stored it by id still reads it back); one that merely moved is
not retired. Dates stay as they are, so an unchanged tree stays unchanged.

Usage: ``python scripts/catalogues.py`` (``new LANG`` adds a language to every catalogue).
"""

from __future__ import annotations

import io
import json
import sys
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

CENTRAL = Path("companion/locales")
EDITIONS = Path("companion/editions")
GROUP = "board_companion.editions"
KEYWORDS: dict[str, Any] = {"Msg": None, "Msgs": (1, 2), "tr": None, "trn": (1, 2),
                            "trNodes": None, "N_": None}
"""The functions that mark a message (Python's ``Msg``/``Msgs``/``N_``, the page's ``tr``)."""
WIDTH = 100


def folders(root: Path) -> list[Path]:
    """Every catalogue folder, relative to ``root``: companion's first, then each edition's."""
    return [CENTRAL, *(p.relative_to(root) for p in sorted((root / EDITIONS).glob("*/locales"))
                       if p.is_dir())]


def data_owners(root: Path) -> dict[str, Path]:
    """Each installed edition's data prefix in ``seeds/`` (``seeds/<name>``) -> its package's
    folder, from pyproject.toml's entry points (``name = "package.module:Rules"``)."""
    project = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["project"]
    out = {}
    for name, target in project.get("entry-points", {}).get(GROUP, {}).items():
        module = Path(*str(target).split(":")[0].split("."))
        out[f"seeds/{name}"] = module if (root / module).is_dir() else module.parent
    return out


def owner(path: str, catalogues: Iterable[Path], data: Mapping[str, Path]) -> Path:
    """The catalogue a message found in ``path`` (relative to the root) belongs to."""
    for prefix, package in data.items():
        if path.startswith((prefix + ".", prefix + "/")):
            path = f"{package}/{path}"  # an edition's data file counts as its package's
    inside = [c for c in catalogues if c != CENTRAL and Path(path).is_relative_to(c.parent)]
    return max(inside, key=lambda c: len(c.parts)) if inside else CENTRAL


def extract(root: Path) -> dict[Path, Catalog]:
    """Every message of the tree, each in its owner's template."""
    with (root / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)  # type: ignore[no-untyped-call]
    catalogues = folders(root)
    data = data_owners(root)
    out = {c: Catalog() for c in catalogues}
    for filename, lineno, message, comments, context in extract_from_dir(
            str(root), method_map, options_map, keywords=KEYWORDS):
        out[owner(filename, catalogues, data)].add(
            message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return out


def pot_text(catalog: Catalog) -> bytes:
    """A template as ``pybabel extract --no-location --sort-output --omit-header`` writes it."""
    buf = io.BytesIO()
    write_po(buf, catalog, no_location=True, omit_header=True, sort_output=True, width=WIDTH)
    return buf.getvalue()


def ids(text: bytes) -> set[tuple[str, str]]:
    """The (msgid, plural) pairs of a template's or catalogue's text."""
    return {(m.id[0], m.id[1]) if isinstance(m.id, tuple | list) else (m.id, "")
            for m in read_po(io.BytesIO(text)) if m.id}


def po_path(folder: Path, lang: str) -> Path:
    return folder / lang / "LC_MESSAGES" / "messages.po"


def translated(message: Message) -> bool:
    strings = [message.string] if isinstance(message.string, str) else list(message.string or ())
    return not message.fuzzy and bool(strings) and all(strings)


def update(po: Catalog, template: Catalog, known: Mapping[Any, Message]) -> None:
    """``po`` brought up to ``template`` (as ``pybabel update --no-fuzzy-matching``); a msgid
    it lacks a translation of takes the one ``known`` has (from any catalogue)."""
    po.update(template, no_fuzzy_matching=True, update_header_comment=False,
              update_creation_date=False)
    for message in po:
        if message.id and not translated(message):
            other = known.get(message.id)
            if other is not None and translated(other) and other.id == message.id:
                message.string = other.string
                message.user_comments = list(other.user_comments)


def new_po(lang: str, like: Catalog | None) -> Catalog:
    """A new catalogue for ``lang``: the header of companion's own (its plural rule) if there
    is one, else Babel's for the language (``pybabel init``)."""
    if like is None:
        return Catalog(locale=Locale.parse(lang), domain="messages", project="Board Companion",
                       version="VERSION", fuzzy=False)
    po = Catalog(locale=Locale.parse(lang), domain="messages", fuzzy=False,
                 header_comment=like.header_comment)
    po.mime_headers = like.mime_headers
    return po


def main(root: Path, argv: list[str]) -> None:
    templates = extract(root)
    languages = sorted(p.parent.parent.name for p in (root / CENTRAL).glob(
        "*/LC_MESSAGES/messages.po"))
    if argv[:1] == ["new"]:
        languages = sorted({*languages, argv[1]})
    before = {c: ids((root / c / "messages.pot").read_bytes())
              if (root / c / "messages.pot").is_file() else set() for c in templates}
    olds = {(c, lang): read_po(io.BytesIO((root / po_path(c, lang)).read_bytes()),
                               locale=lang, domain="messages")
            for c in templates for lang in languages if (root / po_path(c, lang)).is_file()}
    for folder, catalog in templates.items():
        (root / folder / "messages.pot").write_bytes(pot_text(catalog))
    for lang in languages:
        known: dict[Any, Message] = {}
        for c in reversed([*templates]):  # companion's own translation first on a clash
            old = olds.get((c, lang))
            known.update({m.id: m for m in old or () if m.id and translated(m)})
        central: Catalog | None = None
        for folder in templates:  # companion's own first: a new one copies its header
            template = read_po(io.BytesIO((root / folder / "messages.pot").read_bytes()))
            po = olds.get((folder, lang))
            if po is None:
                po = new_po(lang, central)
            update(po, template, known)
            central = central or po
            path = root / po_path(folder, lang)
            path.parent.mkdir(parents=True, exist_ok=True)
            buf = io.BytesIO()
            write_po(buf, po, ignore_obsolete=True, include_previous=False, width=WIDTH)
            if not path.is_file() or path.read_bytes() != buf.getvalue():
                path.write_bytes(buf.getvalue())
    now = set().union(*(ids(pot_text(c)) for c in templates.values()))
    for folder, had in before.items():
        retire(root / folder / "retired.json", had - now)


def retire(path: Path, gone: set[tuple[str, str]]) -> None:
    """Add ``gone`` msgids to the retired list at ``path``."""
    kept = {(str(k), str(p)) for k, p in json.loads(path.read_text("utf-8"))} \
        if path.is_file() else set()
    if gone - kept:
        path.write_text(json.dumps(sorted(kept | gone), ensure_ascii=False, indent=0) + "\n",
                        "utf-8")


if __name__ == "__main__":
    main(Path.cwd(), sys.argv[1:])
