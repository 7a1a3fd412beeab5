"""A whole scripted game of each edition played through the page on four phones (banker, two
players and a watcher typing a seat key, Chromium at 390×844): every step tapped on the acting
player's phone and none refused; after every step no internal id, card id, "None" or field
name readable on any phone, and the watcher's typed key still there (#29 "Done when")."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from page_driver import (
    ARGS,
    CHROMIUM,
    FORBIDDEN,
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
    toasts,
)

pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.long(6),
              pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium")]
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
        # a fourth phone types a seat key through the whole game: never lost
        typing = new_phone(browser, errors)
        typing.goto(f"{base}/?code={code}")
        typing.get_by_role("button", name="Join", exact=True).click()
        typing.locator(f"[data-reclaim={ids[0]}] summary").click()
        typing.fill(f"#key-{ids[0]}", "1a2b 3c4d")
        typing.locator(f"#key-{ids[0]}").evaluate("el => { el.__mine = true; }")
        everyone = [bank, *phones.values()]

        def no_internal_names(n: int) -> None:
            for who, page in [("banker", bank), *phones.items(), ("watcher", typing)]:
                view = service.view(game_id, who if who in phones else None)
                page.wait_for_function(f"() => window.__version >= {view['version']}")
                assert internal_names(page, view) == [], f"{edition} step {n}, {who}'s phone"
            if not service.view(game_id, None)["finished"]:
                assert typing.evaluate(f"document.getElementById('key-{ids[0]}').__mine && "
                                       f"document.getElementById('key-{ids[0]}').value") \
                    == "1a2b 3c4d", f"{edition} step {n}: the typed seat key was lost"

        play(phones, bank, service, game_id, steps, check=no_internal_names, every=1)
        final = service.view(game_id, None)
        assert final["finished"]
        assert errors == []
        for page in everyone:
            page.wait_for_function(f"() => window.__version >= {final['version']}")
            expect()(page.locator(".glance .turn")).to_contain_text("Game over")
        no_internal_names(len(steps))
        # what hit a player (rent, a card...) was shown on that player's phone, to them: told
        # by the news of another's move, or by the answer to their own (web/static/app.js)
        for pid, page in phones.items():
            name = next(p["name"] for p in final["players"] if p["id"] == pid)
            paid = [r["say"] for r in service.history(game_id) if r["say"].startswith(
                f"{name} pays ") and not r["undone"]]
            hits = page.evaluate("(window.__hits || []).concat(window.__toasts || [])")
            told = any(re.search(r"(^|\. )You pay ", h) for h in hits)
            assert bool(paid) == told, (pid, paid, hits)
        # nothing the page offered was refused, and no toast (gone after seconds, so not in
        # the page's text above) showed an id or a sentence fragment ("You pass START: collects")
        named = {p["id"] for p in final["players"]} | {
            s["id"] for s in (final.get("board") or {}).get("spaces", []) if "-" in s["id"]}
        for who, page in [("banker", bank), *phones.items(), ("watcher", typing)]:
            assert page.evaluate("window.__refused || []") == [], (edition, who)
            for said in toasts(page):
                bad = [m.group(0) for rx in FORBIDDEN for m in rx.finditer(said)]
                bad += [i for i in named if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", said)]
                bad += re.findall(r"\bYou \w+ [^.]*: collects\b", said)
                # the reader's own news says "you" with a message of its own (YOU_SAY in
                # web/static/app.js), never an English line rewritten: "You rolled 3 and
                # collects 3 coins", "You roll 6 and catches Moltres" (issue 41)
                bad += re.findall(r"\b[Yy]ou (?:[^.!?]* )?and (?:collects|catches|pays|is|has|"
                                  r"wins|goes|draws|moves|gets)\b", said)
                assert bad == [], (edition, who, said)
        winner = next(p["name"] for p in final["players"] if p["id"] == final["winners"][0])
        expect()(bank.locator(".glance .turn")).to_contain_text(winner)
        SHOTS.mkdir(parents=True, exist_ok=True)
        phones[ids[0]].screenshot(path=str(SHOTS / f"game-{edition}-end.png"), full_page=True)
        for page in [*everyone, typing]:
            page.context.close()
    assert errors == []
