"""The new-game form: GET /api/editions/<name> describes each edition's setup (settings,
tokens, correctable board data), and the page turns it into a form that sends only what the
banker changed. The browser test reuses the server and browser of test_web_browser.py."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from test_web_browser import CHROMIUM, PIN, expect, new_phone, shot
from test_web_browser import browser as browser  # noqa: F401 - fixtures
from test_web_browser import server as server  # noqa: F401
from web_helpers import Phone, open_banker_form

from companion.plugins import editions
from companion.service.game_service import GameService


def test_every_edition_describes_its_setup(phone: Any) -> None:
    for name in editions.known():
        r = phone().get(f"/api/editions/{name}")
        assert r.status_code == 200, (name, r.get_json())
        out = r.get_json()
        assert out["name"] == name and out["title"] and out["family"]
        setup = out["setup"]
        assert set(setup) >= {"settings", "tokens", "board", "unverified"}
        for st in setup["settings"]:
            assert {"name", "label", "type"} <= set(st), st
            assert st["type"] in ("int", "choice", "text", "counts", "json"), st
            if st["type"] == "choice":
                assert st["default"] in [c["value"] for c in st["choices"]]
            if st["type"] == "int":
                assert st.get("min", st["default"]) <= st["default"] <= st.get("max", 10**9)


def test_mario_setup_lists_tokens_spaces_and_cards(phone: Any) -> None:
    setup = phone().get("/api/editions/mario").get_json()["setup"]
    assert "Super Mushroom" in setup["tokens"]
    assert "prices" in [u["en"] for u in setup["unverified"]]
    board = setup["board"]
    assert {"price", "rent"} <= set(board["unverified"])
    toad = next(s for s in board["spaces"] if s["id"] == "toad-town")
    assert toad["name"] == "Toad Town" and toad["price"] > 0 and toad["rent"] > 0
    assert all(s["price"] > 0 for s in board["spaces"])
    assert {c["deck"] for c in board["cards"]} == {"question-block", "bowsers-fury"}
    assert [s["name"] for s in setup["settings"]] == [
        "order", "bowser_rest", "rent_collection", "early_end", "free_parking_pot", "decks"]


def test_edition_specific_settings(phone: Any) -> None:
    p = phone()
    pokemon = p.get("/api/editions/pokemon").get_json()["setup"]
    faces = next(s for s in pokemon["settings"] if s["name"] == "ball_faces")
    assert faces["type"] == "int" and faces["default"] == 3 and faces["max"] == 6
    mono = p.get("/api/editions/monopolino").get_json()["setup"]["board"]
    assert "rent" not in mono["fields"]  # the amount shown is price and rent
    assert p.get("/api/editions/starwars").get_json()["setup"]["board"]["taxes"]
    mt = p.get("/api/editions/master-trainer").get_json()["setup"]
    assert mt["board"] is None and "pikachu" not in mt["tokens"] and mt["tokens"]
    kinds = {s["name"]: s["type"] for s in mt["settings"]}
    assert kinds == {"city_items": "int", "item_deck": "counts", "event_deck": "counts",
                     "board_spaces": "counts", "rivals": "json", "ball_adjust": "choice",
                     "center_card": "choice", "decks": "choice", "evolution_groups": "json"}
    # guessed values in words a player reads, never their setting names (issue #29 item 6)
    said = [u["say"] for u in mt["unverified"]]  # messages, each read in the phone's language
    assert "how many of each Item Card the deck holds" in said
    assert "Lorelei's Pokémon Master card" in said
    assert not [u for u in said if "_" in u or "." in u]


def test_unknown_edition_is_404_json(phone: Any) -> None:
    r = phone().get("/api/editions/nope")
    assert r.status_code == 404
    assert r.get_json()["code"] == "not_found" and "nope" in r.get_json()["error"]


def test_defaults_sent_back_are_accepted(banker: Phone) -> None:
    """Everything the form can send, filled with the defaults, is a valid setup."""
    for name in editions.known():
        setup = banker.get(f"/api/editions/{name}").get_json()["setup"]
        settings: dict[str, Any] = {s["name"]: s["default"] for s in setup["settings"]}
        b = setup["board"]
        if b:
            spaces = {s["id"]: {f: s[f] for f in b["fields"]} for s in b["spaces"]}
            spaces |= {t["id"]: {"amount": t["amount"]} for t in b["taxes"]}
            settings["board"] = {"spaces": spaces,
                                 "cards": {c["id"]: {"text": c["text"]} for c in b["cards"]}}
        players = [{"name": n, "token": t} for n, t in zip(["A", "B"], setup["tokens"],
                                                          strict=False)]
        r = banker.post("/api/games", {"edition": name, "players": players, "seed": 1,
                                       "settings": settings})
        assert r.status_code == 201, (name, r.get_json())


@pytest.mark.skipif(not __import__("shutil").which(CHROMIUM), reason="needs Debian's chromium")
def test_banker_corrects_the_board_while_setting_up(server: tuple[str, GameService],  # noqa: F811
                                                    browser: Any) -> None:  # noqa: F811
    base, service = server
    errors: list[str] = []
    bank = new_phone(browser, errors)
    bank.goto(base + "/")
    open_banker_form(bank)
    bank.fill("#pin", PIN)
    bank.get_by_role("button", name="Log in").click()
    expect(bank.locator("#who")).to_have_text("Banker")
    bank.locator("#setup > summary").click()
    expect(bank.locator("#setup-edition option[value=mario]")).to_have_count(1)
    bank.select_option("#setup-edition", "mario")
    bank.fill("#setup-players", "Mario\nLuigi")
    expect(bank.get_by_label("Token for Luigi")).to_have_value("Toad's Frying Pan")
    bank.get_by_label("Token for Mario").select_option("Peach's Crown")
    bank.get_by_label("Who starts").select_option("seated")

    board = bank.locator("#setup-board")
    board.locator("> summary").click()
    price = bank.get_by_label("Price of Toad Town")
    expect(price).to_have_value("1")
    expect(price).to_have_class("unv")
    price.fill("4")
    deck = board.locator("details", has=bank.locator("summary", has_text="Question Block"))
    deck.locator("summary").click()
    card = deck.locator('[data-card="qb-02"]')
    new_text = "Advance to Toad Town. Collect 2 coins if you pass GO."
    card.fill(new_text)
    bank.get_by_label("Question Block card 2").focus()
    shot(bank, "setup-form")

    with bank.expect_request(lambda r: r.url.endswith("/api/games") and r.method == "POST") as rq:
        bank.get_by_role("button", name="Start the game").click()
    sent = rq.value.post_data_json
    assert sent["players"] == [{"name": "Mario", "token": "Peach's Crown"},
                               {"name": "Luigi", "token": "Toad's Frying Pan"}]
    assert sent["settings"] == {"order": "seated", "board": {
        "spaces": {"toad-town": {"price": 4}}, "cards": {"qb-02": {"text": new_text}}}}
    expect(bank.get_by_role("heading", name="Join code:")).to_be_visible()
    gid = parse_qs(urlparse(bank.url).query)["game"][0]

    view = service.view(gid, "banker")
    toad = next(s for s in view["board"]["spaces"] if s["id"] == "toad-town")
    assert toad["price"] == 4 and toad["rent"] == 1
    _, state = service.state(gid)
    assert state.board.card("qb-02").text == new_text
    assert [p["token"] for p in view["players"]] == ["Peach's Crown", "Toad's Frying Pan"]
    assert not errors, errors


def test_a_new_game_draws_from_the_real_deck_unless_told_virtual(
        banker: Phone, service: GameService) -> None:
    """docs/cards.md: the page and the API default to physical decks; the engine stays
    virtual for setups without the setting (saved games replay as they were)."""
    made = {}
    for decks in (None, "virtual"):
        settings = {} if decks is None else {"decks": decks}
        r = banker.post("/api/games", {"edition": "mario", "players": ["Mario", "Luigi"],
                                       "seed": 1, "settings": settings})
        assert r.status_code == 201, r.get_json()
        made[decks] = service.state(r.get_json()["game_id"])[1].setup.settings.get("decks")
    assert made == {None: "physical", "virtual": "virtual"}
