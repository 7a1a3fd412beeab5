"""Damaged files at start-up: one bad game never blocks the others, and every problem is said
in words (on the OLED through the notice path, on the page, in the journal)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.service.game_service import GameDamaged, GameService
from companion.service.table import Table
from companion.store.database import StoreError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from reliability.damage import damage_pages_of, play  # noqa: E402

HEALTHY = {"edition": "mario", "players": ["Mario", "Luigi"], "dice": "physical", "seed": 1}
DOOMED = {"edition": "mario", "players": ["Zorglubina", "Quixotella", "Wolfhilde"],
          "dice": "physical", "seed": 2}


def two_games_one_damaged(state_dir: Path) -> tuple[str, str]:
    """A healthy game and a long one whose log has a page of garbage in the middle."""
    with GameService(state_dir) as svc:
        healthy = svc.create_game(HEALTHY).game_id
        doomed = svc.create_game(DOOMED).game_id
        assert play(svc, doomed, 150) > 100
        assert play(svc, healthy, 10, seed=3) == 10
    damage_pages_of(state_dir / "companion.db", "Quixotella")
    return healthy, doomed


class Screen:
    """The OLED as the table drives it: what it was last asked to show."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def show_error(self, text: str) -> None:
        self.errors.append(text)

    def signal(self, kind: str) -> None:
        pass

    def show(self, view: Any) -> None:
        pass

    def show_join(self, url: str, code: str) -> None:
        pass


def test_a_damaged_game_does_not_stop_the_others(tmp_path: Path) -> None:
    healthy, doomed = two_games_one_damaged(tmp_path)
    with GameService(tmp_path) as svc:
        version = svc.state(healthy)[0]
        out = svc.submit(healthy, {"actor": "banker", "type": "end_game"})
        assert out.ok and out.version > version, "the healthy game goes on"
        listed = {g["id"]: g for g in svc.games()}
        assert listed[doomed]["status"] == "damaged"
        assert "restore a backup" in listed[doomed]["problem"].lower()
        assert listed[healthy]["status"] != "damaged"
        with pytest.raises(GameDamaged, match="damaged"):
            svc.record(doomed)


def test_the_damaged_game_is_named_on_the_oled(tmp_path: Path) -> None:
    _, doomed = two_games_one_damaged(tmp_path)
    screen = Screen()
    with GameService(tmp_path) as svc:
        Table(svc, screen)
    assert len(screen.errors) == 1
    text = screen.errors[0]
    assert doomed in text and "Monopoly" in text and "other games are fine" in text


def test_a_damaged_list_of_games_is_a_clear_refusal_not_a_traceback(tmp_path: Path) -> None:
    with GameService(tmp_path) as svc:
        svc.create_game(HEALTHY)
    db = tmp_path / "companion.db"
    data = bytearray(db.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # page 1 after the header: the schema
    db.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="companion restore"):
        GameService(tmp_path)


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory another user can enter (pytest's own tmp_path is private to root)."""
    path = Path(tempfile.mkdtemp(prefix="companion-ro-"))
    path.chmod(0o755)
    yield path
    path.chmod(0o755)
    for child in path.iterdir():
        child.chmod(0o755)
    shutil.rmtree(path)


def test_a_read_only_state_dir_is_not_called_damaged(shared_dir: Path) -> None:
    state = shared_dir / "state"
    with GameService(state) as svc:
        svc.create_game(HEALTHY)
    for item in state.iterdir():
        item.chmod(0o644)
    state.chmod(0o555)
    cmd = [sys.executable, "-c", "import sys; from companion.app.cli import main; "
           f"sys.exit(main(['play', '--script', {str(EXAMPLE)!r}, '--state-dir', {str(state)!r}]))"]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("cannot drop root here")
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode != 0
    assert "read-only" in done.stderr, done.stderr
    assert "damaged" not in done.stderr.replace("not damaged", "")
    assert "Traceback" not in done.stderr


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mario-two-players.json"
