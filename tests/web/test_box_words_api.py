"""The box's words reach a phone as data (issue 41): the game's view carries each space name,
card text and token as ``{"word", "en", "it", "es"}`` for the page to render in its language,
and the setup form names the tokens the same way and shows the board the banker corrects in
the box's language (Monopolino's is Italian)."""

from __future__ import annotations

from web_helpers import Phone


def test_the_view_sends_a_space_name_in_every_language(banker: Phone) -> None:
    r = banker.post("/api/games", {"edition": "monopolino", "seed": 1,
                                   "players": [{"name": "Anna", "token": "Red token"},
                                               {"name": "Ben", "token": "Blue token"}]})
    assert r.status_code == 201, r.get_json()
    view = banker.get(f"/api/games/{r.get_json()['game_id']}").get_json()
    start = view["board"]["spaces"][0]["name"]
    assert start == {"word": "spaces.start.name", "en": "START", "it": "VIA", "es": "SALIDA"}
    token = view["players"][0]["token"]
    assert (token["en"], token["it"], token["es"]) == ("Red token", "Segnalino rosso",
                                                         "Ficha roja")


def test_the_setup_form_names_tokens_in_each_language_and_the_board_in_the_boxs(
        banker: Phone) -> None:
    setup = banker.get("/api/editions/monopolino").get_json()["setup"]
    assert setup["language"] == "it"
    assert setup["tokens"][0] == "Red token"  # the token's id, what a setup sends
    assert setup["token_names"]["Red token"]["it"] == "Segnalino rosso"
    names = {s["id"]: s["name"] for s in setup["board"]["spaces"]}
    assert names["toy-street"] == "Via dei Giocattoli"


def test_the_setup_form_and_the_view_send_the_notes_on_unverified_facts_in_every_language(
        banker: Phone) -> None:
    note = {"word": "edition.unverified.3", "en": "prices", "it": "prezzi", "es": "precios"}
    assert banker.get("/api/editions/mario").get_json()["setup"]["unverified"][2] == note
    r = banker.post("/api/games", {"edition": "mario", "seed": 1,
                                   "players": [{"name": "Anna", "token": "Super Mushroom"},
                                               {"name": "Ben", "token": "Fire Flower"}]})
    assert r.status_code == 201, r.get_json()
    view = banker.get(f"/api/games/{r.get_json()['game_id']}").get_json()
    assert view["board"]["unverified"][2] == note
