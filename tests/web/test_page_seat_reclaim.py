"""Back in after a dead phone: a seat key shown once takes the seat over on a new phone; without
it the banker approves the request; wrong keys are refused and change nothing."""

from __future__ import annotations

from typing import Any

from web_helpers import Phone


def joined(phone: Phone, code: str, player: str | None = None) -> Phone:
    body = {"code": code, **({"player": player} if player else {})}
    assert phone.post("/api/join", body).status_code == 200
    return phone


def seats(phone: Phone, gid: str) -> dict[str, Any]:
    return {s["id"]: s for s in phone.get(f"/api/games/{gid}/seats").get_json()}


def test_seat_key_takes_the_seat_over(phone: Any, game: dict[str, Any]) -> None:
    gid = game["id"]
    old = joined(phone(), game["code"], "luigi")
    key = old.post(f"/seat/{gid}/key").get_json()
    assert key["player"] == "luigi" and len(key["key"]) == 14
    new = joined(phone(), game["code"])
    assert new.post("/api/join", {"code": game["code"], "player": "luigi"}).status_code == 409
    wrong = new.post(f"/seat/{gid}/reclaim", {"player": "luigi", "key": "0000-0000-0000"})
    assert wrong.status_code == 401 and seats(old, gid)["luigi"]["mine"]
    ok = new.post(f"/seat/{gid}/reclaim", {"player": "luigi", "key": key["key"].lower()})
    assert ok.status_code == 200 and ok.get_json() == {"player": "luigi", "pending": False}
    assert seats(new, gid)["luigi"]["mine"] and not seats(old, gid)["luigi"]["mine"]
    view = new.get(f"/api/games/{gid}").get_json()
    assert new.get("/api/session").get_json()["games"][gid] == "luigi"
    assert view["players"]


def test_banker_approves_a_request(phone: Any, banker: Phone, game: dict[str, Any]) -> None:
    gid = game["id"]
    joined(phone(), game["code"], "mario")
    new = joined(phone(), game["code"])
    assert new.post(f"/seat/{gid}/reclaim", {"player": "mario"}).get_json()["pending"] is True
    assert new.get(f"/seat/{gid}").get_json()["asking"] == ["mario"]
    assert banker.get(f"/seat/{gid}").get_json()["requests"] == [
        {"player": "mario", "name": "Mario"}]
    assert new.post(f"/seat/{gid}/approve", {"player": "mario"}).status_code == 403
    assert banker.post(f"/seat/{gid}/approve", {"player": "mario"}).status_code == 200
    status = new.get(f"/seat/{gid}").get_json()
    assert status["granted"] == "mario" and status["order"] == ["mario", "luigi"]
    assert seats(new, gid)["mario"]["mine"]
    assert banker.get(f"/seat/{gid}").get_json()["requests"] == []


def test_key_needs_a_seat_and_refusals_are_clear(phone: Any, game: dict[str, Any]) -> None:
    gid = game["id"]
    watcher = joined(phone(), game["code"])
    assert watcher.post(f"/seat/{gid}/key").status_code == 403
    assert watcher.post(f"/seat/{gid}/reclaim", {"player": "peach"}).status_code == 400
    stranger = phone()
    assert stranger.post(f"/seat/{gid}/reclaim", {"player": "mario"}).status_code == 403
    assert stranger.get(f"/seat/{gid}").status_code == 403
    assert watcher.post(f"/seat/{gid}/reclaim", {"player": "mario", "key": 5}).status_code == 400
