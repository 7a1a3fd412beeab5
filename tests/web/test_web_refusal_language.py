"""A refusal reaches each phone in its own language (issue 30): the page sends its language as
``Accept-Language`` with every call, the companion answers ``error`` in it (and the message
as data beside it, ``message``), and a refused request changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from web_helpers import Phone

IT = {"Accept-Language": "it"}
ES = {"Accept-Language": "es-ES,es;q=0.9"}


@pytest.fixture
def table(banker: Phone, phone: Callable[[], Phone]) -> dict[str, Any]:
    r = banker.post("/api/games", {"edition": "monopolino", "players": ["Zoë", "Дмитрий"],
                                   "seed": 3})
    assert r.status_code == 201, r.get_json()
    gid = r.get_json()["game_id"]
    code = banker.get(f"/api/games/{gid}").get_json()["join_code"]
    second = phone()
    view = banker.get(f"/api/games/{gid}").get_json()
    dima = view["players"][1]["id"]
    assert second.post("/api/join", {"code": code, "player": dima}).status_code == 200
    return {"id": gid, "code": code, "dima": dima, "phone": second}


def test_an_italian_phone_acting_out_of_turn_reads_italian_and_nothing_changes(
        banker: Phone, table: dict[str, Any]) -> None:
    gid, dima, phone = table["id"], table["dima"], table["phone"]
    before = banker.get(f"/api/games/{gid}").get_json()
    r = phone.post(f"/api/games/{gid}/commands", {"actor": dima, "type": "roll"}, headers=IT)
    assert r.status_code == 409
    body = r.get_json()
    assert body["code"] == "illegal"
    assert body["error"] == "Дмитрий non può farlo ora: solo Zoë può."
    assert body["message"]["msg"] == "{actor} cannot do that now: only {names} can."
    r = phone.post(f"/api/games/{gid}/commands", {"actor": dima, "type": "roll"})
    assert r.get_json()["error"] == "Дмитрий cannot do that now: only Zoë can."
    after = banker.get(f"/api/games/{gid}").get_json()
    assert after["version"] == before["version"] and after["players"] == before["players"]


def test_the_webs_own_refusals_speak_the_phones_language(
        phone: Callable[[], Phone], table: dict[str, Any]) -> None:
    p = phone()
    r = p.post("/api/banker/login", {"pin": "0000"}, headers=IT)
    assert (r.status_code, r.get_json()["error"]) == (401, "PIN errato.")
    r = p.post("/api/banker/login", {"pin": "0000"}, headers=ES)
    assert (r.status_code, r.get_json()["error"]) == (401, "PIN incorrecto.")
    r = p.post("/api/join", {"code": "000000"}, headers=ES)
    assert r.status_code == 404
    assert r.get_json()["error"] == ("Ninguna partida tiene ese código; mira la pantalla "
                                     "del companion.")
    r = p.post("/api/join", data="{", headers={**IT, "X-CSRF-Token": p.csrf},
               content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"].startswith("Il corpo della richiesta")
    r = p.post("/api/join", {"code": table["code"], "colour": "red"}, headers=IT)
    assert r.get_json()["error"] == "Campo o campi sconosciuti colour; attesi code, player."
    gid, dima = table["id"], table["dima"]
    r = p.post(f"/api/games/{gid}/commands", {"actor": dima, "type": "roll"}, headers=IT)
    assert r.get_json()["error"] == "Prima entra in questa partita con il suo codice."
    r = table["phone"].post(f"/seat/{gid}/reclaim", {"player": dima, "key": "x" * 20},
                            headers=ES)
    assert r.status_code in (401, 403), r.get_json()
    assert "clave" in r.get_json()["error"] or "asiento" in r.get_json()["error"]


def test_a_stale_version_and_an_unknown_command_are_refused_in_the_phones_language(
        banker: Phone, table: dict[str, Any]) -> None:
    gid = table["id"]
    v = banker.get(f"/api/games/{gid}").get_json()
    zoe = v["players"][0]["id"]
    r = banker.post(f"/api/games/{gid}/commands",
                    {"actor": zoe, "type": "roll", "version": v["version"] + 5}, headers=IT)
    assert r.get_json()["error"] == ("Questa versione della partita non è mai esistita; "
                                     "ricarica la pagina.")
    r = banker.post(f"/api/games/{gid}/commands", {"actor": zoe, "type": "fly"}, headers=ES)
    assert r.get_json()["error"] == "Monopolino no tiene la orden 'fly'."


@pytest.mark.parametrize(("header", "lang"), [
    ("es;q=0.3, it;q=0.9", "it"),   # the higher quality wins, not the first named
    ("en;q=0, it", "it"),           # q=0: "not English"
    ("it-IT,it;q=0.9,en;q=0.5", "it"),
    ("es-AR", "es"),
    ("ru, de", "en"),
    ("qps", "en"),                  # the pseudo-language is never picked from a browser
    ("", "en"),
])
def test_accept_language_quality_values_pick_the_language(
        phone: Callable[[], Phone], header: str, lang: str) -> None:
    """The page's ``<html lang>`` and a refusal's words follow the language the browser
    prefers most (its quality values), not the first one it names."""
    p = phone()
    page = p.client.get("/", headers={"Accept-Language": header}).get_data(as_text=True)
    assert f'<html lang="{lang}">' in page
    r = p.post("/api/banker/login", {"pin": "0000"}, headers={"Accept-Language": header})
    assert r.get_json()["error"] == {"it": "PIN errato.", "es": "PIN incorrecto.",
                                     "en": "Wrong PIN."}[lang]
