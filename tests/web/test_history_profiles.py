"""The household's history by box profile and by players, counted by hand, on a real service,
SQLite file and HTTP; kept across a backup and its restore (docs/history.md)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from test_history_api import JOIN_IN_PAGE, ROOT, Clock, app_for, household_code
from web_helpers import Phone

from companion.boxes.profiles import Profiles
from companion.platform.backup import export_db, restore_db
from companion.service.game_service import GameService
from companion.service.script import parse_step

MARIO = "Monopoly: The Super Mario Bros. Movie Edition"


def play(service: GameService, example: str, names: list[str], profile: str = "") -> str:
    """Play an example game to its end, its seats named ``names``, set up from ``profile``."""
    data = json.loads((ROOT / "examples" / example).read_text("utf-8"))
    setup: dict[str, Any] = {k: v for k, v in data.items() if k != "steps"}
    setup["players"] = [{"id": pid.lower(), "name": n}
                        for pid, n in zip(data["players"], names, strict=True)]
    if profile:
        setup["profile"] = profile
    out = service.create_game(setup)
    assert out.ok, out.error
    gid = str(out.game_id)
    for step in data["steps"]:
        cmd = parse_step(service.state(gid)[1], step)
        res = service.submit(gid, {"actor": cmd.actor, "type": cmd.type, "args": cmd.args})
        assert res.ok, (step, res.error)
    return gid


def household(service: GameService) -> None:
    """Three evenings, counted by hand from the example games: each move 30 s after the
    last (Mario's game: 53 moves, 1,590 s; Monopolino's: 35 moves, 1,050 s); the first seat
    wins both (Mario, Anna)."""
    for edition in ("mario", "monopolino"):
        service.call(lambda e=edition: Profiles(service.store.conn).save(
            {"edition": e, "name": "Granny box", "settings": {}}))
    play(service, "mario-two-players.json", ["Zoë", "Дмитрий"], "Granny box")
    play(service, "mario-two-players.json", ["Дмитрий", "ZOË"])
    play(service, "monopolino-2-players.json", ["“Anna” €", "zoë "], "Granny box")


def by_name(rows: list[dict[str, Any]]) -> dict[str, tuple[int, int, float]]:
    return {p["name"]: (p["games"], p["wins"], p["seconds"]) for p in rows}


def test_the_history_by_box_profile_and_by_players_counted_by_hand(tmp_path: Path) -> None:
    with GameService(tmp_path, clock=Clock()) as service:
        household(service)
        phone = Phone(app_for(service).test_client()).login()
        everything = phone.get("/api/history").get_json()
        assert [(g["edition"], g["profile"]) for g in everything["games"]] == [
            ("monopolino", "Granny box"), ("mario", ""), ("mario", "Granny box")]  # newest first
        assert by_name(everything["players"]) == {
            "zoë": (3, 1, 1590 * 2 + 1050), "Дмитрий": (2, 1, 1590 * 2),
            "“Anna” €": (1, 1, 1050)}
        profiles = {(p["edition"], p["profile"]): p for p in everything["profiles"]}
        assert set(profiles) == {("mario", "Granny box"), ("mario", ""),
                                 ("monopolino", "Granny box")}
        granny = profiles["mario", "Granny box"]
        assert (granny["games"], granny["seconds"], granny["title"]) == (1, 1590, MARIO)
        assert by_name(granny["players"]) == {"Zoë": (1, 1, 1590), "Дмитрий": (1, 0, 1590)}
        assert by_name(profiles["mario", ""]["players"]) == {
            "Дмитрий": (1, 1, 1590), "ZOË": (1, 0, 1590)}
        assert by_name(profiles["monopolino", "Granny box"]["players"]) == {
            "“Anna” €": (1, 1, 1050), "zoë": (1, 0, 1050)}

        # filtered: one box profile, the games without one, one player's games
        one = phone.get("/api/history?box=mario&profile=Granny box").get_json()
        assert [g["profile"] for g in one["games"]] == ["Granny box"]
        assert by_name(one["players"]) == {"Zoë": (1, 1, 1590), "Дмитрий": (1, 0, 1590)}
        plain = phone.get("/api/history?box=mario&profile=").get_json()
        assert [(g["edition"], g["profile"]) for g in plain["games"]] == [("mario", "")]
        mario = phone.get("/api/history?box=mario").get_json()
        assert len(mario["games"]) == 2
        assert by_name(mario["players"])["ZOË"] == (2, 1, 3180)
        anna = phone.get("/api/history?player=%E2%80%9CANNA%E2%80%9D%20%E2%82%AC").get_json()
        assert [g["edition"] for g in anna["games"]] == ["monopolino"]
        # the choices to filter by are always every profile and every player
        assert anna["choices"]["players"] == ["zoë", "Дмитрий", "“Anna” €"]
        assert {(c["edition"], c["profile"]) for c in anna["choices"]["profiles"]} == set(
            profiles)
        nobody = phone.get("/api/history?player=nobody").get_json()
        assert nobody["games"] == [] and nobody["players"] == []
        assert phone.get("/api/history?box=" + "x" * 81).status_code == 400


def test_the_history_comes_back_from_a_backup(tmp_path: Path) -> None:
    """`companion backup` carries the history (and which box profile each game used): a
    companion restored from it shows the same household."""
    with GameService(tmp_path / "home", clock=Clock()) as service:
        household(service)
        expected = Phone(app_for(service).test_client()).login().get("/api/history").get_json()
    backup = export_db(tmp_path / "home" / "companion.db", tmp_path / "backups", "test")
    (tmp_path / "new").mkdir()
    restore_db(backup, tmp_path / "new" / "companion.db")
    with GameService(tmp_path / "new") as again:
        got = Phone(app_for(again).test_client()).login().get("/api/history").get_json()
    assert got == expected
    assert {(p["edition"], p["profile"]) for p in got["profiles"]} == {
        ("mario", "Granny box"), ("mario", ""), ("monopolino", "Granny box")}


def test_the_history_page_by_box_profile_and_by_player(tmp_path: Path) -> None:
    """Two phones on /history in Chromium: each picks its own box profile or player; the
    household's figures follow (screenshot docs/screens/history-profiles.png)."""
    import shutil

    import pytest
    from page_driver import ARGS, CHROMIUM, expect, new_phone

    from web.server import make_server

    playwright_api = pytest.importorskip("playwright.sync_api")
    if not shutil.which(CHROMIUM):
        pytest.skip("needs Debian's chromium")
    errors: list[str] = []
    with GameService(tmp_path, clock=Clock()) as service, \
            playwright_api.sync_playwright() as p:
        household(service)
        code = household_code(service)
        srv = make_server(app_for(service), "127.0.0.1", 0, threads=8)
        threading.Thread(target=srv.run, daemon=True).start()
        base = f"http://127.0.0.1:{srv.effective_port}"
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        one, two = new_phone(browser, errors), new_phone(browser, errors)
        for page in (one, two):  # two guests who joined tonight's game with its code
            page.goto(f"{base}/history")
            assert page.evaluate(JOIN_IN_PAGE, code) == 200
            page.reload()
        profiles = one.get_by_role("region", name="By box profile")
        expect()(profiles.get_by_role("heading", name=f"{MARIO} · Granny box")).to_be_visible()
        expect()(profiles.get_by_role("heading", name=f"{MARIO} · no box profile")).to_be_visible()
        one.get_by_role("combobox", name="Box profile").select_option(
            label=f"{MARIO} · Granny box")
        games = one.get_by_role("region", name="Games")
        expect()(games.locator("li")).to_have_count(1)
        expect()(games).to_contain_text("(Granny box)")
        players = one.get_by_role("region", name="Players")
        expect()(players.locator("tbody tr")).to_have_count(2)
        expect()(players.locator("tbody tr").first).to_have_text("Zoë1127 min")  # 1,590 s
        assert "box=mario" in one.url and "profile=Granny" in one.url
        shots = ROOT / ("docs/screens" if __import__("os").environ.get("UPDATE_SCREENS")
                        else "artifacts/screenshots")
        shots.mkdir(parents=True, exist_ok=True)
        one.screenshot(path=str(shots / "history-profiles.png"), full_page=True)

        two.get_by_role("combobox", name="Player").select_option(label="“Anna” €")
        games2 = two.get_by_role("region", name="Games")
        expect()(games2.locator("li")).to_have_count(1)
        expect()(games2).to_contain_text("Monopolino")
        expect()(two.get_by_role("region", name="Players").locator("tbody tr")).to_have_count(2)
        expect()(games.locator("li")).to_have_count(1)  # the first phone's choice stays
        one.reload()  # the choice is in the address: a reload (or a shared link) keeps it
        expect()(one.get_by_role("combobox", name="Box profile")).to_have_value(
            "mario/Granny box")
        expect()(one.get_by_role("region", name="Games").locator("li")).to_have_count(1)
        browser.close()
        srv.close()
    assert errors == []
