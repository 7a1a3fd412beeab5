"""A long game's history on the phones: the History tab moves little over the Wi-Fi at each
move (newest lines first, a page at a time, compressed), and the API pages on request."""

from __future__ import annotations

import gzip
import random
from pathlib import Path
from typing import Any

from bench_engine import game_setup, random_command, random_game
from flask import Flask
from page_driver import ARGS, CHROMIUM, expect, new_phone, running_server
from web_helpers import PIN, FakeHardware, Phone

from companion.engine.types import Command
from companion.service import game
from companion.service.game_service import GameService
from web import create_app

LONG = 600
"""Commands in the long game (a whole evening of Mario on four phones)."""


def long_game(service: GameService, commands: int = LONG) -> str:
    """A four-player Mario game of ``commands`` commands, played as the engine's benchmark
    plays (scripts/bench_engine.py: seed 3 lasts 700)."""
    played: list[Command] = []
    random_game(3, 4, max_commands=commands, played=played)
    gid = service.create_game(game_setup(3, 4, "mario").to_json()).game_id
    for command in played:
        out = service.submit(gid, command)
        assert out.ok, out.error
    return str(gid)


def app_for(service: GameService) -> Flask:
    return create_app(service, hardware=FakeHardware(), config={"banker_pin": PIN})


def test_the_history_is_paged_newest_first(tmp_path: Path) -> None:
    with GameService(tmp_path) as service:
        gid = long_game(service, 120)
        phone = Phone(app_for(service).test_client()).login()
        whole = phone.get(f"/api/games/{gid}/history").get_json()
        first = phone.get(f"/api/games/{gid}/history?limit=50").get_json()
        assert first == whole[:50], "the newest 50 lines, newest first"
        older = phone.get(f"/api/games/{gid}/history?limit=50&before={first[-1]['seq']}")
        assert older.get_json() == whole[50:100]
        for bad in ("limit=0", "limit=-3", "limit=x", "before=abc", "limit=100000000000000"):
            r = phone.get(f"/api/games/{gid}/history?{bad}")
            assert r.status_code == 400, bad
            assert "limit" in r.get_json()["error"] or "before" in r.get_json()["error"]


def test_answers_are_compressed_for_a_phone_that_accepts_it(tmp_path: Path) -> None:
    with GameService(tmp_path) as service:
        gid = long_game(service, 60)
        phone = Phone(app_for(service).test_client()).login()
        for path in (f"/api/games/{gid}/history", "/static/app.js", "/"):
            plain = phone.get(path)
            packed = phone.get(path, headers={"Accept-Encoding": "gzip, deflate"})
            assert plain.headers.get("Content-Encoding") is None
            assert packed.headers["Content-Encoding"] == "gzip", path
            assert "Accept-Encoding" in packed.headers["Vary"]
            assert gzip.decompress(packed.get_data()) == plain.get_data(), path
            assert len(packed.get_data()) < len(plain.get_data()) / 2, path
            plain.close()
        events = phone.get(f"/api/games/{gid}/events", headers={"Accept-Encoding": "gzip"},
                           buffered=False)
        assert events.headers.get("Content-Encoding") is None, "a live stream is never held"
        events.close()


def test_the_history_tab_of_a_long_game_moves_little_per_update(tmp_path: Path,
                                                                pw: Any) -> None:
    """The tab is open on a phone while the table plays a 600-command game: each move costs
    the phone under 100 KB of history over the Wi-Fi (it was 1.3 MB, 65 KB gzipped)."""
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    try:
        with running_server(tmp_path) as (base, service):
            gid = long_game(service)
            code = service.view(gid, None)["join_code"]
            page = new_phone(browser, [])
            got: list[tuple[str, int]] = []
            page.on("requestfinished", lambda r: got.append(
                (r.url, r.sizes()["responseBodySize"])) if "/history" in r.url else None)
            page.goto(f"{base}/?code={code}")
            page.get_by_role("button", name="Join", exact=True).click()
            page.locator("#tab-history").click()
            lines = page.locator("ol.hist > li")
            newest = f"h{len(service.history(gid))}"
            expect()(lines.first).to_have_attribute("data-anchor", newest)
            got.clear()
            _, state = service.state(gid)
            with page.expect_request_finished(lambda r: "/history?" in r.url):
                out = service.submit(gid, random_command(random.Random(1),
                                                         game.legal_actions(state)))
                assert out.ok, out.error
                newest = f"h{len(service.history(gid))}"  # the move's last line, on top
                expect()(lines.first).to_have_attribute("data-anchor", newest)
            moved = sum(size for _, size in got)
            assert moved < 100_000, f"{moved} bytes of history for one move: {got}"
            shown = lines.count()
            assert shown < len(service.history(gid)), "the newest lines, not the whole game"
            page.get_by_role("button", name="Show earlier moves").click()
            page.wait_for_function(f"() => document.querySelectorAll('ol.hist > li').length"
                                   f" > {shown}")
            assert lines.nth(0).get_attribute("data-anchor") == f"h{len(service.history(gid))}"
    finally:
        browser.close()
