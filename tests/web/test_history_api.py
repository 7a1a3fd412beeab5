"""A game's story, its replay and the household's history over HTTP, on a real service and
SQLite file (docs/history.md)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from flask import Flask
from web_helpers import PIN, FakeHardware, Phone

from companion.platform.backup import export_db
from companion.service.game_service import GameService
from companion.service.script import parse_step
from web import create_app

ROOT = Path(__file__).resolve().parents[2]


class Clock:
    """The Pi's clock, moved by the test (a move every 30 s, a night's pause, a jump back)."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 30
        return self.now


def play(service: GameService, example: str, names: list[str] | None = None,
         clock: Clock | None = None, pause_at: int = -1) -> str:
    data = json.loads((ROOT / "examples" / example).read_text("utf-8"))
    setup = {k: v for k, v in data.items() if k != "steps"}
    if names:
        setup["players"] = [{"id": pid, "name": n} for pid, n in
                            zip([p.lower() for p in data["players"]], names, strict=True)]
    gid = service.create_game(setup).game_id
    for n, step in enumerate(data["steps"]):
        if clock is not None and n == pause_at:
            clock.now += 10 * 3600  # the game waits on the table overnight
        cmd = parse_step(service.state(gid)[1], step)
        out = service.submit(gid, {"actor": cmd.actor, "type": cmd.type, "args": cmd.args})
        assert out.ok, (step, out.error)
    return gid


def app_for(service: GameService) -> Flask:
    return create_app(service, hardware=FakeHardware(), config={"banker_pin": PIN})


def household_code(service: GameService) -> str:
    """A join code of this box (a game set up for tonight), as a guest at the table holds."""
    gid = service.create_game({"edition": "mario", "players": ["Ann", "Bo"]}).game_id
    return str(service.record(gid).join_code)


def member(app: Flask, service: GameService) -> Phone:
    """A phone that joined a game here with its code: one of the household (docs/history.md)."""
    phone = Phone(app.test_client())
    assert phone.post("/api/join", {"code": household_code(service)}).status_code == 200
    return phone


JOIN_IN_PAGE = """async (code) => {
  const s = await (await fetch("/api/session")).json();
  const r = await fetch("/api/join", {method: "POST", body: JSON.stringify({code}),
    headers: {"Content-Type": "application/json", "X-CSRF-Token": s.csrf}});
  return r.status;
}"""
"""What the page's join form does, run in a browser page (``page.evaluate(JOIN_IN_PAGE, code)``)."""


def test_a_finished_games_story_and_replay_for_the_household_only(tmp_path: Path) -> None:
    """Anyone who joined a game here with its code, or the banker, reads every finished game;
    a phone with no code and no PIN reads nothing of the household's past (issue 38)."""
    with GameService(tmp_path) as service:
        gid = play(service, "mario-two-players.json")
        app = app_for(service)
        stranger = Phone(app.test_client())
        for path in (f"/api/games/{gid}/story", f"/api/games/{gid}/replay",
                     f"/api/games/{gid}/rules", "/api/history", "/api/history/chart.svg"):
            refused = stranger.get(path)
            assert refused.status_code == 403, path
            assert "Join a game" in refused.get_json()["error"], path
        guest = member(app, service)
        told = guest.get(f"/api/games/{gid}/story").get_json()
        # a message, as the view's texts: its English beside its key and arguments
        assert told["headline"]["say"] == "Mario wins: Mario is the last player standing and wins!"
        assert told["headline"]["msg"] == "{players} wins: {reason}"
        laps = {p["name"]: next(x["value"] for x in p["lines"] if x["key"] == "laps")
                for p in told["players"]}
        assert laps == {"Mario": 3, "Luigi": 3}
        first = guest.get(f"/api/games/{gid}/replay?step=0&turns=1").get_json()
        assert first["replay"]["step"] == 0 and first["replay"]["last"] == 53
        assert first["finished"] is False and "actions" not in first
        assert first["replay"]["turns"][0]["step"] >= 1
        last = guest.get(f"/api/games/{gid}/replay").get_json()
        assert last["finished"] and last["winners"] == ["mario"]
        assert last["join_code"] == ""  # a guest is not given the code
        bad = guest.get(f"/api/games/{gid}/replay?step=54")
        assert bad.status_code == 400
        assert bad.get_json()["error"] == "There is no step 54: steps go from 0 to 53."
        assert guest.get(f"/api/games/{gid}/replay?step=x").status_code == 400
        assert guest.get("/api/games/nosuchgame/replay").status_code == 404
        assert guest.get("/api/history").get_json()["games"][0]["id"] == gid
        banker = Phone(app.test_client()).login()
        assert banker.get(f"/api/games/{gid}/replay").get_json()["join_code"]


