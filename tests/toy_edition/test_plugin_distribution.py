"""An edition is a plug-in: the toy edition built as its own distribution (its pyproject with
the ``board_companion.editions`` entry point, its package, its data files) and installed from
outside is found, played, told, helped and translated with no edit in companion/, web/ or
hardware/ (issue 40). Built and installed into a temporary folder, never the shared .venv."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

TOY = Path(__file__).parent

DOC = TOY.parents[1] / "docs" / "adding-an-edition.md"


def doc_block(lang: str, holding: str) -> str:
    """The doc's code block in ``lang`` that holds ``holding`` (a top-level block)."""
    blocks = re.findall(rf"^```{lang}\n(.*?)^```", DOC.read_text("utf-8"), re.S | re.M)
    return next(b for b in blocks if holding in b)


PYPROJECT = doc_block("toml", "board_companion.editions")  # the doc's, as a newcomer copies it
SCRIPT = json.loads(doc_block("json", '"edition": "lemonade"'))

PLAY = """\
import json, sys
from pathlib import Path
from companion.engine.i18n import Msg, localized, render
from companion.plugins.editions import find_edition
from companion.service import prompt_help
from companion.service.script import parse_step
from companion.service.game_service import GameService

service = GameService(Path(sys.argv[1])).start()


def play(**settings):
    made = service.create_game({"edition": "lemonade", "players": ["Ann", "Bob", "Cy"],
                                "dice": "physical", "settings": {"order": "seated", **settings}})
    assert made.ok, made.error
    for step in ("roll 1 3", "roll 1 2", "buy", "roll 1 1"):  # Ann: Heatwave; Bob buys
        _, state = service.state(made.game_id)
        out = service.submit(made.game_id, parse_step(state, step))
        assert out.ok, out.error
    return made.game_id, service.state(made.game_id)[1]


try:
    offered = find_edition("lemonade").setup_info()["settings"]
    _, by_bank = play(heatwave="bank")
    gid, state = play()
    lane = state.board.spaces[1].name
    heat = next(r["say"] for r in service.history(gid) if "lemonade" in str(r["say"]))
    story = service.story(gid)
    print(json.dumps({
        "money": [p.money for p in state.players],
        "money_by_bank": [p.money for p in by_bank.players],
        "setting": next({"label": render(Msg(s["label"]), "it"), "default": s["default"],
                         "choices": [c["value"] for c in s["choices"]]}
                        for s in offered if s["name"] == "heatwave"),
        "lane": {lang: render(lane, lang) for lang in ("en", "it", "es")},
        "heatwave": {lang: render(heat, lang) for lang in ("en", "it", "es")},
        "story": {"edition": story["edition"], "title": str(story["title"]),
                  "players": [p["name"] for p in story["players"]],
                  "lines": sorted({l["key"] for p in story["players"] for l in p["lines"]})},
        "help": sorted(prompt_help.explanations("lemonade")),
        "panels": {lang: localized(service.view(gid, None)["panels"], lang)
                   for lang in ("en", "it", "es")},
    }))
finally:
    service.stop()
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The toy edition built as a distribution of its own and installed into a folder."""
    root = tmp_path_factory.mktemp("lemonade")
    shutil.copytree(TOY / "lemonade", root / "src" / "lemonade",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (root / "src" / "pyproject.toml").write_text(PYPROJECT, "utf-8")
    target = root / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-build-isolation", "--no-index", "--target", str(target),
                    str(root / "src")], check=True, capture_output=True, cwd=root)
    return target


