"""A phone's session cookie: signed when it changes or grows old, not on every answer."""

from __future__ import annotations

from typing import Any

import pytest
from web_helpers import Phone

from web import sessions


def test_an_unchanged_session_is_not_signed_again_on_every_answer(
        banker: Phone, game: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    gid = game["id"]
    view = banker.get(f"/api/games/{gid}").get_json()
    r = banker.get(f"/api/games/{gid}")
    assert r.status_code == 200 and "Set-Cookie" not in r.headers
    roll = next(a for a in view["actions"] if a["type"] == "roll")
    dice = {"dice": [3, 4]} if roll["input"].get("physical") else {}
    r = banker.command(gid, roll, **dice)
    assert r.status_code == 200 and "Set-Cookie" not in r.headers
    assert banker.get("/api/session").get_json()["banker"] is True  # the cookie still works

    monkeypatch.setattr(sessions, "REFRESH", 0)  # as if the cookie were an hour old
    r = banker.get(f"/api/games/{gid}")
    cookie = r.headers["Set-Cookie"]
    assert "Expires=" in cookie and "HttpOnly" in cookie
    assert banker.get("/api/session").get_json()["banker"] is True


def test_a_changed_session_is_signed_at_once(phone: Any, game: dict[str, Any]) -> None:
    p = phone()
    r = p.post("/api/join", {"code": game["code"]})
    assert r.status_code == 200, r.get_json()
    assert "Set-Cookie" in r.headers  # joining changed the session
    assert game["id"] in p.get("/api/session").get_json()["games"]


def test_the_cookie_lasts_by_the_phones_own_clock(app: Any) -> None:
    """Max-Age beside Expires: a phone keeps the cookie two days by its own clock, even when
    the Pi's clock (which wrote Expires) is months behind after a boot without NTP."""
    r = app.test_client().get("/api/session")
    cookie = next(c for c in r.headers.getlist("Set-Cookie") if c.startswith("companion="))
    assert "Max-Age=172800" in cookie and "Expires=" in cookie
