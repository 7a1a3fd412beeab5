"""axe-core (vendored: tests/web/vendor/axe.min.js, from `npm pack axe-core`, MPL-2.0) in
Chromium on the page of every edition, light and dark, and on the banker's and join pages:
no serious or critical violation (WCAG 2.1 A/AA rules and best practices)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from page_driver import (
    ARGS,
    CHROMIUM,
    SCRIPTS,
    banker_starts,
    join,
    join_code,
    new_phone,
    running_server,
    script,
    setup_game,
)

pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.long(2),
              pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium")]
AXE = Path(__file__).with_name("vendor") / "axe.min.js"
RUN = """async () => {
  const r = await axe.run(document, {runOnly: {type: "tag", values:
    ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}});
  return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3)
      .map((n) => n.target.join(" ")).join("; ")}`);
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def violations(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))
    return list(page.evaluate(RUN))


@pytest.mark.parametrize("edition", list(SCRIPTS))
def test_no_serious_violation(edition: str, browser: Any, tmp_path: Any) -> None:
    errors: list[str] = []
    for scheme in ("light", "dark"):  # a server each: the phone claims the same seat
        with running_server(tmp_path / scheme) as (base, service):
            game_id, ids = setup_game(service, edition, "play")
            view = service.view(game_id, None)
            page = new_phone(browser, errors, scheme, bypass_csp=True)
            join(page, base, join_code(service, game_id), ids[0])
            page.wait_for_function(f"() => window.__version >= {view['version']}")
            assert violations(page) == [], f"{edition} table, {scheme}"
            page.locator("#tab-history").click()
            page.wait_for_selector("ol.hist")
            assert violations(page) == [], f"{edition} history, {scheme}"
            page.context.close()
    assert errors == []


def test_banker_and_join_pages(browser: Any, tmp_path: Any) -> None:
    errors: list[str] = []
    with running_server(tmp_path) as (base, _service):
        for scheme in ("light", "dark"):
            page = new_phone(browser, errors, scheme, bypass_csp=True)
            page.goto(base + "/")
            page.wait_for_selector("#code")
            assert violations(page) == [], f"join page, {scheme}"
            data = script("mario")
            data.pop("steps")
            banker_starts(page, base, data)
            assert violations(page) == [], f"banker page, {scheme}"
            page.context.close()
    assert errors == []
