"""A whole scripted game of each edition played through the page on three phones (banker and
two players, Chromium at 390×844): every step tapped on the acting player's phone, and no
internal id or field name ever readable on any phone."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from page_driver import (
    ARGS,
    CHROMIUM,
    ROOT,
    SCRIPTS,
    banker_starts,
    expect,
    internal_names,
    join,
    new_phone,
    play,
    running_server,
    script,
)

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium")
SHOTS = ROOT / "artifacts" / "screenshots"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.mark.parametrize("edition", list(SCRIPTS))
def test_scripted_game_to_the_end(edition: str, browser: Any, tmp_path: Any) -> None:
    data = script(edition)
    steps = data.pop("steps")
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        bank = new_phone(browser, errors)
        code = banker_starts(bank, base, data)
        game_id = service.active_game() or ""
        ids = [p["id"] for p in service.view(game_id, None)["players"]]
        phones = {pid: new_phone(browser, errors, "dark" if i else "light")
                  for i, pid in enumerate(ids[:2])}
        for pid, page in phones.items():
            join(page, base, code, pid)
        bank.locator("#tab-table").click()
        everyone = [bank, *phones.values()]

        def no_internal_names(n: int) -> None:
            for who, page in [("banker", bank), *phones.items()]:
                view = service.view(game_id, None if who == "banker" else who)
                page.wait_for_function(f"() => window.__version >= {view['version']}")
                assert internal_names(page, view) == [], f"{edition} step {n}, {who}'s phone"

        play(phones, bank, service, game_id, steps, check=no_internal_names, every=15)
        final = service.view(game_id, None)
        assert final["finished"]
        assert errors == []
        for page in everyone:
            page.wait_for_function(f"() => window.__version >= {final['version']}")
            expect()(page.locator(".glance .turn")).to_contain_text("Game over")
        no_internal_names(len(steps))
        # what hit a player (rent, a card...) was shown on that player's phone, to them
        for pid, page in phones.items():
            name = next(p["name"] for p in final["players"] if p["id"] == pid)
            paid = [r["say"] for r in service.history(game_id) if r["say"].startswith(
                f"{name} pays ") and not r["undone"]]
            hits = page.evaluate("window.__hits || []")
            assert bool(paid) == any(h.startswith("You pay ") for h in hits), (pid, paid, hits)
        winner = next(p["name"] for p in final["players"] if p["id"] == final["winners"][0])
        expect()(bank.locator(".glance .turn")).to_contain_text(winner)
        SHOTS.mkdir(parents=True, exist_ok=True)
        phones[ids[0]].screenshot(path=str(SHOTS / f"game-{edition}-end.png"), full_page=True)
        for page in everyone:
            page.context.close()
    assert errors == []
