"""A script may name a box profile ("profile": a saved profile's name, or a profile file):
it plays on that profile's board and cards, or is refused naming the profile."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.boxes.profiles import Profiles, export_text
from companion.service.script import ScriptError, load_script, run_script

ROOT = Path(__file__).resolve().parents[2]
BOX = json.loads((ROOT / "examples" / "starwars-box-profile.json").read_text("utf-8"))
PROFILE = {"format": 1, "edition": "starwars", "name": "our box", "note": "",
           "settings": BOX["settings"], "tags": {}}


def on_profile(profile: str) -> dict[str, object]:
    """The Star Wars box example, its settings replaced by a profile reference."""
    return {"edition": "starwars", "players": BOX["players"], "dice": "digital",
            "seed": BOX["seed"], "profile": profile, "steps": BOX["steps"]}


def board(result: object) -> list[tuple[str, str]]:
    view = result.final()  # type: ignore[attr-defined]
    return [(s["name"], s["kind"]) for s in view["board"]["spaces"]]


def test_a_script_naming_a_profile_file_plays_on_that_box(tmp_path: Path) -> None:
    (tmp_path / "our-box.json").write_text(export_text(PROFILE), "utf-8")
    (tmp_path / "game.json").write_text(json.dumps(on_profile("our-box.json")), "utf-8")
    got = run_script(load_script(tmp_path / "game.json"))
    want = run_script(BOX)
    assert board(got) == board(want)
    assert ("Galactic Senate", "location") in board(got)
    assert got.state == want.state


def test_a_script_naming_a_saved_profile_plays_on_it(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "companion.db", isolation_level=None)
    profiles = Profiles(conn)
    profiles.save(PROFILE)
    got = run_script(on_profile("our box"), profiles=profiles)
    conn.close()
    assert got.state == run_script(BOX).state


def test_an_unknown_profile_is_refused_with_its_name(tmp_path: Path) -> None:
    with pytest.raises(ScriptError, match="there is no profile 'nope'"):
        run_script(on_profile("nope"))
    with pytest.raises(ScriptError, match="no profile file .*missing.json"):
        run_script(on_profile(str(tmp_path / "missing.json")))
    wrong = {**PROFILE, "edition": "mario", "settings": {}}
    (tmp_path / "mario.json").write_text(export_text(wrong), "utf-8")
    with pytest.raises(ScriptError, match="a mario profile, not starwars"):
        run_script(on_profile(str(tmp_path / "mario.json")))
    (tmp_path / "bad.json").write_text("{not json", "utf-8")
    with pytest.raises(ScriptError, match="not a JSON profile file"):
        run_script(on_profile(str(tmp_path / "bad.json")))


def test_companion_play_uses_a_profile_saved_in_its_state_dir(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "our-box.json").write_text(export_text(PROFILE), "utf-8")
    state = tmp_path / "state"
    assert main(["profile", "import", str(tmp_path / "our-box.json"),
                 "--state-dir", str(state)]) == 0
    (tmp_path / "game.json").write_text(json.dumps(on_profile("our box")), "utf-8")
    capsys.readouterr()
    assert main(["play", "--script", str(tmp_path / "game.json"),
                 "--state-dir", str(state)]) == 0
    view = json.loads(capsys.readouterr().out)
    assert "Galactic Senate" in [s["name"] for s in view["board"]["spaces"]]
    (tmp_path / "file.json").write_text(json.dumps(on_profile("our-box.json")), "utf-8")
    assert main(["play", "--script", str(tmp_path / "file.json")]) == 0
    view = json.loads(capsys.readouterr().out)
    assert "Galactic Senate" in [s["name"] for s in view["board"]["spaces"]]
