"""Back in after a dead phone: a seat key shown once takes the seat over on a new phone; without
it the banker approves the request; wrong keys are refused and change nothing."""

from __future__ import annotations

from typing import Any

from web_helpers import PIN, Phone

from web import create_app, seat_reclaim


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
    assert ok.status_code == 200, ok.get_json()
    out = ok.get_json()
    assert out["player"] == "luigi" and out["pending"] is False
    assert len(out["key"]) == 14 and out["key"] != key["key"]  # the seat's new key
    assert seats(new, gid)["luigi"]["mine"] and not seats(old, gid)["luigi"]["mine"]
    view = new.get(f"/api/games/{gid}").get_json()
    assert new.get("/api/session").get_json()["games"][gid] == "luigi"
    assert view["players"]


def test_a_seat_key_is_spent_when_used(phone: Any, game: dict[str, Any]) -> None:
    """A thief who saw the key takes the seat once; the owner cannot take it back with the
    same key in any case, nor can the thief use it again; the new key, shown only to the
    phone that took the seat, works once more."""
    gid = game["id"]
    owner = joined(phone(), game["code"], "luigi")
    key = owner.post(f"/seat/{gid}/key").get_json()["key"]
    thief = joined(phone(), game["code"])
    took = thief.post(f"/seat/{gid}/reclaim", {"player": "luigi", "key": key})
    assert took.status_code == 200
    fresh = took.get_json()["key"]
    back = joined(phone(), game["code"])  # the owner, on a phone with a new session
    for again in (key, key.lower(), key.replace("-", "").lower()):
        r = back.post(f"/seat/{gid}/reclaim", {"player": "luigi", "key": again})
        assert r.status_code == 401 and "spent" in r.get_json()["error"], again
    assert seats(thief, gid)["luigi"]["mine"]
    assert owner.get(f"/seat/{gid}").get_json()["key"] is None  # no one else is shown it
    assert back.post(f"/seat/{gid}/reclaim", {"player": "luigi",
                                             "key": fresh}).status_code == 200
    assert seats(back, gid)["luigi"]["mine"] and not seats(thief, gid)["luigi"]["mine"]
    assert thief.post(f"/seat/{gid}/reclaim", {"player": "luigi",
                                              "key": fresh}).status_code == 401


def test_a_freed_seat_forgets_its_key(phone: Any, banker: Phone, game: dict[str, Any]) -> None:
    gid = game["id"]
    mario = joined(phone(), game["code"], "mario")
    key = mario.post(f"/seat/{gid}/key").get_json()["key"]
    assert banker.post(f"/api/games/{gid}/release", {"player": "mario"}).status_code == 200
    assert "mario" not in banker.get(f"/seat/{gid}").get_json()["keyed"]
    someone = joined(phone(), game["code"], "mario")
    other = joined(phone(), game["code"])
    assert other.post(f"/seat/{gid}/reclaim", {"player": "mario", "key": key}).status_code \
        == 401
    assert seats(someone, gid)["mario"]["mine"]


def test_banker_approves_a_request(phone: Any, banker: Phone, game: dict[str, Any]) -> None:
    gid = game["id"]
    old = joined(phone(), game["code"], "mario")
    old_key = old.post(f"/seat/{gid}/key").get_json()["key"]
    new = joined(phone(), game["code"])
    asked = new.post(f"/seat/{gid}/reclaim", {"player": "mario"}).get_json()
    assert asked["pending"] is True and len(asked["code"]) == 4
    assert new.get(f"/seat/{gid}").get_json()["asking"] == [
        {"player": "mario", "code": asked["code"]}]
    [req] = banker.get(f"/seat/{gid}").get_json()["requests"]
    assert (req["player"], req["name"], req["code"]) == ("mario", "Mario", asked["code"])
    assert new.post(f"/seat/{gid}/approve", {"request": req["id"]}).status_code == 403
    assert banker.post(f"/seat/{gid}/approve", {"request": req["id"]}).status_code == 200
    status = new.get(f"/seat/{gid}").get_json()
    assert status["granted"] == "mario" and status["order"] == ["mario", "luigi"]
    assert len(status["key"]) == 14 and status["key"] != old_key  # shown to this phone once
    assert new.get(f"/seat/{gid}").get_json()["key"] is None
    assert seats(new, gid)["mario"]["mine"]
    assert banker.get(f"/seat/{gid}").get_json()["requests"] == []
    back = old.post(f"/seat/{gid}/reclaim", {"player": "mario", "key": old_key})
    assert back.status_code == 401  # the seat's old key went with the seat


