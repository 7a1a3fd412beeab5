"""Fuzz every operation of /api/openapi.json with schemathesis: no server error, ever."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from web_helpers import PIN, FakeHardware

from companion.service.game_service import GameService
from web import create_app

_tmp = tempfile.TemporaryDirectory()
SERVICE = GameService(Path(_tmp.name)).start()
APP = create_app(SERVICE, hardware=FakeHardware(),
                 config={"banker_pin": PIN, "stream_seconds": 0.05, "heartbeat": 0.05})
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", APP)
_state: dict[str, Any] = {}


@pytest.fixture(scope="module", autouse=True)
def _banker() -> Iterator[None]:
    client = APP.test_client()
    csrf = client.get("/api/session").get_json()["csrf"]
    client.post("/api/banker/login", json={"pin": PIN}, headers={"X-CSRF-Token": csrf})
    out = client.post("/api/games", json={"edition": "mario", "players": ["A", "B"], "seed": 3},
                      headers={"X-CSRF-Token": csrf}).get_json()
    cookie = client.get_cookie("companion")
    assert cookie is not None
    _state.update(csrf=csrf, cookie=cookie.value, game=out["game_id"])
    yield
    _state["errors"] = 0


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors(case: Any) -> None:
    if case.path_parameters and "game_id" in case.path_parameters and hash(str(case.body)) % 4:
        case.path_parameters["game_id"] = _state["game"]  # mostly a real game
    headers = {"Host": "localhost", "X-CSRF-Token": _state["csrf"]}
    resp = case.call(headers=headers, cookies={"companion": _state["cookie"]})
    assert resp.status_code < 500, (case.method, case.path, case.body, resp.text[:300])
    if resp.status_code >= 400 and "json" in resp.headers.get("Content-Type", [""])[0]:
        body = resp.json()
        assert set(body) >= {"error", "code"}, body
