"""The table end to end in one process: simulated hardware, the tag registry, the game service
and the page's API. Taps go through the same reader -> tap detector -> table path as on a Pi."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from web_helpers import PIN, Phone, open_banker_form

from companion.service.game_service import GameService
from companion.service.table import Table
from hardware.table import TableHardware
from web import create_app


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    service = GameService(tmp_path).start()
    holder: dict[str, Table] = {}
    hw = TableHardware.from_config({}, on_tap=lambda r, u: holder["t"].tap(r, u),
                                   on_action=lambda a, e: holder["t"].press_action(a, e),
                                   simulate=True)
    holder["t"] = Table(service, hw)
    hw.start()
    yield holder["t"]
    hw.stop()
    service.stop()


@pytest.fixture
def banker(table: Table) -> Phone:
    app: Flask = create_app(table.service, hardware=table.hardware,
                            config={"banker_pin": PIN, "table": table})
    return Phone(app.test_client()).login()


def wait_for(check: Any, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.02)
    raise AssertionError("timed out")


def tap(banker: Phone, uid: str) -> None:
    r = banker.post("/api/tap", {"role": "table", "uid": uid})
    assert r.status_code == 200, r.get_json()
    time.sleep(0.45)  # the tag lies on the pad, then is lifted (the removal window passes)


def test_enrolling_walks_the_banker_through_each_object(banker: Phone, table: Table) -> None:
    """Enrolling asks for each object in turn; each tap names the next one; a tag already
    enrolled to another object is refused."""
    assert banker.post("/api/enrollment", {"edition": "mario"}).status_code == 200
    first = banker.get("/api/tags?edition=mario").get_json()["progress"]
    assert first["done"] == 0 and first["prompt"]["say"].startswith("Tap the Super Mushroom token")
    assert first["prompt"]["msg"] == "Tap {object}"  # a message: each phone reads its language
    tap(banker, "04A1B2C3D4E5F6")
    wait_for(lambda: table.progress_for("mario")["done"] == 1)
    progress = banker.get("/api/tags?edition=mario").get_json()["progress"]
    assert progress["prompt"]["say"].startswith("Tap the Toad's Frying Pan token")
    tap(banker, "04A1B2C3D4E5F6")  # the same sticker again: refused, nothing changes
    wait_for(lambda: table.last_notice is not None and "already" in table.last_notice["text"])
    assert table.progress_for("mario")["done"] == 1
    banker.post("/api/enrollment", {"edition": "mario", "move": True})
    tap(banker, "04A1B2C3D4E5F6")  # the banker chose to move it: now the frying pan
    wait_for(lambda: table.registry.lookup("04A1B2C3D4E5F6") == (
        "mario", "token:Toad's Frying Pan"))
    assert banker.post("/api/enrollment", {"edition": None}).get_json() == {"enrolling": None}
    assert banker.post("/api/enrollment", {"edition": "risk"}).status_code == 400


def test_a_token_tap_rolls_for_its_player_and_an_unknown_tag_changes_nothing(
        banker: Phone, table: Table) -> None:
    """During play a token's tap answers for its player (digital dice: it rolls); a tag the
    companion does not know, or a token whose player is not asked, changes nothing and says why."""
    table.registry.enroll("04000000000001", "mario", "token:Super Mushroom")
    table.registry.enroll("04000000000002", "mario", "token:DK Barrel")
    r = banker.post("/api/games", {"edition": "mario", "dice": "digital", "seed": 4,
                                   "settings": {"order": "seated"},
                                   "players": [{"name": "Mario", "token": "Super Mushroom"},
                                               {"name": "Luigi", "token": "DK Barrel"}]})
    gid = r.get_json()["game_id"]
    version = table.service.view(gid)["version"]
    tap(banker, "04000000000002")  # Luigi's token: it is Mario's turn
    wait_for(lambda: table.last_notice is not None and "Luigi" in table.last_notice["text"])
    assert table.service.view(gid)["version"] == version
    tap(banker, "04999999")  # not enrolled
    wait_for(lambda: "Unknown tag" in (table.last_notice or {}).get("text", ""))
    assert table.service.view(gid)["version"] == version
    tap(banker, "04000000000001")  # Mario's token: Mario rolls
    wait_for(lambda: table.service.view(gid)["version"] > version)
    assert table.service.view(gid)["last_roll"]
    assert banker.get("/api/oled.png").data[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_virtual_tap_on_an_unknown_reader_is_a_clear_400(banker: Phone) -> None:
    """Naming a reader that does not exist is refused with the known roles."""
    r = banker.post("/api/tap", {"role": "moon", "uid": "04A1B2C3"})
    assert r.status_code == 400 and "moon" in r.get_json()["error"]


def test_tokens_tapped_at_setup_are_reported_for_the_form(banker: Phone, table: Table) -> None:
    """Before a game starts, the banker taps each player's token: the page learns which
    enrolled token was tapped (unknown tags say so), to fill the players' token choices."""
    table.registry.enroll("04000000000003", "mario", "token:Mario's Cap")
    assert banker.get("/api/tags/last").get_json() == {"tap": None}
    tap(banker, "04000000000003")
    wait_for(lambda: banker.get("/api/tags/last").get_json()["tap"] is not None)
    last = banker.get("/api/tags/last").get_json()["tap"]
    assert (last["edition"], last["object"]) == ("mario", "token:Mario's Cap")
    tap(banker, "04000000000004")
    wait_for(lambda: banker.get("/api/tags/last").get_json()["tap"]["n"] == last["n"] + 1)
    assert banker.get("/api/tags/last").get_json()["tap"]["object"] is None