def test_a_running_game_replays_for_the_banker_only(tmp_path: Path) -> None:
    with GameService(tmp_path) as service:
        app = app_for(service)
        banker = Phone(app.test_client()).login()
        gid = banker.post("/api/games", {"edition": "mario", "players": ["Zoë", "Дмитрий"],
                                         "dice": "physical", "seed": 3}).get_json()["game_id"]
        code = banker.get(f"/api/games/{gid}").get_json()["join_code"]
        player = Phone(app.test_client())
        zoe = banker.get(f"/api/games/{gid}").get_json()["players"][0]["id"]
        assert player.post("/api/join", {"code": code, "player": zoe}).status_code == 200
        assert player.get(f"/api/games/{gid}/story").status_code == 200
        refused = player.get(f"/api/games/{gid}/replay")
        assert refused.status_code == 403
        assert "banker" in refused.get_json()["error"]
        seen = banker.get(f"/api/games/{gid}/replay").get_json()
        live = banker.get(f"/api/games/{gid}").get_json()
        assert seen["players"] == live["players"] and seen["version"] == live["version"]
        assert Phone(app.test_client()).get(f"/api/games/{gid}/story").status_code == 403


def names_of(history: dict[str, Any]) -> dict[str, tuple[int, int]]:
    return {p["name"]: (p["games"], p["wins"]) for p in history["players"]}


def test_the_households_history_keeps_players_by_name_and_goes_into_the_backup(
        tmp_path: Path) -> None:
    clock = Clock()
    with GameService(tmp_path, clock=clock) as service:
        play(service, "mario-two-players.json", ["Zoë", "Дмитрий"], clock, pause_at=10)
        play(service, "monopolino-2-players.json", ["zoë ", "Дмитрий"], clock)
        app = app_for(service)
        history = member(app, service).get("/api/history").get_json()
        assert len(history["games"]) == 2
        assert history["games"][0]["edition"] == "monopolino"  # newest first
        # Zoë (Mario's seat) won the Mario game; the Monopolino game's winner is Anna's
        # seat, played by Zoë too: one player across both games, by name.
        assert names_of(history) == {"zoë": (2, 2), "Дмитрий": (2, 0)}
        mario = history["games"][1]
        assert mario["seconds"] == 52 * 30 + 900  # 53 moves 30 s apart; the night is 15 min
        assert {b["edition"]: b["games"] for b in history["boxes"]} == {"mario": 1,
                                                                        "monopolino": 1}
        svg = Phone(app.test_client()).login().get("/api/history/chart.svg")
        assert svg.mimetype == "image/svg+xml" and "Дмитрий" in svg.get_data(as_text=True)
    backup = export_db(tmp_path / "companion.db", tmp_path / "backups", "test")
    kept = sqlite3.connect(backup).execute("SELECT COUNT(*) FROM game_summaries").fetchone()
    assert kept == (2,)
    with GameService(tmp_path) as again:  # read back from the table, not recomputed
        again.call(lambda: again.store.conn.execute(
            "UPDATE game_summaries SET summary = json_set(summary, '$.turns', -1)"))
        history = Phone(app_for(again).test_client()).login().get("/api/history").get_json()
        assert [g["turns"] for g in history["games"]] == [-1, -1]


def test_a_master_trainer_game_the_banker_ends_gets_its_story_and_history_entry(
        tmp_path: Path) -> None:
    """A Master Trainer table that stops before the Elite Four: the banker ends it as in
    every edition, and it has an ending, a story and a place in the household's history."""
    data = json.loads((ROOT / "examples" / "master-trainer-two-players.json").read_text("utf-8"))
    with GameService(tmp_path) as service:
        gid = service.create_game({k: v for k, v in data.items() if k != "steps"}).game_id
        for step in data["steps"][:12]:
            cmd = parse_step(service.state(gid)[1], step)
            assert service.submit(gid, cmd.to_json()).ok
        app = app_for(service)
        banker = Phone(app.test_client()).login()
        ends = [a for a in banker.get(f"/api/games/{gid}").get_json()["actions"]
                if a["type"] == "end_game"]
        assert ends and ends[0]["actor"] == "banker"
        out = service.submit(gid, {"actor": "banker", "type": "end_game"})
        assert out.ok, out.error
        view = banker.get(f"/api/games/{gid}").get_json()
        assert view["finished"] and view["end_reason"]["say"].endswith("Power Points.")
        told = banker.get(f"/api/games/{gid}/story").get_json()
        assert told["finished"] and "Power Points" in told["headline"]["say"]
        history = banker.get("/api/history").get_json()
        assert [g["edition"] for g in history["games"]] == ["master-trainer"]


