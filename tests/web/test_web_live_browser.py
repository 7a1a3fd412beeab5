"""In Chromium: a phone that follows 50+ moves by patches shows exactly the view a fresh load
shows, and one whose stream dropped while the game moved recovers with the whole view."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_helpers import PIN

from companion.service.game_service import GameService
from web import create_app
from web.server import make_server

playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium")

COUNT_EVENTS = """
window.__live = {view: 0, patch: 0};
const add = EventSource.prototype.addEventListener;
EventSource.prototype.addEventListener = function (type, fn, opts) {
  return add.call(this, type, (ev) => { if (type in window.__live) window.__live[type]++;
                                         fn(ev); }, opts);
};
"""


@pytest.fixture
def world(tmp_path: Path) -> Iterator[dict[str, Any]]:
    with GameService(tmp_path) as service:
        app = create_app(service, config={"banker_pin": PIN, "stream_seconds": 600})
        srv = make_server(app, "127.0.0.1", 0, threads=8)
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        base = f"http://127.0.0.1:{srv.effective_port}"
        with httpx.Client(base_url=base, timeout=10) as c, \
                playwright_api.sync_playwright() as p:
            h = {"X-CSRF-Token": c.get("/api/session").json()["csrf"]}
            assert c.post("/api/banker/login", json={"pin": PIN}, headers=h).status_code == 200
            game = c.post("/api/games", headers=h, json={
                "edition": "mario", "players": ["Mario", "Luigi", "Peach"], "seed": 1}).json()
            view = c.get(f"/api/games/{game['game_id']}").json()
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            ctx = browser.new_context(viewport={"width": 360, "height": 740})
            ctx.set_default_timeout(20000)
            ctx.add_init_script(COUNT_EVENTS)
            page = ctx.new_page()
            page.goto(f"{base}/?code={view['join_code']}")
            page.get_by_role("button", name="Join", exact=True).click()
            page.wait_for_function("() => window.__live.view === 1")  # the stream's view
            ids = [pl["id"] for pl in view["players"]]

            def pay(i: int) -> int:
                r = c.post(f"/api/games/{game['game_id']}/commands", headers=h, json={
                    "actor": "banker", "type": "transfer", "args": {
                        "source": "bank", "to": ids[i % len(ids)], "amount": 1 + i % 40,
                        "reason": "rent"}})
                assert r.status_code == 200, r.text
                return int(r.json()["version"])

            yield {"base": base, "page": page, "ctx": ctx, "pay": pay, "game": game["game_id"]}
            browser.close()
        srv.close()
        thread.join(10)


def fresh_view(world: dict[str, Any]) -> Any:
    """What the same phone shows when it loads the page anew."""
    page = world["ctx"].new_page()
    page.goto(world["base"] + "/")
    page.wait_for_function("() => window.__live && window.__live.view > 0 && S.view")
    view = page.evaluate("S.view")
    page.close()
    return view


def test_a_phone_following_fifty_moves_by_patches_shows_what_a_fresh_load_shows(
        world: dict[str, Any]) -> None:
    page = world["page"]
    for i in range(55):
        version = world["pay"](i)
        page.wait_for_function(f"() => window.__version === {version}")
    page.wait_for_function("() => window.__live.patch === 55")
    counts = page.evaluate("window.__live")
    assert counts["view"] == 1, counts  # every move came as a patch
    assert page.evaluate("S.view") == fresh_view(world)


def test_a_phone_that_missed_moves_recovers_with_the_whole_view(
        world: dict[str, Any]) -> None:
    page = world["page"]
    world["pay"](0)
    page.wait_for_function("() => window.__live.patch === 1")
    # the Wi-Fi drops: the page's stream is cut while the game moves on
    page.evaluate("S.es.close()")
    for i in range(1, 6):
        version = world["pay"](i)
    page.evaluate("connect()")
    page.wait_for_function("() => window.__live.view === 2")  # the whole view, once
    assert page.evaluate("S.view.version") == version
    assert page.evaluate("S.view") == fresh_view(world)