def test_two_phones_asking_for_one_seat_are_two_requests(
        phone: Any, banker: Phone, game: dict[str, Any]) -> None:
    """The real new phone and a spectator both ask for Misty's seat: the banker sees two
    requests told apart by the code each phone shows; approving the real one's gives the
    seat to that phone only."""
    gid = game["id"]
    joined(phone(), game["code"], "luigi")  # the dead phone
    real, spectator = joined(phone(), game["code"]), joined(phone(), game["code"])
    mine = real.post(f"/seat/{gid}/reclaim", {"player": "luigi"},
                     headers={"User-Agent": "Mozilla/5.0 (iPhone) Safari/604.1"}).get_json()
    theirs = spectator.post(f"/seat/{gid}/reclaim", {"player": "luigi"},
                            headers={"User-Agent": "Mozilla/5.0 (Linux; Android 14) "
                                     "Chrome/120 Mobile Safari/537.36"}).get_json()
    assert mine["code"] != theirs["code"]
    requests = banker.get(f"/seat/{gid}").get_json()["requests"]
    assert [(r["code"], r["device"]) for r in requests] == [
        (mine["code"], "iPhone Safari"), (theirs["code"], "Android Chrome")]
    pick = next(r for r in requests if r["code"] == mine["code"])
    assert banker.post(f"/seat/{gid}/approve", {"request": pick["id"]}).status_code == 200
    assert spectator.get(f"/seat/{gid}").get_json()["granted"] is None
    assert real.get(f"/seat/{gid}").get_json()["granted"] == "luigi"
    assert seats(real, gid)["luigi"]["mine"] and not seats(spectator, gid)["luigi"]["mine"]
    assert banker.get(f"/seat/{gid}").get_json()["requests"] == []  # the other was dropped
    assert banker.post(f"/seat/{gid}/approve", {"request": pick["id"]}).status_code == 404


def test_a_phone_has_one_request_and_a_flood_of_them_is_bounded(
        phone: Any, banker: Phone, game: dict[str, Any]) -> None:
    gid = game["id"]
    p = joined(phone(), game["code"])
    first = p.post(f"/seat/{gid}/reclaim", {"player": "mario"}).get_json()["code"]
    assert p.post(f"/seat/{gid}/reclaim", {"player": "mario"}).get_json()["code"] == first
    p.post(f"/seat/{gid}/reclaim", {"player": "luigi"})
    assert [r["player"] for r in banker.get(f"/seat/{gid}").get_json()["requests"]] == ["luigi"]
    refused = 0
    for _ in range(20):
        r = joined(phone(), game["code"]).post(f"/seat/{gid}/reclaim", {"player": "mario"})
        refused += r.status_code == 503 and "banker" in r.get_json()["error"]
    assert refused == 20 - 11
    reqs = banker.get(f"/seat/{gid}").get_json()["requests"]
    assert banker.post(f"/seat/{gid}/deny", {"request": reqs[0]["id"]}).status_code == 200
    assert len(banker.get(f"/seat/{gid}").get_json()["requests"]) == 11


