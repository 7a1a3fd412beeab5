"""Outside the page: ``companion enroll`` and the other commands speak the terminal's language
(LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext reads them), and enrolment's words reach the
OLED and the page as messages, the objects' names included ("Tocca il segnalino Mushroom")."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.boxes.tags import TagRegistry
from companion.editions.mario import MarioRules
from companion.engine.i18n import Msg, environment_language, render

ENV = {k: v for k, v in os.environ.items()
       if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}


def companion(args: list[str], tmp_path: Path, lang: dict[str, str],
              stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.app.cli", *args],
                          input=stdin, capture_output=True, text=True, timeout=120,
                          env={**ENV, **lang, "PYTHONUTF8": "1"}, cwd=tmp_path)


@pytest.mark.parametrize(("env", "lang"), [
    ({"LANG": "it_IT.UTF-8"}, "it"),
    ({"LANG": "en_GB.UTF-8", "LC_MESSAGES": "es_ES.UTF-8"}, "es"),
    ({"LANG": "it_IT.UTF-8", "LC_ALL": "C"}, "en"),
    ({"LANGUAGE": "pt:es", "LANG": "it_IT.UTF-8"}, "es"),
    ({}, "en"),
])
def test_the_terminal_language_is_read_as_gettext_does(env: dict[str, str], lang: str) -> None:
    assert environment_language(env) == lang


def test_enroll_speaks_italian_at_an_italian_terminal(tmp_path: Path) -> None:
    token = MarioRules().tag_objects()[0][1]
    assert isinstance(token, Msg)
    out = companion(["enroll", "mario", "--simulate", "--state-dir", str(tmp_path)], tmp_path,
                    {"LANG": "it_IT.UTF-8"}, stdin="04A1B2C3\nnot-a-uid\n\n")
    assert out.returncode == 0, out.stderr
    said = out.stdout.replace("UID> ", "")
    total = len(MarioRules().tag_objects())
    first = render(token, "it")
    assert first.startswith("il segnalino ")
    assert f"Tocca {first} ora (0 di {total} fatti)." in said
    assert f"{first[0].upper()}{first[1:]}: 04A1B2C3" in said
    assert "Non è l'UID di un tag" in said
    assert f"Interrotto; 1 di {total} fatti." in said
    for english in ("Tap ", " now ", " done", "Stopped", "token", "not a tag"):
        assert english not in said


def test_enrolment_words_reach_the_oled_and_the_page_as_messages(tmp_path: Path) -> None:
    registry = TagRegistry(sqlite3.connect(tmp_path / "tags.db"))
    progress = registry.progress("mario", MarioRules().tag_objects())
    assert isinstance(progress.prompt, Msg) and isinstance(progress.text, Msg)
    assert render(progress.prompt, "es").startswith("Toca la ficha ")
    assert render(progress.text, "es") == f"0 de {progress.total} hechos"


def test_a_command_line_error_in_spanish(tmp_path: Path) -> None:
    out = companion(["import", str(tmp_path / "missing.jsonl"), "--state-dir", str(tmp_path)],
                    tmp_path, {"LANG": "es_ES.UTF-8"})
    assert out.returncode != 0
    assert "no se puede leer" in out.stderr, out.stderr
    out = companion(["profile", "delete", "nuestra caja", "--state-dir", str(tmp_path)],
                    tmp_path, {"LANG": "es_ES.UTF-8"})
    assert out.returncode != 0
    assert "no hay ningún perfil 'nuestra caja'" in out.stderr, out.stderr


def test_the_commands_errors_speak_the_terminals_language(tmp_path: Path) -> None:
    """A missing script, a script that is not one, a refused step and a missing or broken
    config are told in the terminal's language (issue 41), naming the file as given."""
    (tmp_path / "bad.json").write_text("[1, 2]", "utf-8")
    (tmp_path / "bad.toml").write_text("[server\n", "utf-8")
    (tmp_path / "step.json").write_text(
        '{"edition": "mario", "players": ["A", "B"], "dice": "physical", '
        '"settings": {"order": "seated"}, "steps": [{"actor": "b", "type": "roll", '
        '"args": {"dice": [1, 2]}}]}', "utf-8")
    it = {"LANG": "it_IT.UTF-8"}
    missing = companion(["play", "--script", "nowhere.json"], tmp_path, it)
    assert missing.returncode == 2 and "nowhere.json" in missing.stderr
    assert "Nessun file di script" in missing.stderr, missing.stderr
    assert "Uno script è un oggetto JSON" in companion(
        ["play", "--script", "bad.json"], tmp_path, it).stderr
    step = companion(["play", "--script", "step.json"], tmp_path, {"LANG": "es_ES.UTF-8"})
    assert step.returncode == 2 and step.stderr.startswith("companion: Paso 1 ("), step.stderr
    for args in (["--config", "none.toml"], ["--config", "bad.toml"]):
        out = companion(["run", *args, "--state-dir", str(tmp_path)], tmp_path,
                        {"LANG": "es_ES.UTF-8"})
        assert out.returncode == 2 and "archivo de configuración" in out.stderr, out.stderr
