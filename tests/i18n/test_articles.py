"""Italian joins a preposition and an article into one word ("dalla Banca", never "da la
Banca"), Spanish "al" and "del" ("al bote", never "a el bote"): in the catalogue's own words
and where our own words (the Bank, the pot, the banker) fill a message's placeholder, on the
OLED (Python) and on the page (web/static/i18n.js, run by node)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.engine.i18n import PLACEHOLDER, Msg, catalogue, page_catalogue, render

ROOT = Path(__file__).resolve().parents[2]
SLIPS = {
    "it": re.compile(r"(?<![\w'’])(di|a|da|in|su)\s+(il|lo|la|l['’]|i|gli|le)(?=[\s\W])",
                     re.IGNORECASE),
    "es": re.compile(r"(?<![\w])(a|de)\s+(el)(?=\s)", re.IGNORECASE),
}
OURS = [Msg("the Bank"), Msg("the pot"), Msg("the banker")]
"""Our own words that come with an article and fill other messages' placeholders."""


def _texts(lang: str) -> list[tuple[str, str]]:
    cat = catalogue(lang)
    assert cat is not None
    out = []
    for m in cat:
        if not m.id:
            continue
        key = m.id if isinstance(m.id, str) else m.id[0]
        for s in m.string if isinstance(m.string, tuple) else (m.string,):
            if s:
                out.append((key, s))
    return out


@pytest.mark.parametrize("lang", sorted(SLIPS))
def test_no_unjoined_preposition_in_the_catalogue(lang: str) -> None:
    slips = [(key, s) for key, s in _texts(lang) if SLIPS[lang].search(s)]
    assert slips == []


def _filled(lang: str) -> list[tuple[str, str]]:
    """Every message with a name-like placeholder, each filled with each of our words."""
    cat = catalogue(lang)
    assert cat is not None
    out = []
    for m in cat:
        if not m.id or not isinstance(m.id, str) or not isinstance(m.string, str):
            continue
        names = set(PLACEHOLDER.findall(m.id)) - {"n"}
        for name in names:
            for ours in OURS:
                args: dict[str, object] = {k: "X" for k in names}
                args[name] = ours
                if "n" in PLACEHOLDER.findall(m.id):
                    args["n"] = 2
                out.append((m.id, render(Msg(m.id, **args), lang)))  # type: ignore[arg-type]
    return out


@pytest.mark.parametrize("lang", sorted(SLIPS))
def test_our_words_in_a_placeholder_join_their_preposition(lang: str) -> None:
    said = _filled(lang)
    assert len(said) > 100
    slips = [(key, s) for key, s in said if SLIPS[lang].search(s)]
    assert slips == [], slips[:5]


def test_the_banker_moves_money_from_the_bank_in_italian_and_spanish() -> None:
    line = Msg("Banker: {amount} from {source} to {to} ({reason}).", amount=5,
               source=Msg("the Bank"), to="Ann", reason="prize")
    assert render(line, "it") == "Banchiere: 5 dalla Banca a Ann (prize)."
    pot = Msg("Banker: {amount} from {source} to {to} ({reason}).", amount=5,
              source="Ann", to=Msg("the pot"), reason="x")
    assert render(pot, "es").count(" al bote") == 1, render(pot, "es")


@pytest.mark.skipif(not shutil.which("node"), reason="needs node")
@pytest.mark.parametrize("lang", sorted(SLIPS))
def test_the_page_joins_them_too(lang: str, tmp_path: Path) -> None:
    """The page renders messages itself (i18n.js): the same sentences, the same words."""
    cases = []
    for key, _ in _filled(lang)[:4000]:
        names = set(PLACEHOLDER.findall(key)) - {"n"}
        for name in sorted(names):
            for ours in OURS:
                args: dict[str, object] = {k: "X" for k in names}
                args[name] = ours.to_json()
                if "n" in PLACEHOLDER.findall(key):
                    args["n"] = 2
                cases.append({"msg": key, "args": args})
    expected = {json.dumps(c, sort_keys=True): render(Msg.from_json(c), lang) for c in cases}
    (tmp_path / "cat.json").write_text(json.dumps(page_catalogue(lang)), "utf-8")
    (tmp_path / "cases.json").write_text(json.dumps(cases), "utf-8")
    script = f"""
const fs = require("fs"), vm = require("vm");
const cat = JSON.parse(fs.readFileSync({json.dumps(str(tmp_path / "cat.json"))}, "utf-8"));
const cases = JSON.parse(fs.readFileSync({json.dumps(str(tmp_path / "cases.json"))}, "utf-8"));
const ctx = {{Intl, localStorage: {{getItem: () => null}}, navigator: {{languages: ["{lang}"]}},
  document: {{documentElement: {{}}, cookie: ""}},
  fetch: async () => ({{ok: true, json: async () => cat}})}};
vm.createContext(ctx);
vm.runInContext(fs.readFileSync({json.dumps(str(ROOT / "web/static/i18n.js"))}, "utf-8")
  + "\\nthis.I18n = I18n;", ctx);
ctx.I18n.load("{lang}").then(() => {{
  process.stdout.write(JSON.stringify(cases.map((c) => ctx.I18n.text(c))));
}});
"""
    got = json.loads(subprocess.run(["node", "-e", script], check=True, capture_output=True,
                                    text=True, timeout=120).stdout)
    slips = [s for s in got if SLIPS[lang].search(s)]
    assert slips == [], slips[:5]
    assert got == [expected[json.dumps(c, sort_keys=True)] for c in cases]


GLUED = re.compile(r"[a-zà-úñ)][.!?][A-Za-zÀ-ÚÑà-úñ¿¡]")
"""A sentence's end with the next one right against it: two translations of one message glued
into one string (a union merge of the catalogues did that), each shown twice to the reader."""


@pytest.mark.parametrize("lang", sorted(SLIPS))
def test_no_translation_is_two_glued_together(lang: str) -> None:
    glued = [(key, s) for key, s in _texts(lang)
             if len(GLUED.findall(s)) > len(GLUED.findall(key))]  # "settings.board.{x}" is not
    assert glued == [], glued[:3]