def test_the_history_page_is_served_with_no_external_assets(tmp_path: Path) -> None:
    with GameService(tmp_path) as service:
        page = Phone(app_for(service).test_client()).get("/history")
        html = page.get_data(as_text=True)
        assert page.status_code == 200 and "history.js" in html
        assert "http://" not in html and "https://" not in html


def test_rules_at_hand_for_a_phone_in_the_game(tmp_path: Path) -> None:
    with GameService(tmp_path) as service:
        app = app_for(service)
        banker = Phone(app.test_client()).login()
        gid = banker.post("/api/games", {"edition": "mario", "players": ["Zoë", "Дмитрий"],
                                         "settings": {"bowser_rest": "next_turn"}}
                          ).get_json()["game_id"]
        found = banker.get(f"/api/games/{gid}/rules?q=jail").get_json()
        assert found["results"] and all("jail" in (p["title"] + p["text"]).lower()
                                        for p in found["results"])
        rest = next(r for r in found["readings"] if r["id"] == "bowser-rest")
        assert "next turn" in rest["chosen"]
        assert Phone(app.test_client()).get(f"/api/games/{gid}/rules").status_code == 403
        assert banker.get(f"/api/games/{gid}/rules?q=" + "x" * 201).status_code == 400
        # in the phone's language: its own words find the passage, said in them, beside
        # the English quote it comes from (issue 41, item 4)
        es = banker.get(f"/api/games/{gid}/rules?q=cárcel",
                        headers={"Accept-Language": "es-ES,es;q=0.9"}).get_json()["results"]
        jail = next(p for p in es if p["id"] == "go-to-jail")
        assert "cárcel" in jail["summary"] and jail["text_lang"] == "en"
        assert jail["text"].startswith("When you land on this corner space")
        assert banker.get(f"/api/games/{gid}/rules?q=cárcel").get_json()["results"] == []


def test_the_rules_search_suggests_the_editions_own_words(tmp_path: Path) -> None:
    """The search field's example is the edition's (its message id, in its catalogue): a
    Star Wars table reads "Jail, auction, Force", never Mario's Bowser; each edition's
    example finds passages of its rules, and is said in Italian."""
    from companion.engine.i18n import Msg, render
    from companion.plugins.editions import available
    from companion.service import rules_lookup

    with GameService(tmp_path) as service:
        banker = Phone(app_for(service).test_client()).login()
        gid = banker.post("/api/games", {"edition": "starwars", "players": ["Leia", "Han"]}
                          ).get_json()["game_id"]
        example = banker.get(f"/api/games/{gid}/rules").get_json()["example"]
        assert render(Msg(example), "en") == "Jail, auction, Force"
        assert render(Msg(example), "it") == "prigione, asta, Forza"
    for edition in available():
        words = rules_lookup.search_example(edition)
        assert render(Msg(words), "it") != words, edition
        for word in words.split(", "):
            assert rules_lookup.search(edition, {}, word), (edition, word)


def test_the_wins_chart_speaks_the_readers_language(tmp_path: Path) -> None:
    """The chart's own words ("games played →", its label) follow the phone's language: its
    choice (the cookie), else its browser's (issue 41)."""
    clock = Clock()
    with GameService(tmp_path, clock=clock) as service:
        play(service, "mario-two-players.json", ["Zoë", "Ana"], clock)
        phone = Phone(app_for(service).test_client()).login()  # the household's banker
        client = phone.client
        svg = client.get("/api/history/chart.svg", headers={"Accept-Language": "es-ES"})
        text = svg.get_data(as_text=True)
        assert "partidas jugadas →" in text and "games played" not in text, text
        assert 'aria-label="Victorias a lo largo del tiempo"' in text
        client.set_cookie("companion.lang", "it")
        assert "partite giocate →" in client.get("/api/history/chart.svg").get_data(as_text=True)
        client.set_cookie("companion.lang", "qps")  # the pseudo-language: every word decorated
        qps = client.get("/api/history/chart.svg").get_data(as_text=True)
        assert "⟦games played →⟧" in qps and 'aria-label="⟦Wins over time⟧"' in qps
        assert "Vary" in svg.headers and "Accept-Language" in svg.headers["Vary"]
