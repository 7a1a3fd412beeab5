"""Forged exports refused early and whole (issue 38 items 7 and 8): a message with a huge
format width (``{title:>1000000000}``) took 1.9 GB for 21 s before it was refused; an
``--unchecked`` export with a NaN amount printed a traceback and left a damaged game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.service.game_service import GameService
from tests.service.test_import_checked import SETUP, forged, legal

MEMORY_CAP = 1 << 30
"""The child's address space (the forged line asked for 1.9 GB): a refusal never nears it."""


@pytest.fixture
def export_file(tmp_path: Path) -> list[str]:
    with GameService(tmp_path / "home") as svc:
        gid = svc.create_game(SETUP).game_id
        for _ in range(12):
            assert svc.submit(gid, legal(svc, gid)).ok
        return list(svc.export(gid))


def import_child(path: Path, state: Path, *extra: str) -> tuple[int, str, int]:
    """``companion import`` in a child limited to :data:`MEMORY_CAP`: its exit code, stderr
    and peak resident memory in kB."""
    # The child sets its cap and reports its own peak (VmHWM) as it exits: the kernel's
    # ru_maxrss of a child counts the image it was forked from, this test's pytest worker.
    peak = state.with_name(state.name + ".peak")
    capped = ("import atexit, resource, runpy, sys; resource.setrlimit(resource.RLIMIT_AS, "
              f"({MEMORY_CAP}, {MEMORY_CAP})); atexit.register(lambda: open({str(peak)!r}, "
              "'w').write(next(line.split()[1] for line in open('/proc/self/status') "
              "if line.startswith('VmHWM')))); sys.argv[0] = 'companion'; "
              "runpy.run_module('companion.app.cli', run_name='__main__')")
    child = subprocess.run([sys.executable, "-c", capped, "import", str(path),
                            "--state-dir", str(state), *extra],
                           stderr=subprocess.PIPE, text=True, check=False)
    return child.returncode, child.stderr, int(peak.read_text())


@pytest.mark.parametrize("unchecked", [False, True])
def test_a_forged_format_width_is_refused_early_with_little_memory(
        tmp_path: Path, export_file: list[str], unchecked: bool) -> None:
    rows = [json.loads(line) for line in export_file[1:]]
    first = json.loads(rows[0]["say"])
    first["msg"] = first["msg"].replace("{title}", "{title:>1000000000}")
    assert "{title:>1000000000}" in first["msg"]
    rows[0]["say"] = json.dumps(first)
    path = tmp_path / "forged.jsonl"
    path.write_text("\n".join(forged(export_file[0], rows)) + "\n")
    code, err, peak_kb = import_child(path, tmp_path / "away",
                                      *(["--unchecked"] if unchecked else []))
    assert code == 2 and "Traceback" not in err, err[-2000:]
    assert "Nothing was imported" in err or "Not a game export" in err, err
    assert "placeholder" in err, err
    assert peak_kb < 200_000, peak_kb  # a clean import of this file takes ~60 MB
    with GameService(tmp_path / "away") as svc:
        assert svc.games() == []


def test_an_unchecked_export_with_a_nan_amount_is_refused_and_leaves_no_game(
        tmp_path: Path, export_file: list[str]) -> None:
    paid = next(i for i, line in enumerate(export_file)
                if '"amount": ' in line and '"money_paid"' in line)
    row = json.loads(export_file[paid])
    rows = [{k: v for k, v in json.loads(line).items() if k != "command"}
            for line in export_file[1:]]
    rows[paid - 1]["data"]["amount"] = float("nan")
    assert row["seq"] == rows[paid - 1]["seq"]
    path = tmp_path / "nan.jsonl"
    path.write_text("\n".join(forged(export_file[0], rows)) + "\n")
    assert "NaN" in path.read_text()
    code, err, _ = import_child(path, tmp_path / "away", "--unchecked")
    assert code == 2 and "Traceback" not in err, err[-2000:]
    assert "NaN" in err and "Nothing was imported" in err, err
    with GameService(tmp_path / "away") as svc:
        assert svc.games() == [] and svc.damaged == {}


def test_an_unchecked_export_that_cannot_be_loaded_leaves_no_game(
        tmp_path: Path, export_file: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever stops the game loading after it is written: nothing stays in the list."""
    import companion.service.game_import as game_import

    def broken(*_: object) -> None:
        raise ValueError("cannot convert float NaN to integer")

    rows = [{k: v for k, v in json.loads(line).items() if k != "command"}
            for line in export_file[1:]]
    monkeypatch.setattr(game_import, "load_record", broken, raising=False)
    with GameService(tmp_path / "away") as svc:
        out = svc.import_game(forged(export_file[0], rows), unchecked=True)
        assert not out.ok and "Nothing was imported" in out.error, out
        assert svc.games() == [] and svc.damaged == {}
