"""Bad input and faults: clear messages in the journal and on the OLED, nothing lost."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from reliability import faults


def test_a_missing_config_exits_non_zero_saying_so(tmp_path: Path) -> None:
    out = faults.missing_config(tmp_path)
    assert out["exit"] != 0
    assert "does not exist" in out["message"] and "/nonexistent/companion.toml" in out["message"]


def test_a_corrupt_database_is_reported_and_left_alone(tmp_path: Path) -> None:
    out = faults.corrupt_database(tmp_path)
    assert out["exit"] != 0
    assert "companion restore" in out["message"]
    assert out["oled"] and "Database damaged" in out["oled"][0]
    assert out["file untouched"]


def test_an_unplugged_reader_is_in_the_journal_and_on_the_oled(tmp_path: Path) -> None:
    out = faults.unplugged_reader(tmp_path)
    assert out["journal"] and "retrying" in out["journal"][0]
    assert out["oled"] and out["oled"][0].startswith("Reader ")
    assert out["ok"]


@pytest.fixture(scope="module")
def full_disk(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if os.geteuid() != 0:
        pytest.skip("a tiny tmpfs needs root (tests/service covers max_page_count)")
    out = faults.full_disk(tmp_path_factory.mktemp("full"))
    if out["ok"] is None:
        pytest.skip(out["skipped"])
    return out


def test_a_full_disk_refuses_clearly_and_loses_nothing(full_disk: dict[str, Any]) -> None:
    assert full_disk["refused"]["code"] == "storage"
    assert "could not save" in full_disk["refused"]["error"]
    assert full_disk["journal"] and "could not save" in full_disk["journal"][0]
    assert full_disk["version unchanged while full"]
    assert full_disk["accepted after freeing space"]
    assert full_disk["acknowledged lost"] == 0 and full_disk["integrity"] == "ok"
    assert full_disk["OLED mirror is a PNG"]


def test_a_full_disk_shows_on_the_oled(full_disk: dict[str, Any]) -> None:
    assert full_disk["OLED changed on the refusal"]
