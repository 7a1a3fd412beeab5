"""Rules at hand while playing, and first-game mode, on phones in Chromium (390×844, real
HTTP, real SQLite; web/static/rules.js, docs/history.md "Rules at hand")."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from page_driver import (
    ROOT,
    expect,
    join,
    join_code,
    new_phone,
    running_server,
    script,
)

from companion.service.game_service import GameService
from companion.service.script import parse_step

SHOTS = ROOT / ("docs/screens" if os.environ.get("UPDATE_SCREENS") else "artifacts/screenshots")
MARIO = "Monopoly: The Super Mario Bros. Movie Edition rulebook"


def start_mario(service: GameService, settings: dict[str, str] | None = None
                ) -> tuple[str, list[str]]:
    """Mario's example game set up (nothing played yet), seats named oddly; its steps."""
    data = script("mario")
    steps = data.pop("steps")
    data["players"] = [{"id": "mario", "name": "“Zoë” €"}, {"id": "luigi", "name": "Дмитрий"}]
    data["settings"] = settings or {}
    out = service.create_game(data)
    assert out.ok, out.error
    return str(out.game_id), steps


def play(service: GameService, game_id: str, step: str) -> None:
    res = service.submit(game_id, parse_step(service.state(game_id)[1], step))
    assert res.ok, res.error


def test_rules_at_hand_is_one_tap_away_while_playing(browser: Any, tmp_path: Path) -> None:
    """A search over the rulebook passages and readings of the game being played, from the
    bar of every tab; "rule" on a line says the rule and the readings in force."""
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        gid, steps = start_mario(service, {"bowser_rest": "next_turn"})
        for step in steps[:6]:
            play(service, gid, step)
        phones = [new_phone(browser, errors) for _ in range(2)]
        for page, seat in zip(phones, ["mario", "luigi"], strict=True):
            join(page, base, join_code(service, gid), seat)
        zoe, dima = phones
        dima.get_by_role("tab", name="Money").click()  # any tab: the button is in the bar
        dima.get_by_role("button", name="Rules", exact=True).click()
        sheet = dima.get_by_role("dialog", name="Rules at hand")
        expect()(sheet).to_be_visible()
        expect()(sheet.get_by_role("searchbox", name="Search the rules")).to_have_attribute(
            "placeholder", "e.g. Jail, auction, Bowser")  # Mario's own words (its page.py)
        sheet.get_by_role("searchbox", name="Search the rules").fill("JAIL")
        found = sheet.get_by_role("list", name="Passages found")
        expect()(found.locator("li").first).to_contain_text("Jail")
        for text in found.locator("li").all_inner_texts():
            assert "jail" in text.lower()
        expect()(sheet).to_contain_text("When Bowser is active again after the team beats him")
        expect()(sheet).to_contain_text("every player has finished their next turn")
        SHOTS.mkdir(parents=True, exist_ok=True)
        dima.screenshot(path=str(SHOTS / "rules-at-hand.png"))
        sheet.get_by_role("searchbox", name="Search the rules").fill("zzzz nothing")
        expect()(found).to_have_text("Nothing found.")
        sheet.get_by_role("button", name="Close the rules").click()
        expect()(sheet).to_be_hidden()

        happened = zoe.get_by_role("list", name="What just happened")
        rule = happened.get_by_role("button", name="rule").first
        why = happened.locator(".why").first
        rule.click()
        expect()(why).to_be_visible()
        expect()(why.locator(".cite")).to_contain_text(MARIO)
        expect()(why).to_contain_text("Readings in force for this game")
        expect()(why).to_contain_text("Rent not asked for before the next roll is lost")
        zoe.get_by_role("tab", name="History").click()
        forced = zoe.get_by_role("region", name="History").locator("details.readings-in-force")
        forced.locator("summary").click()
        expect()(forced).to_contain_text("every player has finished their next turn")
        for page in phones:
            page.context.close()
    assert errors == []


