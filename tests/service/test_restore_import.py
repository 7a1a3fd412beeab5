"""Restore and import never write under a running service, and an import must be whole."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.service.game_service import GameService

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from reliability.damage import play  # noqa: E402
from reliability.harness import Phone, Server, new_game  # noqa: E402

SETUP = {"edition": "mario", "players": ["Mario", "Luigi"], "dice": "physical", "seed": 5}


def companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.app.cli", *args], capture_output=True,
                          text=True, timeout=120)


def test_restore_and_import_are_refused_while_the_service_runs(tmp_path: Path) -> None:
    state = tmp_path / "state"
    export = tmp_path / "game.jsonl"
    with GameService(state) as svc:
        svc.create_game(SETUP)
    backup = companion("backup", "--state-dir", str(state))
    assert backup.returncode == 0, backup.stdout + backup.stderr
    backup_file = backup.stdout.split("Backup written to ", 1)[1].strip()
    with Server(state) as srv, Phone(srv.url) as banker:
        banker.login()
        game, _, _ = new_game(banker, 2)
        export.write_text(banker.client.get(f"/api/games/{game}/export").text)
        before = banker.view(game)["version"]
        # the service holds the database alone: another program is told how, not hung
        again = companion("backup", "--state-dir", str(state))
        assert again.returncode == 1 and "companion run (process" in again.stdout
        assert "backup by itself every time a game ends" in again.stdout
        cli_export = companion("export", game, "--state-dir", str(state))
        assert cli_export.returncode == 2 and "/api/games/<id>/export" in cli_export.stderr

        restore = companion("restore", backup_file, "--state-dir", str(state))
        assert restore.returncode == 1
        assert "refused" in restore.stdout and "companion run (process" in restore.stdout
        assert "systemctl stop companion" in restore.stdout
        imported = companion("import", str(export), "--state-dir", str(state))
        assert imported.returncode == 2
        assert "refused" in imported.stderr and "companion run (process" in imported.stderr

        assert banker.view(game)["version"] == before, "nothing was written under the service"
        assert len(banker.get("/api/games")) == 2
    # Stopped: now both go ahead.
    assert companion("restore", backup_file, "--state-dir", str(state)).returncode == 0
    done = companion("import", str(export), "--state-dir", str(tmp_path / "elsewhere"))
    assert done.returncode == 0, done.stderr


@pytest.fixture
def exported(tmp_path: Path) -> list[str]:
    with GameService(tmp_path / "a") as svc:
        gid = svc.create_game(SETUP).game_id
        assert play(svc, gid, 20) == 20
        return list(svc.export(gid))


def import_lines(tmp_path: Path, lines: list[str]) -> tuple[bool, str]:
    with GameService(tmp_path / "b") as svc:
        out = svc.import_game(lines)
        return out.ok, out.error


def test_a_whole_export_imports(tmp_path: Path, exported: list[str]) -> None:
    ok, error = import_lines(tmp_path, exported)
    assert ok, error


def test_an_export_with_events_missing_in_the_middle_is_refused(
        tmp_path: Path, exported: list[str]) -> None:
    seqs = [json.loads(line)["seq"] for line in exported[1:]]
    assert seqs == list(range(1, len(seqs) + 1))
    damaged = exported[:1] + [line for line in exported[1:]
                              if not 12 <= json.loads(line)["seq"] <= 15]
    ok, error = import_lines(tmp_path, damaged)
    assert not ok
    assert "12 to 15 are missing" in error and "Nothing was imported" in error
    with GameService(tmp_path / "b") as svc:
        assert svc.games() == []


def test_an_export_cut_short_or_altered_is_refused(tmp_path: Path,
                                                   exported: list[str]) -> None:
    ok, error = import_lines(tmp_path, exported[:-3])
    assert not ok and "missing at the end" in error
    row = json.loads(exported[5])
    row["say"] = row.get("say", "") + " (edited)"
    altered = exported[:5] + [json.dumps(row)] + exported[6:]
    ok, error = import_lines(tmp_path, altered)
    assert not ok and "differs from what the rules decide" in error


def test_an_old_export_without_counts_is_still_checked_for_gaps(
        tmp_path: Path, exported: list[str]) -> None:
    head = json.loads(exported[0])
    old_head = json.dumps({k: head[k] for k in ("game", "edition", "title", "join_code")})
    ok, error = import_lines(tmp_path, [old_head, *exported[1:8], *exported[10:]])
    assert not ok and "8 to 9 are missing" in error
    ok, error = import_lines(tmp_path, [old_head, *exported[1:]])
    assert ok, error