def test_key_needs_a_seat_and_refusals_are_clear(phone: Any, game: dict[str, Any]) -> None:
    gid = game["id"]
    watcher = joined(phone(), game["code"])
    assert watcher.post(f"/seat/{gid}/key").status_code == 403
    assert watcher.post(f"/seat/{gid}/reclaim", {"player": "peach"}).status_code == 400
    stranger = phone()
    assert stranger.post(f"/seat/{gid}/reclaim", {"player": "mario"}).status_code == 403
    assert stranger.get(f"/seat/{gid}").status_code == 403
    assert watcher.post(f"/seat/{gid}/reclaim", {"player": "mario", "key": 5}).status_code == 400


def test_one_spectator_cannot_fill_the_seat_requests(
        phone: Any, banker: Phone, game: dict[str, Any], monkeypatch: Any) -> None:
    """Issue 38: one machine asking with a new session each time holds at most 2 requests,
    so the phone of the player whose phone died still asks; a refused machine does not ask
    again at once; a request the banker never answers expires; the banker blocks a phone."""
    gid, now = game["id"], [1000.0]
    monkeypatch.setattr(seat_reclaim, "clock", lambda: now[0])

    def ask(addr: str, player: str = "mario") -> Any:
        return joined(phone(), game["code"]).post(
            f"/seat/{gid}/reclaim", {"player": player}, environ_base={"REMOTE_ADDR": addr})

    spectator = [ask("10.0.0.66") for _ in range(12)]
    assert [r.status_code for r in spectator].count(200) == 2
    assert spectator[-1].status_code == 429 and "this machine" in spectator[-1].get_json()["error"]
    real = ask("10.0.0.7")
    assert real.status_code == 200, real.get_json()
    for req in banker.get(f"/seat/{gid}").get_json()["requests"]:
        if req["code"] != real.get_json()["code"]:
            assert banker.post(f"/seat/{gid}/deny", {"request": req["id"]}).status_code == 200
    again = ask("10.0.0.66")
    assert again.status_code == 429 and "refused" in again.get_json()["error"]
    rude = ask("10.0.0.88", "luigi")
    [req] = [r for r in banker.get(f"/seat/{gid}").get_json()["requests"] if r["player"] == "luigi"]
    blocked = banker.post(f"/seat/{gid}/block", {"request": req["id"]})
    assert blocked.status_code == 200 and blocked.get_json()["blocked"] is True, rude.get_json()
    now[0] += 3600
    assert ask("10.0.0.88", "luigi").status_code == 403  # blocked for this game
    assert ask("10.0.0.66").status_code == 200  # a refusal is not for ever
    codes = [r["code"] for r in banker.get(f"/seat/{gid}").get_json()["requests"]]
    assert real.get_json()["code"] not in codes  # unanswered for an hour: expired


def test_a_seat_approved_just_before_a_power_cut_is_kept(
        phone: Any, banker: Phone, game: dict[str, Any], service: Any, monkeypatch: Any) -> None:
    """Issue 38: the banker approves a request and the power goes before the new phone asks
    how it went: after the restart that phone plays the seat (it was a spectator)."""
    gid = game["id"]
    joined(phone(), game["code"], "mario")  # the dead phone
    new = joined(phone(), game["code"])
    new.post(f"/seat/{gid}/reclaim", {"player": "mario"})
    [req] = banker.get(f"/seat/{gid}").get_json()["requests"]
    assert banker.post(f"/seat/{gid}/approve", {"request": req["id"]}).status_code == 200
    cookie = new.client.get_cookie("companion")
    assert cookie is not None
    for memory in ("_requests", "_granted", "_held_back"):  # the process is gone
        monkeypatch.setattr(seat_reclaim, memory, {})
    after = create_app(service, config={"banker_pin": PIN}).test_client()
    after.set_cookie("companion", cookie.value)
    again = Phone(after)
    assert again.get("/api/session").get_json()["games"] == {gid: "mario"}
    assert again.get(f"/seat/{gid}").get_json()["granted"] == "mario"  # the page says so
    assert seats(again, gid)["mario"]["mine"]
    view = again.get(f"/api/games/{gid}").get_json()
    mine = next(a for a in view["actions"] if a["actor"] == "mario")
    assert again.command(gid, mine).status_code == 200