def test_first_game_mode_explains_each_question_once(browser: Any, tmp_path: Path) -> None:
    """Offered when a game starts on a phone never asked; on, each kind of question is
    explained (its meaning, its rule) the first time it is asked in the game, then not
    again; the phone remembers the answer; a phone that said no sees nothing."""
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        gid, steps = start_mario(service)
        zoe = new_phone(browser, errors, first_game=None)
        dima = new_phone(browser, errors, first_game=None)
        join(zoe, base, join_code(service, gid), "mario")
        join(dima, base, join_code(service, gid), "luigi")
        explained = zoe.get_by_role("region", name="What this means")
        for page in (zoe, dima):
            expect()(page.get_by_role("region", name="First game with this box?")).to_be_visible()
        zoe.get_by_role("button", name="Yes, explain as we play").click()
        dima.get_by_role("button", name="No thanks").click()
        expect()(zoe.get_by_role("region", name="First game with this box?")).to_have_count(0)

        # who starts: the order roll, explained with its rule (not printed: a house default)
        expect()(explained).to_contain_text("decide who starts")
        expect()(explained).to_contain_text("Rule: Monopoly: The Super Mario Bros. Movie Edition: "
                                            "house default (unverified)")
        explained.get_by_role("button", name="Got it").click()
        expect()(explained).to_have_count(0)
        play(service, gid, steps[0])  # Luigi's order roll: the same kind, not explained again
        expect()(zoe.locator(".glance")).to_contain_text("Дмитрий")
        expect()(explained).to_have_count(0)

        play(service, gid, steps[1])  # the first turn: a new kind
        expect()(explained).to_contain_text("roll the dice")
        expect()(explained).to_contain_text("Rule: " + MARIO + ", Steps in a Player's Turn")
        play(service, gid, steps[2])  # answered; Luigi's turn is the same kind: nothing
        expect()(zoe.locator(".glance")).to_contain_text("Дмитрий's turn")
        expect()(explained).to_have_count(0)
        play(service, gid, steps[3])  # Luigi lands on a free location: buy or auction
        expect()(explained).to_contain_text("auctioned")
        expect()(explained).to_contain_text("Buy or Auction")
        SHOTS.mkdir(parents=True, exist_ok=True)
        zoe.evaluate("window.scrollTo(0, 0)")
        zoe.screenshot(path=str(SHOTS / "first-game.png"))
        expect()(dima.get_by_role("region", name="What this means")).to_have_count(0)

        play(service, gid, steps[4])
        play(service, gid, steps[5])  # Zoë's turn, then a buy again: both seen
        expect()(zoe.locator(".glance")).to_contain_text("buy")
        zoe.reload()
        expect()(zoe.get_by_role("heading", name="Your turn!")).to_be_visible()
        expect()(zoe.get_by_role("region", name="First game with this box?")).to_have_count(0)
        expect()(explained).to_have_count(0)
        zoe.get_by_role("tab", name="Phone").click()
        expect()(zoe.get_by_role("checkbox", name="First-game mode")).to_be_checked()
        dima.reload()
        expect()(dima.get_by_role("tab", name="Table")).to_be_visible()
        expect()(dima.get_by_role("region", name="First game with this box?")).to_have_count(0)
        for page in (zoe, dima):
            page.context.close()
    assert errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_offer_the_explanation_and_the_search_pass_axe(browser: Any, tmp_path: Path,
                                                           scheme: str) -> None:
    """axe-core (tests/web/vendor) on the first-game offer, an explanation, and the open
    search: no serious or critical violation."""
    from test_page_a11y import violations

    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        gid, _ = start_mario(service)
        page = new_phone(browser, errors, scheme, bypass_csp=True, first_game=None)
        join(page, base, join_code(service, gid), "mario")
        expect()(page.get_by_role("region", name="First game with this box?")).to_be_visible()
        assert violations(page) == []
        page.get_by_role("button", name="Yes, explain as we play").click()
        expect()(page.get_by_role("region", name="What this means")).to_be_visible()
        assert violations(page) == []
        page.get_by_role("button", name="Rules", exact=True).click()
        sheet = page.get_by_role("dialog", name="Rules at hand")
        expect()(sheet.get_by_role("list", name="Passages found").locator("li").first
                 ).to_be_visible()
        assert violations(page) == []
        page.context.close()
    assert errors == []
