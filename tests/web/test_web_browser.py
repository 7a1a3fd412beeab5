"""The page in a real browser (Debian's chromium via Playwright) at a phone's size, against the
production server on 127.0.0.1: join, turns of two editions, an auction between two phones, a
trade, undo and reconnect. Screenshots go to artifacts/screenshots/."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import PIN, FakeHardware

from companion.service import GameService
from web import create_app
from web.server import make_server

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {"width": 360, "height": 740}

pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium")


@pytest.fixture(scope="module")
def server(tmp_path_factory: Any) -> Iterator[tuple[str, GameService]]:
    with GameService(tmp_path_factory.mktemp("state")) as service:
        app = create_app(service, hardware=FakeHardware(), config={"banker_pin": PIN})
        srv = make_server(app, "127.0.0.1", 0, threads=24)
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{srv.effective_port}", service
        srv.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def new_phone(browser: Any, errors: list[str], scheme: str = "light") -> Any:
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=1, color_scheme=scheme)
    ctx.set_default_timeout(20000)  # generous: CI shares two cores with the server
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if "Content Security" in m.text else None)
    return page


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def join(page: Any, base: str, code: str, player: str) -> None:
    page.goto(f"{base}/?code={code}")
    page.get_by_role("button", name="Join", exact=True).click()
    page.locator(f"[data-claim={player}]").click()
    expect(page.locator("#who")).not_to_have_text("Spectator")


def do(page: Any, actor: str, kind: str) -> None:
    """Press the action's button and wait until this phone shows the game's next version."""
    before = page.evaluate("window.__version")
    page.locator(f'.action[data-actor="{actor}"][data-type="{kind}"] button').first.click()
    page.wait_for_function(f"() => window.__version > {before}")


def player_card(page: Any, pid: str) -> Any:
    return page.locator(f'.player[data-player="{pid}"]')


def test_mario_auction_trade_undo_reconnect(server: tuple[str, GameService], browser: Any) -> None:
    base, service = server
    errors: list[str] = []
    bank = new_phone(browser, errors)
    bank.goto(base + "/")
    bank.locator("summary", has_text="Banker").click()
    bank.fill("#pin", PIN)
    bank.get_by_role("button", name="Log in").click()
    expect(bank.locator("#who")).to_have_text("Banker")
    bank.locator("#setup > summary").click()
    expect(bank.locator("#setup-edition option[value=mario]")).to_have_count(1)
    bank.select_option("#setup-edition", "mario")
    bank.fill("#setup-players", "Mario\nLuigi")
    bank.fill("#setup-seed", "1")
    bank.get_by_role("button", name="Start the game").click()
    heading = bank.get_by_role("heading", name="Join code:")
    expect(heading).to_be_visible()
    code = heading.inner_text().split(":")[1].strip()
    shot(bank, "banker-setup-done")

    mario, luigi = new_phone(browser, errors), new_phone(browser, errors)
    join(mario, base, code, "mario")
    join(luigi, base, code, "luigi")
    shot(luigi, "join-claimed")
    mario.get_by_role("tab", name="Table").click()
    luigi.get_by_role("tab", name="Table").click()
    do(mario, "mario", "roll")
    expect(luigi.locator(".log")).to_contain_text("Mario rolled")  # live on the other phone
    do(luigi, "luigi", "roll")
    do(luigi, "luigi", "roll")
    do(luigi, "luigi", "auction")

    # the auction: both phones bid live, the banker closes it
    mario.locator('.action[data-type="bid"] input').fill("1")
    do(mario, "mario", "bid")
    luigi.wait_for_function(f"() => window.__version >= {mario.evaluate('window.__version')}")
    luigi.locator('.action[data-type="bid"] input').fill("2")
    do(luigi, "luigi", "bid")
    shot(mario, "auction-mario")
    bank.get_by_role("tab", name="Table").click()
    do(bank, "banker", "close_auction")
    expect(player_card(mario, "luigi")).to_contain_text("Owns: Toad Town")
    shot(mario, "after-auction")

    # a trade: Mario offers 1 coin for Toad Town, Luigi accepts on his phone
    mario.locator('.action[data-type="propose_trade"] summary').click()
    mario.locator("fieldset").first.locator("input[type=number]").fill("1")
    mario.get_by_label("Spaces: Toad Town").check()
    shot(mario, "trade-offer")
    mario.get_by_role("button", name="Offer the trade").click()
    expect(luigi.locator('.action[data-type="accept_trade"]')).to_have_count(1)
    do(luigi, "luigi", "accept_trade")
    expect(player_card(luigi, "mario")).to_contain_text("Owns: Toad Town")

    # undo: the banker takes the trade back from the history
    bank.once("dialog", lambda d: d.accept())
    bank.get_by_role("tab", name="History").click()
    bank.locator("[data-undo]").first.wait_for()
    shot(bank, "history-banker")
    bank.locator("[data-undo]").first.click()
    expect(player_card(luigi, "luigi")).to_contain_text("Owns: Toad Town")

    # reconnect: Luigi's phone drops, Mario plays, Luigi catches up; a reload keeps the seat
    luigi.context.set_offline(True)
    roll_action = mario.locator('.action[data-actor="mario"][data-type="roll"] button')
    if roll_action.count():
        roll_action.first.click()
    version = service.view(service.active_game() or "", None)["version"]
    luigi.context.set_offline(False)
    luigi.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    luigi.wait_for_function(
        f"() => window.__version !== undefined && window.__version >= {version}", timeout=20000)
    mario.reload()
    expect(mario.locator("#who")).to_have_text("Mario")
    expect(player_card(mario, "mario")).to_contain_text("you")
    shot(mario, "table-mario")
    mario.get_by_role("tab", name="Chart").click()
    expect(mario.locator("polyline")).to_have_count(2)
    shot(mario, "chart")
    for p in (bank, mario, luigi):
        p.context.close()
    assert errors == []


def test_second_edition_and_escaping(server: tuple[str, GameService], browser: Any) -> None:
    """Pokémon (any second edition) through the same generic page; names stay text."""
    base, service = server
    errors: list[str] = []
    name = '<img src=x onerror="window.pwned=1">'
    out = service.create_game({"edition": "pokemon", "players": ["Ash", name[:24]], "seed": 2})
    assert out.ok, out.error
    code = service.view(out.game_id)["join_code"]
    ash = new_phone(browser, errors, scheme="dark")
    join(ash, base, code, "ash")
    ash.get_by_role("tab", name="Table").click()
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
    shot(ash, "pokemon-ash-dark")
    ash.context.close()
    assert errors == []
