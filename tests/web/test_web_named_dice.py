"""The page names Mario's dice as the table does: a red and a black field, and the black one
moves Bowser whichever field is filled first (docs/cards.md, web/static/app.js diceInput)."""

from __future__ import annotations

from typing import Any

from test_web_browser import browser as browser  # noqa: F401 - fixtures
from test_web_browser import expect, join, new_phone, shot
from test_web_browser import pytestmark as pytestmark  # noqa: F401 - needs chromium
from test_web_browser import server as server  # noqa: F401

from companion.engine.types import GameSetup
from companion.service.game_service import GameService


def test_mario_dice_fields_are_named_red_and_black(server: tuple[str, GameService],  # noqa: F811
                                                   browser: Any) -> None:  # noqa: F811
    base, service = server
    made = service.create_game(GameSetup.from_json({
        "edition": "mario", "players": ["Mario", "Luigi"], "dice": "physical", "seed": 1,
        "settings": {"order": "seated", "decks": "virtual"}}).to_json())
    assert made.ok, made.error
    code = service.view(made.game_id, None)["join_code"]
    errors: list[str] = []
    mario = new_phone(browser, errors)
    join(mario, base, code, "mario")
    roll = mario.locator('.action[data-actor="mario"][data-type="roll"]')
    black = roll.get_by_label("black die")
    red = roll.get_by_label("red die")
    expect(black).to_be_visible()
    shot(mario, "mario-named-dice")
    black.fill("5")  # the black die entered first
    red.fill("2")
    roll.get_by_role("button", name="Send my dice").click()
    expect(mario.locator("body")).to_contain_text("black die 5")
    state = service.state(made.game_id)[1]
    assert state.players[0].position == 7
    assert not errors, errors


def test_the_draw_prompt_lists_the_cards_and_a_pick_follows_that_card(  # noqa: F811
        server: tuple[str, GameService], browser: Any) -> None:  # noqa: F811
    base, service = server
    made = service.create_game({"edition": "mario", "players": ["Mario", "Luigi"],
                                "dice": "physical", "seed": 1,
                                "settings": {"order": "seated", "decks": "physical"}})
    assert made.ok, made.error
    assert service.submit(made.game_id, {"actor": "mario", "type": "roll",
                                         "args": {"dice": [2, 3]}}).ok
    code = service.view(made.game_id, None)["join_code"]
    errors: list[str] = []
    mario = new_phone(browser, errors)
    join(mario, base, code, "mario")
    draws = mario.locator('.action[data-actor="mario"][data-type="draw"] button')
    expect(draws).to_have_count(16)
    shot(mario, "mario-draw-prompt")
    draws.filter(has_text="Dry Bones").click()
    expect(mario.locator("body")).to_contain_text("Card: Mario pays 1 coin.")
    assert service.state(made.game_id)[1].players[0].money == 29
    assert not errors, errors
