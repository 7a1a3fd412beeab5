"""Why did it take my coins? Every automatic line under "Just now" and in History offers the
rule behind it: a tap on "rule" shows the rulebook's section and words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from page_driver import (
    expect,
    join,
    join_code,
    new_phone,
    running_server,
    setup_game,
)


def test_a_tap_on_rule_shows_the_rulebook_words(browser: Any, tmp_path: Path) -> None:
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        game_id, ids = setup_game(service, "mario", "play")
        page = new_phone(browser, errors)
        join(page, base, join_code(service, game_id), ids[0])
        happened = page.get_by_role("list", name="What just happened")
        rule = happened.get_by_role("button", name="rule").first
        why = happened.locator(".cite").first
        expect()(why).to_be_hidden()
        rule.click()
        expect()(why).to_be_visible()
        expect()(why).to_contain_text(
            "Monopoly: The Super Mario Bros. Movie Edition rulebook")
        expect()(rule).to_have_attribute("aria-expanded", "true")
        page.get_by_role("tab", name="History").click()
        expect()(page.get_by_role("region", name="History").locator(".cite").first
                              ).to_contain_text("rulebook")
        page.context.close()
    assert errors == []


def test_a_shipped_default_is_marked_where_it_is_used(browser: Any, tmp_path: Path) -> None:
    """Mario's prices are not printed in the rulebook: tapping a location says its price is the
    shipped default, not yet checked against the box on the table."""
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        game_id, ids = setup_game(service, "mario", "play")
        view = service.view(game_id, None)
        space = next(s for s in view["board"]["spaces"] if "price" in s.get("unverified", []))
        page = new_phone(browser, errors)
        join(page, base, join_code(service, game_id), ids[0])
        page.locator(f'.cell[data-space="{space["index"]}"]').click()
        expect()(page.locator(".space-detail")).to_contain_text(
            "not yet checked against your box")
        page.context.close()
    assert errors == []