def test_a_virtual_tap_reaches_only_the_game_the_table_serves(banker: Phone, table: Table) -> None:
    """Two games: the table serves the newest. A virtual tap sent from the older game's page
    is refused with a message naming the served game (it used to land in the newest game);
    once the banker switches the table to the older game, the same tap plays there."""
    table.registry.enroll("04000000000001", "mario", "token:Super Mushroom")
    setup = {"edition": "mario", "dice": "digital", "seed": 4, "settings": {"order": "seated"},
             "players": [{"name": "Mario", "token": "Super Mushroom"},
                         {"name": "Luigi", "token": "DK Barrel"}]}
    older = banker.post("/api/games", setup).get_json()["game_id"]
    newer = banker.post("/api/games", setup).get_json()["game_id"]
    assert banker.get("/api/table").get_json()["served"]["game_id"] == newer
    r = banker.post("/api/tap", {"role": "table", "uid": "04000000000001", "game_id": older})
    assert r.status_code == 409
    assert newer in r.get_json()["error"] and "Serve this game" in r.get_json()["error"]
    time.sleep(0.45)
    assert not table.service.view(newer)["last_roll"]  # nothing reached the newest game
    r = banker.post("/api/table", {"game_id": older})
    assert r.status_code == 200 and r.get_json()["served"]["game_id"] == older
    games = {g["id"]: g["active"] for g in banker.get("/api/games").get_json()}
    assert games[older] and not games[newer]
    version = table.service.view(older)["version"]
    tap_for(banker, older, "04000000000001")
    wait_for(lambda: table.service.view(older)["version"] > version)
    assert banker.post("/api/table", {"game_id": "nope"}).status_code == 404
    assert banker.post("/api/table", {"game_id": 7}).status_code == 400


def tap_for(banker: Phone, game_id: str, uid: str) -> None:
    r = banker.post("/api/tap", {"role": "table", "uid": uid, "game_id": game_id})
    assert r.status_code == 200, r.get_json()
    time.sleep(0.45)


def test_the_page_says_which_device_is_missing_until_it_is_back(tmp_path: Path) -> None:
    """An OLED missing at start: the companion runs, GET /api/table says the screen is not
    working and why; plugged in, it says it works again."""
    from hardware.display import FakeI2C

    bus = FakeI2C()
    bus.unplug()
    now = [0.0]
    service = GameService(tmp_path).start()
    hw = TableHardware.from_config(
        {"readers": [{"role": "table", "kind": "fake"}], "display": {"kind": "ssd1306"},
         "buttons": {"kind": "mock"}, "feedback": {"kind": "mock"}},
        on_tap=lambda r, u: None, on_action=lambda a, e: None, display_serial=bus,
        clock=lambda: now[0])
    try:
        table = Table(service, hw)
        app = create_app(service, hardware=hw, config={"banker_pin": PIN, "table": table})
        phone = Phone(app.test_client()).login()
        devices = {d["name"]: d for d in phone.get("/api/table").get_json()["devices"]}
        assert devices["screen"]["working"] is False
        assert "Remote I/O error" in devices["screen"]["message"]["say"]
        assert devices["buttons"]["working"] and devices["lights and buzzer"]["working"]
        bus.replug()
        now[0] = 1.0
        hw.tick()
        devices = {d["name"]: d for d in phone.get("/api/table").get_json()["devices"]}
        assert devices["screen"]["working"] is True
        assert devices["screen"]["message"]["say"] == "screen ready"
        assert Phone(app.test_client()).get("/api/table").status_code == 403
    finally:
        hw.stop()
        service.stop()


def test_the_banker_switches_the_table_to_this_game_on_the_page(tmp_path: Path) -> None:
    """In a real browser: the banker, on an older game's page, reads that the table serves
    another game and each device's state, and makes the table serve this game with a click."""
    import shutil
    import threading

    playwright_api = pytest.importorskip("playwright.sync_api")
    if not shutil.which("/usr/bin/chromium"):
        pytest.skip("needs Debian's chromium")
    from web.server import make_server

    service = GameService(tmp_path).start()
    hw = TableHardware.from_config({}, on_tap=lambda r, u: None, on_action=lambda a, e: None,
                                   simulate=True)
    table = Table(service, hw)
    setup = {"edition": "mario", "players": ["Mario", "Luigi"], "seed": 1}
    older = service.create_game(setup).game_id
    newer = service.create_game(setup).game_id
    app = create_app(service, hardware=hw, config={"banker_pin": PIN, "table": table})
    srv = make_server(app, "127.0.0.1", 0, threads=8)
    threading.Thread(target=srv.run, daemon=True).start()
    base = f"http://127.0.0.1:{srv.effective_port}"
    try:
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                        args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
            page.set_default_timeout(20000)
            page.goto(base + "/")
            open_banker_form(page)
            page.fill("#pin", PIN)
            page.get_by_role("button", name="Log in").click()
            playwright_api.expect(page.locator("#who")).to_have_text("Banker")
            page.goto(f"{base}/?game={older}")
            page.get_by_role("tab", name="Banker").click()
            status = page.locator("#table-status")
            playwright_api.expect(status).to_contain_text("serves another game: Monopoly")
            playwright_api.expect(status).not_to_contain_text(newer)  # no internal id (#29)
            playwright_api.expect(status).to_contain_text("screen: working")
            page.locator("#serve-game").click()
            playwright_api.expect(page.locator("#table-status")).to_contain_text(
                "The table serves this game.")
            browser.close()
        assert table.served_game() == older
    finally:
        srv.close()
        hw.stop()
        service.stop()
