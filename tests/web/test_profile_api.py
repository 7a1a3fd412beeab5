"""Box profiles over HTTP: banker only, saved whole or not at all, used by POST /api/games."""

from __future__ import annotations

import json
from typing import Any

from web_helpers import Phone

BOARD = {"spaces": {"imperial-palace": {"kind": "free_parking"},
                    "tibanna-mines": {"kind": "card", "deck": "chance"}}}


def put(phone: Phone, path: str, body: Any) -> Any:
    return phone.client.put(path, json=body, headers={"X-CSRF-Token": phone.csrf})


def test_profiles_are_for_the_banker_only(phone: Any) -> None:
    guest = phone()
    assert guest.get("/api/profiles").status_code == 403
    assert put(guest, "/api/profiles/starwars/box", {"settings": {}}).status_code == 403
    assert guest.get("/api/profiles/defaults/starwars").status_code == 403


def test_save_list_export_import_and_start_a_game(banker: Phone) -> None:
    r = put(banker, "/api/profiles/starwars/our-box", {"settings": {"board": BOARD}})
    assert r.status_code == 200, r.get_json()
    spaces = {s["id"]: s for s in r.get_json()["board"]["spaces"]}
    assert spaces["imperial-palace"]["kind"] == "free_parking"
    assert banker.get("/api/profiles?edition=starwars").get_json()["profiles"][0]["name"] == \
        "our-box"
    text = banker.get("/api/profiles/starwars/our-box/export").get_data(as_text=True)
    assert json.loads(text)["settings"]["board"] == BOARD
    assert banker.client.delete("/api/profiles/starwars/our-box",
                                headers={"X-CSRF-Token": banker.csrf}).status_code == 200
    assert banker.get("/api/profiles/starwars/our-box").status_code == 404
    r = banker.post("/api/profiles/import", data=text,
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 200, r.get_json()
    r = banker.post("/api/games", {"edition": "starwars", "players": ["A", "B"],
                                   "profile": "our-box"})
    assert r.status_code == 201, r.get_json()
    view = banker.get(f"/api/games/{r.get_json()['game_id']}").get_json()
    kinds = {s["id"]: s["kind"] for s in view["board"]["spaces"]}
    assert kinds["imperial-palace"] == "free_parking"


def test_a_wrong_profile_is_refused_naming_the_field_and_not_saved(banker: Phone) -> None:
    r = put(banker, "/api/profiles/starwars/box",
            {"settings": {"board": {"spaces": {"imperial-palace": {"kind": "parking"}}}}})
    assert r.status_code == 400
    assert r.get_json()["error"].startswith("settings.board.spaces.imperial-palace.kind: "
                                            "'parking' is not a kind this edition handles")
    r = banker.post("/api/profiles/check", {"edition": "starwars", "name": "box", "settings": {
        "board": {"spaces": {"forest-moon": {"kind": "free_parking", "color": ""}}}}})
    assert r.get_json()["error"].startswith("settings.board.colors.endor: the rulebook's endor "
                                            "group has 3 properties, not 2")
    assert banker.get("/api/profiles").get_json()["profiles"] == []
    r = banker.post("/api/games", {"edition": "starwars", "players": ["A", "B"],
                                   "profile": "nope"})
    assert r.status_code == 409 and "there is no profile 'nope'" in r.get_json()["error"]


def test_confirming_a_fact_clears_the_mark(banker: Phone) -> None:
    put(banker, "/api/profiles/starwars/box", {"settings": {"board": BOARD}})
    r = banker.post("/api/profiles/starwars/box/confirm", {"fact": "spaces.senate.price"})
    assert r.status_code == 200, r.get_json()
    senate = next(s for s in r.get_json()["board"]["spaces"] if s["id"] == "senate")
    assert senate["unverified"] == ["name", "rent"]
    r = banker.post("/api/profiles/starwars/box/confirm", {"fact": "spaces.senate.price"})
    assert r.status_code == 400 and r.get_json()["error"].startswith("fact:")


def test_a_box_with_a_lost_card_is_saved_and_the_difference_said(banker: Phone) -> None:
    """A real box loses cards: a Master Trainer Item deck of 53 is a valid profile; the
    editor says the difference; a game set up from it says it once and deals 53."""
    from companion.editions.master_trainer.data import load

    deck = dict(load().item_deck)
    deck["potion"] -= 1
    r = put(banker, "/api/profiles/master-trainer/lost-one", {"settings": {"item_deck": deck}})
    assert r.status_code == 200, r.get_json()
    notes = [n["say"] for n in r.get_json()["notes"]]
    assert notes == ["Item Cards: 53 in this box, the rulebook has 54 (1 missing)."]
    r = banker.post("/api/games", {"edition": "master-trainer", "players": ["Ash", "Misty"],
                                   "profile": "lost-one"})
    assert r.status_code == 201, r.get_json()
    view = banker.get(f"/api/games/{r.get_json()['game_id']}").get_json()
    said = [line for line in view["log"] if "missing" in str(line)]
    assert len(said) == 1 and "53 in this box" in str(said[0])
    assert view["extra"]["decks"]["items"] == 53


def test_the_rival_cards_have_tags_of_their_own(banker: Phone) -> None:
    """Master Trainer on the real piles: the Rival Card is drawn from its pile and named like
    the others, so each Rival Card gets a tag in the profile editor, under its own deck."""
    r = put(banker, "/api/profiles/master-trainer/rivals",
            {"settings": {}, "tags": {"04A1B2C3": "card:lance-1"}})
    assert r.status_code == 200, r.get_json()
    tags = {c["id"]: c for c in r.get_json()["card_tags"]}
    assert tags["lance-1"]["deck"] == "rival" and tags["lance-1"]["tag"] == "04A1B2C3"
    assert tags["lance-1"]["label"]["say"] == "Rival Card: Lance"
    assert {c["deck"] for c in tags.values()} == {"item", "event", "rival"}


def test_the_editor_names_the_decks_in_the_editions_words(banker: Phone) -> None:
    """The tag decks and what the other settings hold are said by the edition (message ids
    of its catalogue), not by the page: in Italian, "Carte Strumento"."""
    from companion.engine.i18n import Msg, render

    r = banker.get("/api/profiles/defaults/master-trainer").get_json()
    decks = r["tag_decks"]
    assert [render(Msg(d["title"]), "it") for d in decks] == [
        "Carte Strumento", "Carte Evento", "Carte Rivale"]
    assert {c["deck"] for c in r["card_tags"]} == {d["deck"] for d in decks}
    assert render(Msg(r["settings_hint"]), "es").startswith("Cartas de cada mazo, fichas")
