"""``companion import`` decides every recorded command again with the rules and refuses a log
whose events differ (issue #26 item 8): a hash in the file proves nothing, since whoever
edits the file can recompute it."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.service.game_service import GameService

SETUP = {"edition": "mario", "players": ["Mario", "Luigi"], "dice": "physical", "seed": 5,
         "settings": {"order": "seated"}}


def legal(service: GameService, gid: str) -> dict:
    action = service.view(gid)["actions"][0]
    args = dict(action["args"])
    if action.get("input", {}).get("kind") == "dice":
        args["dice"] = [1, 2][: action["input"]["count"]]
    return {"actor": action["actor"], "type": action["type"], "args": args}


@pytest.fixture
def exported(tmp_path: Path) -> list[str]:
    """A game of 30 commands with an undo in the middle, exported."""
    with GameService(tmp_path / "home") as svc:
        gid = svc.create_game(SETUP).game_id
        for n in range(30):
            assert svc.submit(gid, legal(svc, gid)).ok
            if n == 12:
                assert svc.undo(gid).ok
        return list(svc.export(gid))


def forged(head_line: str, rows: list[dict]) -> list[str]:
    """An export whose first line was recomputed to match edited rows (as a forger would)."""
    lines = [json.dumps(r) for r in rows]
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode() + b"\n")
    head = {**json.loads(head_line), "events": len(lines), "version": rows[-1]["seq"],
            "sha256": h.hexdigest()}
    return [json.dumps(head), *lines]


def imported(tmp_path: Path, lines: list[str]) -> tuple[bool, str, list[dict]]:
    with GameService(tmp_path / "away") as svc:
        out = svc.import_game(lines)
        return out.ok, out.error, svc.games()


def test_a_whole_export_with_an_undo_imports_as_the_same_game(tmp_path: Path,
                                                              exported: list[str]) -> None:
    ok, error, games = imported(tmp_path, exported)
    assert ok, error
    with GameService(tmp_path / "home") as home, GameService(tmp_path / "away") as away:
        gid = games[0]["id"]
        assert gid == json.loads(exported[0])["game"]  # the game keeps its id
        assert away.state(gid) == home.state(gid)
        assert away.commands(gid) == home.commands(gid)  # undo works on it as at home
        assert away.undo(gid).ok


def test_an_edited_event_with_its_hash_recomputed_is_refused(tmp_path: Path,
                                                              exported: list[str]) -> None:
    rows = [json.loads(line) for line in exported[1:]]
    paid = next(r for r in rows if r["type"].startswith("money") or "coins" in r["say"])
    paid["data"] = {**paid["data"], **{k: -999_969 for k, v in paid["data"].items()
                                       if isinstance(v, int) and not isinstance(v, bool)}}
    ok, error, games = imported(tmp_path, forged(exported[0], rows))
    assert not ok and f"Event {paid['seq']} differs" in error and "Nothing" in error
    assert games == []


def test_reordered_events_with_a_forged_head_are_refused(tmp_path: Path,
                                                          exported: list[str]) -> None:
    rows = [json.loads(line) for line in exported[1:]]
    a, b = 6, 7  # two events of different commands swapped, then renumbered
    while rows[a]["cmd"] == rows[b]["cmd"]:
        a, b = a + 1, b + 1
    rows[a], rows[b] = rows[b], rows[a]
    for n, r in enumerate(rows, 1):
        r["seq"] = n
    ok, error, games = imported(tmp_path, forged(exported[0], rows))
    assert not ok and "Nothing was imported" in error
    assert games == []


def test_a_log_cut_inside_a_command_with_a_forged_head_is_refused(
        tmp_path: Path, exported: list[str]) -> None:
    rows = [json.loads(line) for line in exported[1:]]
    last = rows[-1]["cmd"]
    cut = len(rows) - 1
    while rows[cut - 1]["cmd"] != last or rows[cut]["cmd"] != last:
        cut -= 1  # the last event of a command that made several
        last = rows[cut]["cmd"]
    ok, error, games = imported(tmp_path, forged(exported[0], rows[:cut]))
    assert not ok and "by the rules but the file has" in error
    assert games == []


def test_the_same_export_imported_three_times_is_one_game(tmp_path: Path,
                                                          exported: list[str]) -> None:
    with GameService(tmp_path / "away") as svc:
        first = svc.import_game(exported)
        assert first.ok, first.error
        for _ in range(2):
            again = svc.import_game(exported)
            assert not again.ok and "already here" in again.error
        renamed = [json.dumps({**json.loads(exported[0]), "game": "00000000"}), *exported[1:]]
        again = svc.import_game(renamed)  # another id in the head: the same start is known
        assert not again.ok and "already here" in again.error
        assert len(svc.games()) == 1


def test_an_export_from_before_commands_were_recorded_needs_unchecked(
        tmp_path: Path, exported: list[str]) -> None:
    rows = [{k: v for k, v in json.loads(line).items() if k != "command"}
            for line in exported[1:]]
    old = forged(exported[0], rows)
    ok, error, games = imported(tmp_path, old)
    assert not ok and "--unchecked" in error and games == []
    with GameService(tmp_path / "away") as svc:
        assert svc.import_game(old, unchecked=True).ok


def test_an_imported_game_starts_from_a_snapshot_not_a_replay(tmp_path: Path,
                                                               exported: list[str]) -> None:
    ok, error, games = imported(tmp_path, exported)
    assert ok, error
    db = sqlite3.connect(tmp_path / "away" / "companion.db")
    assert db.execute("SELECT seq FROM snapshots WHERE game_id = ?",
                      (games[0]["id"],)).fetchone() == (json.loads(exported[0])["version"],)


def test_a_file_over_the_size_bound_is_refused_before_reading(
        tmp_path: Path, exported: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from companion.service.exports import MAX_IMPORT_BYTES

    big = tmp_path / "big.jsonl"
    with big.open("w") as f:
        f.write("\n".join(exported) + "\n")
        f.truncate(MAX_IMPORT_BYTES + 1)  # sparse: no time spent writing it
    assert main(["import", str(big), "--state-dir", str(tmp_path / "away")]) == 2
    assert "Nothing was imported" in capsys.readouterr().err
    with GameService(tmp_path / "away") as svc:
        assert svc.games() == []
