"""Fixtures for the web tests: a started service on a temp dir, the app and logged-in clients;
Playwright and a headless Chromium (Debian's, never a downloaded one) for the page tests."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from page_driver import ARGS, CHROMIUM
from web_helpers import PIN, FakeHardware, Phone

from companion.service.game_service import GameService
from web import create_app


@pytest.fixture
def service(tmp_path: Path) -> Iterator[GameService]:
    with GameService(tmp_path) as svc:
        yield svc


@pytest.fixture
def hardware() -> FakeHardware:
    return FakeHardware()


@pytest.fixture
def app(service: GameService, hardware: FakeHardware) -> Flask:
    return create_app(service, hardware=hardware, config={"banker_pin": PIN, "pin_lock": 60,
                                                          "stream_seconds": 2, "heartbeat": 0.5})


@pytest.fixture
def phone(app: Flask) -> Callable[[], Phone]:
    return lambda: Phone(app.test_client())


@pytest.fixture
def banker(app: Flask) -> Phone:
    return Phone(app.test_client()).login()


@pytest.fixture
def game(banker: Phone) -> dict[str, Any]:
    r = banker.post("/api/games", {"edition": "mario", "players": ["Mario", "Luigi"], "seed": 1})
    assert r.status_code == 201, r.get_json()
    gid = r.get_json()["game_id"]
    code = banker.get(f"/api/games/{gid}").get_json()["join_code"]
    return {"id": gid, "code": code}




@pytest.fixture(scope="module")
def pw() -> Iterator[Any]:
    """Playwright, for a test that launches its own Chromium; skips where it cannot run."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not shutil.which(CHROMIUM):
        pytest.skip("needs Debian's chromium")
    with sync_api.sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(pw: Any) -> Iterator[Any]:
    """One headless Chromium for a test file; each phone is a context of its own."""
    b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    yield b
    b.close()
