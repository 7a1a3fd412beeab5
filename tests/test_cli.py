"""The ``companion`` command as someone at a terminal uses it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.service.script import run_script

EXAMPLES = sorted(Path(__file__).resolve().parent.parent.joinpath("examples").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_script_plays_to_a_finish(path: Path) -> None:
    """Each shipped example is a legal game that ends with its winners named."""
    result = run_script(json.loads(path.read_text("utf-8")))
    assert result.state.finished, f"{path.name} does not reach the end"
    assert result.state.end_reason


def test_play_prints_the_final_state(capsys: pytest.CaptureFixture[str]) -> None:
    """``companion play --script`` prints the final state as JSON and exits 0."""
    code = main(["play", "--script", str(EXAMPLES[0].parent / "mario-two-players.json")])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["finished"] and out["winners"] == ["mario"]
    assert {"players", "board", "extra", "log", "end_reason"} <= out.keys()
    assert out["extra"]["bowser"]["space"]


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ({"edition": "risk", "players": ["A", "B"]}, "Unknown edition 'risk'"),
        ({"edition": "mario", "players": ["A"]}, "2 to 6 players"),
        ({"edition": "mario", "players": ["A", "B"], "dice": "physical",
          "settings": {"order": "seated"}, "steps": ["b: roll 1 2"]},
         "Step 1 (\"b: roll 1 2\"): B cannot do that now: only A can."),
        ({"edition": "mario", "players": ["A", "B"], "dice": "physical",
          "settings": {"order": "seated"}, "steps": ["roll 1 2", "buy", "roll 9 9"]},
         "A die shows a whole number from 1 to 6"),
        ({"edition": "mario", "players": ["A", "B"], "steps": "roll"}, "'steps' must be a list"),
    ],
)
def test_bad_scripts_exit_non_zero_naming_the_problem(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], script: dict, message: str) -> None:
    """A malformed script or an illegal step: a clear message, exit status 2."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(script))
    assert main(["play", "--script", str(path)]) == 2
    assert message in capsys.readouterr().err


def test_unreadable_script_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Not JSON, or no such file: exit 2 with the reason."""
    path = tmp_path / "x.json"
    path.write_text("{nope")
    assert main(["play", "--script", str(path)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["play", "--script", str(tmp_path / "missing.json")]) == 2


def test_export_then_import_from_the_shell(tmp_path: Path) -> None:
    """A game played into a state dir exports as JSON lines and imports again."""
    state = tmp_path / "state"
    example = str(EXAMPLES[0].parent / "mario-two-players.json")
    run = [sys.executable, "-m", "companion.app.cli"]
    subprocess.run([*run, "play", "--script", example, "--state-dir", str(state)],
                   check=True, capture_output=True)
    from companion.service.game_service import GameService

    svc = GameService(state)
    gid = svc.store.games()[0]["id"]
    svc.stop()
    exported = subprocess.run([*run, "export", gid, "--state-dir", str(state)], check=True,
                              capture_output=True, text=True).stdout
    dump = tmp_path / "game.jsonl"
    dump.write_text(exported)
    other = tmp_path / "other"
    new_id = subprocess.run([*run, "import", str(dump), "--state-dir", str(other)], check=True,
                            capture_output=True, text=True).stdout.strip()
    svc, again = GameService(state), GameService(other)
    try:
        assert again.state(new_id)[1] == svc.state(gid)[1]
    finally:
        svc.stop()
        again.stop()


def test_missing_config_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    """``companion run --config`` with no such file says so and exits non-zero."""
    assert main(["run", "--config", "/nonexistent/config.toml"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_a_short_pin_is_refused_before_anything_starts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 38: ``--pin 2468`` (the README's old example) is guessed in an evening."""
    assert main(["run", "--simulate", "--no-mdns", "--state-dir", str(tmp_path),
                 "--pin", "2468"]) == 2
    assert "8 to 12 digits" in capsys.readouterr().err
    assert not (tmp_path / "companion.db").exists()  # nothing started, nothing changed


def test_run_help_does_not_promise_a_default_pin(capsys: pytest.CaptureFixture[str]) -> None:
    """The PIN is made up on the first run (a shipped default would be known to everyone)."""
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "1234" not in text
    assert "made up on the first run" in text


def test_version_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    """``companion --version`` names the installed release, as pyproject.toml declares it."""
    import tomllib

    declared = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml")
                             .read_text())["project"]
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    from companion import __version__

    assert capsys.readouterr().out.strip() == f"companion {__version__}"
    assert declared.get("version", __version__) == __version__


def test_license_file_is_mit() -> None:
    """The licence pyproject.toml names is shipped as a file beside it."""
    text = (Path(__file__).resolve().parent.parent / "LICENSE").read_text()
    assert text.startswith("MIT License")
    assert "Copyright (c)" in text and "Board Companion contributors" in text