def companion(site: Path, *args: str, cwd: Path) -> str:
    """A command run as someone at a terminal with the edition installed (and no tests/ on
    the path: the edition is found only through its distribution)."""
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def played(site: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    here = tmp_path_factory.mktemp("table")
    (here / "play.py").write_text(PLAY, "utf-8")
    out: dict[str, Any] = json.loads(companion(site, "play.py", str(here / "state"), cwd=here))
    return out


def test_the_docs_example_is_the_toy() -> None:
    """docs/adding-an-edition.md shows the toy's module as it is (its pyproject and script are
    the ones these tests build and play)."""
    module = (TOY / "lemonade" / "__init__.py").read_text("utf-8")
    assert doc_block("python", "class LemonadeRules") in module


def test_an_installed_edition_is_listed(site: Path, tmp_path: Path) -> None:
    out = companion(site, "-m", "companion.app.cli", "editions", cwd=tmp_path)
    assert "lemonade        Lemonade Stand" in out.splitlines()
    assert "mario" in out  # the shipped editions are found the same way


def test_an_installed_edition_is_played_from_a_script(site: Path, tmp_path: Path) -> None:
    script = tmp_path / "game.json"
    script.write_text(json.dumps(SCRIPT), "utf-8")  # the doc's
    out = json.loads(companion(site, "-m", "companion.app.cli", "play", "--script",
                               str(script), cwd=tmp_path))
    assert out["players"][0]["money"] == 6  # Ann bought Sugar Street (4) of her 10


def test_its_data_is_read_from_its_package_even_zipped(site: Path, tmp_path: Path) -> None:
    """Read through importlib.resources, not as files beside a path: from a zip on the path
    (before: NotADirectoryError '.../site.zip/lemonade/lemonade.toml')."""
    zipped = Path(shutil.make_archive(str(tmp_path / "site"), "zip", site))
    script = tmp_path / "game.json"
    script.write_text(json.dumps(SCRIPT), "utf-8")  # the doc's
    out = json.loads(companion(zipped, "-m", "companion.app.cli", "play", "--script",
                               str(script), cwd=tmp_path))
    assert out["players"][0]["money"] == 6


def test_its_own_rule_plays(played: dict[str, Any]) -> None:
    # Ann: Heatwave, Bob and Cy buy a lemonade (1) from her; Bob buys Sugar Street (4); Cy
    # rolls doubles to the Surprise card (collect 3)
    assert played["money"] == [12, 5, 12]


def test_its_reading_is_offered_and_played(played: dict[str, Any]) -> None:
    """Where its rules are silent, its data's reading with a setting is offered at setup (in
    the reader's words, from its catalogue) and changes the game as chosen: the Bank buys
    the lemonades, so Ann gets 2 and nobody else pays."""
    assert played["setting"] == {"label": "In un'ondata di caldo, le limonate le compra",
                                 "default": "players", "choices": ["players", "bank"]}
    assert played["money_by_bank"] == [12, 6, 13]


def test_its_story_is_told(played: dict[str, Any]) -> None:
    assert played["story"]["edition"] == "lemonade"
    assert played["story"]["title"] == "Lemonade Stand"
    assert played["story"]["players"] == ["Ann", "Bob", "Cy"]
    assert "rent_paid" in played["story"]["lines"]  # the family's counters, inherited


def test_its_help_shows(played: dict[str, Any]) -> None:
    assert "buy" in played["help"]  # the family's help for the prompts it asks


def test_its_own_section_of_the_table_speaks_each_readers_language(
        played: dict[str, Any]) -> None:
    """Its panel, built in its words and drawn by the page like every edition's."""
    said = {lang: (p[0]["title"], p[0]["blocks"][0]["text"])
            for lang, p in played["panels"].items()}
    assert said == {
        "en": ("The stand", "Heatwave: every other player buys a lemonade for 1 lemon."),
        "it": ("Il chiosco", "Heatwave: ogni altro giocatore compra una limonata per 1 limone."),
        "es": ("El puesto", "Heatwave: cada uno de los demás jugadores compra una "
                            "limonada por 1 limón.")}


def test_its_words_translate(played: dict[str, Any]) -> None:
    assert played["lane"] == {"en": "Lemon Lane", "it": "Via del Limone",
                              "es": "Calle del Limón"}  # its words files, beside its data


def test_its_rule_speaks_italian_and_spanish(played: dict[str, Any]) -> None:
    """Its own message, from its own catalogues (lemonade/locales): no edit in companion's."""
    assert played["heatwave"] == {
        "en": "Heatwave: Bob buys a lemonade from Ann.",
        "it": "Ondata di caldo: Bob compra una limonata da Ann.",
        "es": "Ola de calor: Bob compra una limonada a Ann."}
