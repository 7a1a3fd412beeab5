"""The page in a real browser (Debian's chromium via Playwright) at a phone's size (390×844),
against the production server on 127.0.0.1: join, an auction between two phones, a trade offer
on both phones, the banker's named and confirmed undo, refusals that say so, a dropped phone
catching up, a dead phone's seat taken back with its key, and hostile names staying text.
Screenshots go to artifacts/screenshots/."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from page_driver import ARGS, CHROMIUM, new_phone, running_server
from web_helpers import PIN, open_banker_form

from companion.service.game_service import GameService

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium")


@pytest.fixture(scope="module")
def server(tmp_path_factory: Any) -> Iterator[tuple[str, GameService]]:
    with running_server(tmp_path_factory.mktemp("state")) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def join(page: Any, base: str, code: str, player: str) -> str:
    """Join, claim the player; returns the seat key the page shows once."""
    page.goto(f"{base}/?code={code}")
    page.get_by_role("button", name="Join", exact=True).click()
    page.locator(f"[data-claim={player}]").click()
    expect(page.locator("#who")).not_to_have_text("Watching")
    key = str(page.locator(".seatkey").inner_text())
    page.get_by_role("button", name="I noted it").click()
    return key


def do(page: Any, actor: str, kind: str) -> None:
    """Press the action's button and wait until this phone shows the game's next version."""
    before = page.evaluate("window.__version")
    page.locator(f'.action[data-actor="{actor}"][data-type="{kind}"] button').first.click()
    page.wait_for_function(f"() => window.__version > {before}")


def player_card(page: Any, pid: str) -> Any:
    return page.locator(f'.player[data-player="{pid}"]')


def test_mario_auction_offer_undo_reclaim(server: tuple[str, GameService], browser: Any) -> None:
    base, service = server
    errors: list[str] = []
    bank = new_phone(browser, errors)
    bank.goto(base + "/")
    open_banker_form(bank)
    bank.fill("#pin", "0000")
    bank.get_by_role("button", name="Log in").click()
    expect(bank.locator("#toast")).to_have_text("Wrong PIN.")
    bank.fill("#pin", PIN)
    bank.get_by_role("button", name="Log in").click()
    expect(bank.locator("#who")).to_have_text("Banker")
    expect(bank.locator("#toast")).to_be_hidden()  # the old refusal does not linger
    bank.locator("#setup > summary").click()
    expect(bank.locator("#setup-edition option[value=mario]")).to_have_count(1)
    bank.select_option("#setup-edition", "mario")
    bank.fill("#setup-players", "Mario\nLuigi")
    bank.select_option("#setup-set-order", "seated")
    bank.select_option("#setup-set-decks", "virtual")  # this story draws no real cards
    bank.fill("#setup-seed", "1")
    bank.get_by_role("button", name="Start the game").click()
    heading = bank.get_by_role("heading", name="Join code:")
    expect(heading).to_be_visible()
    code = heading.inner_text().split(":")[1].strip()

    mario, luigi = new_phone(browser, errors), new_phone(browser, errors)
    mario_key = join(mario, base, code, "mario")
    join(luigi, base, code, "luigi")
    expect(mario.locator(".glance .turn")).to_have_text("Your turn!")
    expect(luigi.locator(".glance .turn")).to_contain_text("Mario's turn")
    colour = mario.locator('.player[data-player="mario"]').evaluate(
        "e => getComputedStyle(e).getPropertyValue('--c')")
    do(mario, "mario", "roll")
    expect(luigi.locator(".happened")).to_contain_text("Mario moves")  # live on the other phone
    expect(luigi.locator(".happened .dice-pics")).to_have_count(1)      # with the dice
    if mario.locator('.action[data-type="auction"]').count():
        do(mario, "mario", "auction")
    else:  # nothing to auction where Mario landed: let Luigi land somewhere
        do(luigi, "luigi", "roll")
        do(luigi, "luigi", "auction")
    auction = service.view(service.active_game() or "", None)["auction"]
    assert auction is not None
    expect(mario.locator(".notice")).to_contain_text("Auction of")
    expect(mario.locator(".notice")).not_to_contain_text("Space")
    mario.locator('.action[data-type="bid"] input').fill("1")
    do(mario, "mario", "bid")
    luigi.wait_for_function(f"() => window.__version >= {mario.evaluate('window.__version')}")
    luigi.locator('.action[data-type="bid"] input').fill("2")
    do(luigi, "luigi", "bid")
    expect(mario.locator(".notice")).to_contain_text("Luigi leads with 2 coins")
    bank.locator("#tab-table").click()
    do(bank, "banker", "close_auction")
    won = service.view(service.active_game() or "", None)["board"]["spaces"][auction["space"]]
    expect(player_card(mario, "luigi")).to_contain_text(f"Owns: {won['name']}")
    # colours stay with the seat whatever the turn order
    assert mario.locator('.player[data-player="mario"]').evaluate(
        "e => getComputedStyle(e).getPropertyValue('--c')") == colour

    # a trade offer: a card with both sides' terms on both phones
    mario.locator('.action[data-type="propose_trade"] summary').click()
    mario.locator("fieldset").first.locator("input[type=number]").fill("1")
    mario.get_by_label(f"Place: {won['name']}").check()
    shot(mario, "trade-offer")
    mario.get_by_role("button", name="Offer the trade").click()
    for page, said in ((mario, "Mario offers Luigi"), (luigi, "Mario offers you a trade")):
        offer = page.locator(".offer")
        expect(offer).to_contain_text(said)
        expect(offer).to_contain_text("1 coin")
        expect(offer).to_contain_text(won["name"])
    expect(mario.locator('.offer .action[data-type="cancel_trade"]')).to_have_count(1)
    shot(luigi, "trade-offer-luigi")
    do(luigi, "luigi", "accept_trade")
    expect(player_card(luigi, "mario")).to_contain_text(f"Owns: {won['name']}")

    # undo: apart, named, confirmed
    bank.locator("#tab-banker").click()
    undo = bank.locator(".undo-box")
    expect(undo).to_contain_text("Luigi's yes to a trade")
    expect(undo).not_to_contain_text("step(s)")
    bank.get_by_role("button", name="Take back the last move…").click()
    shot(bank, "undo-confirm")
    bank.get_by_role("button", name="Yes, take it back").click()
    expect(player_card(luigi, "luigi")).to_contain_text(f"Owns: {won['name']}")
    expect(undo.locator("[data-confirm=undo]")).to_have_count(0)  # its answer has come
    # ending the game asks first; Cancel leaves it running
    bank.locator('.careful [data-type="end_game"] button').click()
    bank.get_by_role("button", name="Cancel").click()
    assert not service.view(service.active_game() or "", None)["finished"]
    # a refused virtual tap says so (it used to say "Tapped.")
    bank.fill("#tap-uid", "04A1B2C3")
    bank.get_by_role("button", name="Tap", exact=True).click()
    expect(bank.locator("#toast")).to_contain_text("did not act")

    # reconnect: Luigi's phone drops, Mario plays, Luigi catches up
    luigi.context.set_offline(True)
    bank.locator("#tab-table").click()
    current = service.view(service.active_game() or "", None)["current"]
    roller = mario if current == "mario" else bank
    roll = roller.locator(f'.action[data-actor="{current}"][data-type="roll"]')
    if roll.count():
        do(roller, current, "roll")
    version = service.view(service.active_game() or "", None)["version"]
    luigi.context.set_offline(False)
    luigi.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    luigi.wait_for_function(f"() => window.__version >= {version}", timeout=20000)

    # Mario's phone dies; a new phone takes the seat back with the key
    mario.context.close()
    fresh = new_phone(browser, errors)
    fresh.goto(f"{base}/?code={code}")
    fresh.get_by_role("button", name="Join", exact=True).click()
    fresh.locator('[data-reclaim="mario"] summary').click()
    fresh.fill("#key-mario", mario_key)
    fresh.get_by_role("button", name="Take back with the key").click()
    expect(fresh.locator("#who")).to_have_text("Mario")
    fresh.reload()
    expect(fresh.locator("#who")).to_have_text("Mario")
    expect(player_card(fresh, "mario")).to_contain_text("you")
    fresh.locator("#tab-chart").click()
    expect(fresh.locator("polyline")).to_have_count(2)
    for p in (bank, luigi, fresh):
        p.context.close()
    assert errors == []


def test_second_edition_and_escaping(server: tuple[str, GameService], browser: Any) -> None:
    """Pokémon through the same page; a hostile name stays text; dark mode and large text."""
    base, service = server
    errors: list[str] = []
    name = '<img src=x onerror="window.pwned=1">'
    out = service.create_game({"edition": "pokemon", "players": ["Ash", name[:24]], "seed": 2,
                               "settings": {"order": "seated"}})
    assert out.ok, out.error
    code = service.view(out.game_id)["join_code"]
    ash = new_phone(browser, errors, scheme="dark")
    join(ash, base, code, "ash")
    for _ in range(4):  # play whatever Ash is asked, generically
        buttons = ash.locator('.action[data-actor="ash"] button.primary:visible')
        if not buttons.count():
            break
        before = ash.evaluate("window.__version")
        buttons.first.click()
        ash.wait_for_function(f"() => window.__version > {before}")
    expect(ash.locator(".players")).to_contain_text("<img")
    assert ash.locator(".players img").count() == 0
    assert ash.evaluate("window.pwned") is None
    # a log entry that carries the rule's citation shows it on tap
    ash.evaluate("""() => showView(Object.assign({}, S.view, {log: [...S.view.log,
        {say: "Ash passes GO.", cite: "Rulebook p. 4: passing GO"}]}))""")
    line = ash.locator(".happened li", has_text="Ash passes GO.")
    line.get_by_role("button", name="rule").click()
    expect(line.locator(".cite")).to_have_text("Rulebook p. 4: passing GO")
    expect(line).to_contain_text("Readings in force for this game")
    mats = ash.get_by_role("region", name="Tracker mats")  # a Trainer's mat: the 8 types
    expect(mats.get_by_role("list").first.get_by_role("listitem")).to_have_count(8)
    expect(mats).to_contain_text("to catch on one roll")
    assert ash.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(18, 18, 18)"
    ash.locator("#tab-more").click()
    ash.locator("#pref-big").check()
    assert ash.evaluate("getComputedStyle(document.documentElement).fontSize") == "20px"
    ash.select_option("#pref-theme", "light")
    assert ash.evaluate("getComputedStyle(document.body).backgroundColor") != "rgb(18, 18, 18)"
    ash.reload()  # kept on this phone
    assert ash.evaluate("getComputedStyle(document.documentElement).fontSize") == "20px"
    ash.locator("#tab-table").click()
    shot(ash, "pokemon-ash")
    ash.context.close()
    assert errors == []


def test_claiming_a_seat_switches_to_that_players_view(browser: Any, tmp_path: Any) -> None:
    """A phone watches first (a spectator's view), then claims Misty: the live view is Misty's
    from then on, so Ash's hidden Item Cards are not on her phone."""
    from page_driver import join_code, setup_game

    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        game_id, _ = setup_game(service, "master-trainer", "play")
        ash_items = service.view(game_id, "misty")["players"][0]["items"]
        assert "cards" not in ash_items and ash_items["count"] > 0
        ash_hand = service.view(game_id, "ash")["players"][0]["items"]["cards"]
        hand = [str(c["name"]) for c in ash_hand]
        misty = new_phone(browser, errors)
        join(misty, base, join_code(service, game_id), "misty")
        ash = misty.get_by_role("region", name="Ash's team", exact=True)
        expect(ash).to_contain_text(f"Items in hand: {ash_items['count']}")
        for name in hand:
            expect(ash).not_to_contain_text(name)
        misty.context.close()
    assert errors == []
