#!/usr/bin/env python3
"""Taps per common action and the time to pick a card, on three phones at 390×844 (issue #39).

Debian's chromium through Playwright, the real server, three phones (one per player) playing
by taps as tests/web/page_driver.py does: the 3-player examples of Mario, Pokémon and Master
Trainer (real dice), a trade offered and accepted, and each phone naming the card it drew
from a real pile (Monopolino's 24 RISK cards, Star Wars' 16 Chance cards). A tap is a click
or a choice in a list; a field is a box typed into; a scroll is counted when the control is
not on the screen from the top of the page. Times are wall-clock on this machine: from the
first tap to the move shown on the phone (the server's answer and the page's redraw
included; a person's reading and aiming are not). Prints a Markdown table; asserts nothing.

    .venv/bin/python scripts/bench_page_taps.py [--steps 120]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))  # the page tests' driver

from page_driver import (  # type: ignore[import-not-found]  # noqa: E402
    ARGS,
    CHROMIUM,
    ball_and_roll,
    join,
    join_code,
    new_phone,
    page_rolls_after,
    running_server,
    tap_command,
)

from companion.service.game_service import GameService  # noqa: E402
from companion.service.script import parse_step  # noqa: E402

COUNT = """() => {
  window.__taps = 0; window.__typed = new Set();
  addEventListener('click', (e) => { if (e.isTrusted) window.__taps += 1; }, true);
  addEventListener('change', (e) => { if (e.target.tagName === 'SELECT') window.__taps += 1; },
    true);
  addEventListener('input', (e) => { if (e.target.matches('input:not([type=checkbox]), textarea'))
    window.__typed.add(e.target); }, true); }"""
COUNT_INIT = f"({COUNT})();"
KIND = {"roll": "roll", "buy": "buy", "pay_jail_fine": "pay", "explore": "catch (Pokémon: explore)",
        "reroll": "catch (Pokémon: re-roll)", "catch": "catch (Master Trainer: die and ball)",
        "choose": "choose", "land": "land (Master Trainer)"}
Row = dict[str, float]
EXAMPLES = {"mario": "mario-three-players", "pokemon": "pokemon-three-trainers",
            "master-trainer": "master-trainer-three-players"}


def phone(browser: Any, base: str, service: GameService, gid: str, pid: str) -> Any:
    page = new_phone(browser, [])
    page.context.add_init_script(COUNT_INIT)
    join(page, base, join_code(service, gid), pid)
    return page


def measure(page: Any, version: int, do: Callable[[], None], target: Any = None) -> Row:
    """Taps, fields and scrolls ``do`` takes on ``page``, and the time until it shows a newer
    version than ``version``."""
    page.evaluate("() => { window.__taps = 0; window.__typed = new Set(); window.scrollTo(0, 0); }")
    scroll = 0.0
    if target is not None:
        box = target.bounding_box()
        scroll = float(bool(box and box["y"] + box["height"] > 844))
    start = time.perf_counter()
    do()
    page.wait_for_function(f"() => window.__version > {version}", timeout=30_000)
    ms = (time.perf_counter() - start) * 1000
    taps, typed = page.evaluate("[window.__taps, window.__typed.size]")
    return {"taps": taps, "fields": typed, "scrolls": scroll, "ms": ms}


def play_example(browser: Any, edition: str, limit: int, rows: dict[str, list[Row]]) -> None:
    """The edition's 3-player example on three phones, each step tapped on its player's."""
    data = json.loads((ROOT / "examples" / f"{EXAMPLES[edition]}.json").read_text("utf-8"))
    steps = data.pop("steps")[:limit]
    with tempfile.TemporaryDirectory() as tmp, running_server(Path(tmp)) as (base, service):
        gid = str(service.create_game(data).game_id)
        ids = [p["id"] for p in service.view(gid, None)["players"]]
        phones = {pid: phone(browser, base, service, gid, pid) for pid in ids[:3]}
        skip = -1
        for n, step in enumerate(steps):
            if n == skip:
                continue
            version, state = service.state(gid)
            cmd = parse_step(state, step).to_json()
            page = phones.get(cmd["actor"])
            if page is None:  # the banker's steps are not a player's taps
                assert service.submit(gid, cmd).ok
                continue
            page.wait_for_function(f"() => window.__version >= {version}", timeout=120_000)
            box = page.locator(f'.action[data-actor="{cmd["actor"]}"][data-type="{cmd["type"]}"]')
            target = box.first if box.count() else None
            try:
                if page_rolls_after(page, cmd):
                    then = parse_step(state, steps[n + 1]).to_json()
                    dice = then["args"].get("dice") or then["args"].get("values")
                    sent = len(service.commands(gid))
                    row = measure(page, version, partial(ball_and_roll, page, cmd, dice), target)
                    skip = n + 1
                    while len(service.commands(gid)) < sent + 2:  # the roll sent after it
                        page.wait_for_timeout(20)
                else:
                    row = measure(page, version, partial(tap_command, page, cmd, 0), target)
            except Exception as e:  # noqa: BLE001 - a step the driver could not tap: played
                said = page.evaluate("document.getElementById('toast').textContent")
                print(f"{edition} step {n} {step!r}: not tapped ({type(e).__name__}: {said})",
                      file=sys.stderr)
                if service.state(gid)[0] == version:
                    assert service.submit(gid, cmd).ok
                continue
            rows[KIND.get(cmd["type"], cmd["type"])].append(row)


def trade(browser: Any, rows: dict[str, list[Row]]) -> None:
    """Luke offers Leia ₥50 for nothing on his phone (the form); Leia accepts on hers."""
    setup = {"edition": "starwars", "players": ["Luke", "Leia", "Han"], "dice": "physical",
             "seed": 7, "settings": {"order": "seated"}}
    with tempfile.TemporaryDirectory() as tmp, running_server(Path(tmp)) as (base, service):
        gid = str(service.create_game(setup).game_id)
        phones = {pid: phone(browser, base, service, gid, pid) for pid in ("luke", "leia", "han")}
        for offerer, to in (("luke", "leia"), ("leia", "han"), ("han", "luke")):
            page = phones[offerer]
            box = page.locator(f".action[data-actor={offerer}][data-type=propose_trade]")

            def offer(box: Any = box, to: str = to) -> None:
                box.locator("summary").click()
                box.locator("select").select_option(to)
                box.locator("fieldset").nth(0).locator("input[type=number]").fill("50")
                box.get_by_role("button", name="Offer the trade").click()
            rows["trade: offer (money)"].append(measure(page, service.state(gid)[0], offer,
                                                        box.first))
            other = phones[to]
            accept = other.locator(f".offer .action[data-actor={to}][data-type=accept_trade]")
            version = service.state(gid)[0]
            other.wait_for_function(f"() => window.__version >= {version}")
            rows["trade: accept"].append(measure(other, version, accept.click, accept))


PILES = {"monopolino": ([2], "RISK"), "starwars": ([1, 1], "Chance")}


def pick_cards(browser: Any, rows: dict[str, list[Row]], grids: list[str]) -> None:
    """Each of three phones rolls onto a card space and names the card it drew (the pile's
    last card, the furthest to reach), in a game where its player moves first."""
    names = ["Anna", "Ben", "Cleo"]
    for edition, (dice, title) in PILES.items():
        for first in range(3):
            order = names[first:] + names[:first]
            setup = {"edition": edition, "players": order, "dice": "physical", "seed": 3,
                     "settings": {"order": "seated", "decks": "physical"}}
            with tempfile.TemporaryDirectory() as tmp, \
                    running_server(Path(tmp)) as (base, service):
                gid = str(service.create_game(setup).game_id)
                pid = order[0].lower()
                pages = [phone(browser, base, service, gid, p.lower()) for p in order]
                page = pages[0]
                version = service.state(gid)[0]
                page.wait_for_function(f"() => window.__version >= {version}")
                start = time.perf_counter()
                tap_command(page, {"actor": pid, "type": "roll", "args": {"dice": dice}}, 0)
                page.locator(".draw-grid").wait_for()
                shown = (time.perf_counter() - start) * 1000
                cards = service.view(gid, pid)["prompt"]["data"]["cards"]
                fit = page.evaluate("""() => {
                  const g = document.querySelector('.draw-grid');
                  const cells = [...g.querySelectorAll('.card-grid button')];
                  const top = g.getBoundingClientRect().top + scrollY;
                  const bottom = Math.max(...cells.map(
                    (b) => b.getBoundingClientRect().bottom + scrollY));
                  const bar = document.querySelector('header.bar').offsetHeight;
                  return {top, height: bottom - top, room: innerHeight - bar}; }""")
                cell = page.locator(f'.draw-grid .action[data-args=\'{{"card":"{cards[-1]}"}}\']')
                version = service.state(gid)[0]
                row = measure(page, version, cell.locator("button").click, cell)
                row["scrolls"] = float(fit["top"] + fit["height"] > 844) + float(
                    fit["height"] > fit["room"])
                row["shown_ms"] = shown
                rows[f"pick a card ({edition}, {len(cards)} {title} cards)"].append(row)
                grids.append(f"{edition}: {len(cards)} cards in {fit['height']:.0f} px of "
                             f"{fit['room']} px")


def table(rows: dict[str, list[Row]]) -> None:
    print("| action | n | taps | fields typed | scrolls | tap to shown (median ms) |")
    print("|---|---|---|---|---|---|")
    for kind, got in rows.items():
        if not got:
            continue
        def mean(key: str, got: list[Row] = got) -> str:
            return f"{statistics.fmean(r[key] for r in got):.1f}".rstrip("0").rstrip(".")
        ms = statistics.median(r["ms"] for r in got)
        extra = ""
        if "shown_ms" in got[0]:
            extra = f"; grid shown {statistics.median(r['shown_ms'] for r in got):.0f} ms " \
                    "after the roll's tap"
        print(f"| {kind} | {len(got)} | {mean('taps')} | {mean('fields')} | {mean('scrolls')} "
              f"| {ms:.0f}{extra} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=90, help="steps of each example played")
    ap.add_argument("--editions", default="mario,pokemon,master-trainer")
    ap.add_argument("--no-cards", action="store_true", help="skip the trades and card piles")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    rows: dict[str, list[Row]] = defaultdict(list)
    grids: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for edition in args.editions.split(","):
                play_example(browser, edition, args.steps, rows)
            if not args.no_cards:
                trade(browser, rows)
                pick_cards(browser, rows, grids)
        finally:
            browser.close()
    table(rows)
    print("\n" + "; ".join(dict.fromkeys(grids)))


if __name__ == "__main__":
    main()
