"""What a real evening still hit on the phones (issue #39 items 5-8, 10, 11), in Chromium at
390×844: token colours, a move that ends a player's game, the first screen, toasts over
controls, a trade offered, a stale bid floor, and naming the card just drawn."""

from __future__ import annotations

import colorsys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from page_driver import CHROMIUM, expect, join, join_code, new_phone, running_server, told

from companion.service.game_service import GameService

pytestmark = pytest.mark.skipif(not __import__("shutil").which(CHROMIUM),
                                reason="needs Debian's chromium")


@contextmanager
def table(browser: Any, tmp_path: Path, setup: dict[str, Any], seats: list[str],
          steps: list[dict[str, Any]] = (), locale: str = "en-GB",  # type: ignore[assignment]
          ) -> Iterator[tuple[GameService, str, dict[str, Any], list[str]]]:
    """A game set up on the companion (``steps`` played there), a phone per seat joined."""
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        out = service.create_game(setup)
        assert out.ok, out.error
        gid = str(out.game_id)
        for cmd in steps:
            res = service.submit(gid, cmd)
            assert res.ok, (cmd, res.error)
        phones = {}
        for pid in seats:
            phones[pid] = new_phone(browser, errors, locale=locale)
            join(phones[pid], base, join_code(service, gid), pid)
        version = service.state(gid)[0]
        for page in phones.values():
            page.wait_for_function(f"() => window.__version >= {version}")
        yield service, gid, phones, errors
        for page in phones.values():
            page.context.close()
    assert errors == []


def hue(page: Any, selector: str, prop: str = "--c") -> float:
    """The hue (0-360) of an element's colour: its ``--c`` (seat colour) as drawn."""
    rgb = page.evaluate("""([sel, prop]) => {
        const el = document.querySelector(sel);
        const probe = document.createElement('span');
        probe.style.color = getComputedStyle(el).getPropertyValue(prop).trim();
        document.body.append(probe);
        const c = getComputedStyle(probe).color; probe.remove();
        return c.match(/\\d+/g).slice(0, 3).map(Number); }""", [selector, prop])
    h, _, _ = colorsys.rgb_to_hls(*(x / 255 for x in rgb))
    return h * 360


HUES = {"red": (340, 20), "blue": (195, 250), "green": (90, 160), "yellow": (38, 65)}


def is_hue(angle: float, colour: str) -> bool:
    lo, hi = HUES[colour]
    return lo <= angle <= hi if lo < hi else angle >= lo or angle <= hi


def test_a_token_with_a_colour_is_drawn_in_that_colour(browser: Any, tmp_path: Path) -> None:
    """Item 5: Monopolino's "Giulia (Red token)" is red on every phone (turn dot, the players'
    list, tokens on the board ring, owners' borders), not the seat's blue."""
    tokens = {"giulia": "red", "marco": "blue", "sara": "green", "luca": "yellow"}
    setup = {"edition": "monopolino", "dice": "physical", "seed": 3,
             "settings": {"order": "seated"},
             "players": [{"name": n.title(), "token": f"{c.title()} token"}
                         for n, c in tokens.items()]}
    with table(browser, tmp_path, setup, ["giulia", "marco"]) as (service, gid, phones, _):
        for page in phones.values():
            expect()(page.locator(".players li[data-player=luca]")).to_contain_text("Yellow token")
            for pid, colour in tokens.items():
                angle = hue(page, f".players li[data-player={pid}]")
                assert is_hue(angle, colour), (pid, colour, angle)
            assert is_hue(hue(page, ".glance h2 .pdot"), "red")  # Giulia's turn
        assert is_hue(hue(phones["marco"], "#who"), "blue")


def roll(pid: str, n: int) -> dict[str, Any]:
    return {"actor": pid, "type": "roll", "args": {"dice": [n]}}


def cmd(pid: str, kind: str, **args: Any) -> dict[str, Any]:
    return {"actor": pid, "type": kind, "args": args}


POKEMON = {"edition": "pokemon", "players": ["Ana", "Beto"], "dice": "physical", "seed": 3,
           "settings": {"order": "seated"}}
TO_GLACIER = [roll("ana", 2), roll("beto", 2), roll("ana", 2), cmd("ana", "choose", option="stay"),
              roll("beto", 2), cmd("beto", "choose", option="stay"), roll("ana", 2),
              cmd("ana", "buy")]
"""Ana lands on Glacier, takes control of it, and is asked whether to explore it."""


def test_a_move_that_ends_a_players_game_asks_first(browser: Any, tmp_path: Path) -> None:
    """Item 6: re-rolling with the last Poké Ball (out of the game before the roll, the
    default reading) is not one tap: the phone says what it ends and asks; Cancel keeps
    the player in; Yes re-rolls."""
    last = [*TO_GLACIER, cmd("banker", "transfer", source="ana", to="bank", amount=18,
                              reason="lost in the tall grass"), cmd("ana", "explore"),
            roll("ana", 6)]
    with table(browser, tmp_path, POKEMON, ["ana"], last) as (service, gid, phones, _):
        ana = phones["ana"]
        before = service.state(gid)[0]
        box = ana.locator('.action[data-actor=ana][data-type=reroll]')
        box.get_by_role("button").click()
        alert = box.get_by_role("alert")
        expect()(alert).to_contain_text("last Poké Ball")
        expect()(alert).to_contain_text("out of the game")
        assert service.state(gid)[0] == before  # nothing sent yet
        box.get_by_role("button", name="Cancel").click()
        expect()(box.get_by_role("alert")).to_have_count(0)
        assert service.state(gid)[0] == before
        box.get_by_role("button").click()
        box.locator("[data-confirm=yes]").click()
        ana.wait_for_function(f"() => window.__version > {before}")
        assert service.state(gid)[1].player("ana").bankrupt


def test_a_reroll_that_keeps_the_player_in_is_one_tap(browser: Any, tmp_path: Path) -> None:
    """Item 6: a re-roll with Poké Balls to spare asks nothing."""
    steps = [*TO_GLACIER, cmd("ana", "explore"), roll("ana", 6)]
    with table(browser, tmp_path, POKEMON, ["ana"], steps) as (service, gid, phones, _):
        before = service.state(gid)[0]
        phones["ana"].locator('.action[data-actor=ana][data-type=reroll] button').click()
        phones["ana"].wait_for_function(f"() => window.__version > {before}")
        assert service.commands(gid)[-1]["body"]["type"] == "reroll"


def on_first_screen(page: Any, locator: Any) -> bool:
    """Whether the element shows whole on the phone's first screen, without scrolling."""
    page.evaluate("window.scrollTo(0, 0)")
    box = locator.bounding_box()
    return bool(box and box["y"] >= 0 and box["y"] + box["height"] <= 844)


def test_the_starter_choice_is_on_the_first_screen(browser: Any, tmp_path: Path) -> None:
    """Item 7: Master Trainer's note about guessed defaults (the banker's, at setup) does not
    fill a player's first screen: the starter choice shows there; the note reads whole on a tap
    and in the history."""
    setup = {"edition": "master-trainer", "players": ["Ash", "Misty", "Brock"], "seed": 1}
    with table(browser, tmp_path, setup, ["ash"]) as (service, gid, phones, _):
        ash = phones["ash"]
        starters = ash.locator('.action[data-actor=ash][data-type=starter]')
        expect()(starters.locator("button").first).to_be_visible()
        assert on_first_screen(ash, starters.locator("button").first)
        note = ash.locator(".happened li", has_text="Not printed in the rulebook")
        expect()(note).to_be_visible()
        assert note.bounding_box()["height"] < 80  # two lines, not a wall
        note.click()
        expect()(note).to_contain_text("which Pokémon evolve into which")
        assert note.bounding_box()["height"] > 80


MONOPOLINO = {"edition": "monopolino", "players": ["Giulia", "Marco"], "dice": "physical",
              "seed": 3, "settings": {"order": "seated", "decks": "physical"}}
"""Giulia's roll of 2 takes her to RISK, whose card she draws from the real pile."""

COVERED = """() => {
  const t = document.getElementById('toast');
  if (t.hidden) return null;
  const r = t.getBoundingClientRect(), hits = [];
  for (const el of document.querySelectorAll('.action button, .action input, .draw-grid input')) {
    const b = el.getBoundingClientRect();
    if (!b.width || b.bottom <= 0 || b.top >= innerHeight) continue;
    if (b.left < r.right && r.left < b.right && b.top < r.bottom && r.top < b.bottom)
      hits.push(el.textContent || el.getAttribute('aria-label'));
  }
  return hits; }"""


def test_a_toast_does_not_cover_the_controls_it_announces(browser: Any, tmp_path: Path) -> None:
    """Item 8: "You move 2 to RISK." shows where no card of the grid it announces is, at the
    top of the screen or scrolled to the grid alike."""
    with table(browser, tmp_path, MONOPOLINO, ["giulia"]) as (service, gid, phones, _):
        giulia = phones["giulia"]
        roll_box = giulia.locator('.action[data-actor=giulia][data-type=roll]')
        roll_box.locator("input[data-die='0']").fill("2")
        roll_box.locator("button[data-send=dice]").click()
        grid = giulia.locator(".draw-grid")
        expect()(grid).to_be_visible()
        told(giulia, "RISK")
        assert giulia.evaluate(COVERED) in ([], None)  # None: already gone on a slow machine
        said = giulia.evaluate("window.__toasts.at(-1)")
        again = f"() => {{ toast({said!r}, true); return true; }}"
        for scrolled in (False, True):  # the page's own toast, said again: held on screen
            if scrolled:
                grid.locator("button").nth(8).scroll_into_view_if_needed()
            giulia.evaluate(again)
            assert giulia.evaluate(COVERED) == [], scrolled


STARWARS = {"edition": "starwars", "players": ["Luke", "Leia"], "dice": "physical", "seed": 7,
            "settings": {"order": "seated"}}
TO_AUCTION = [{"actor": "luke", "type": "roll", "args": {"dice": [4, 5]}},
              {"actor": "luke", "type": "auction", "args": {}}]


def test_a_player_offered_a_trade_is_told(browser: Any, tmp_path: Path) -> None:
    """Item 10: the player a trade is offered to hears it in the second person, not only a
    line about two other people; the player who offers is not told it as news."""
    with table(browser, tmp_path, STARWARS, ["luke", "leia"]) as (service, gid, phones, _):
        offer = {"actor": "leia", "type": "propose_trade",
                 "args": {"to": "luke", "give": {"money": 50}, "take": {}}}
        assert service.submit(gid, offer).ok
        told(phones["luke"], "Leia offers you a trade")
        expect()(phones["luke"].locator(".offer .who")).to_contain_text("Leia offers you a trade")
        phones["leia"].wait_for_function(f"() => window.__version >= {service.state(gid)[0]}")
        assert not any("offers you" in t for t in phones["leia"].evaluate(
            "window.__toasts || []"))


def test_a_bid_being_typed_shows_the_floor_of_now(browser: Any, tmp_path: Path) -> None:
    """Item 10: a bid field kept while its player types shows the minimum after the other
    player's bid, not the floor it was drawn with; what is typed stays."""
    with table(browser, tmp_path, STARWARS, ["luke"], TO_AUCTION) as (service, gid, phones, _):
        luke = phones["luke"]
        box = luke.locator('.action[data-actor=luke][data-type=bid]')
        expect()(box.locator(".hint")).to_contain_text("from ₥10")
        box.locator("input[type=number]").fill("40")
        assert service.submit(gid, {"actor": "leia", "type": "bid", "args": {"amount": 38}}).ok
        floor = next(a["input"]["min"] for a in service.view(gid, "luke")["actions"]
                     if a["type"] == "bid" and a["actor"] == "luke")
        luke.wait_for_function(f"() => window.__version >= {service.state(gid)[0]}")
        expect()(box.locator(".hint")).to_contain_text(f"from ₥{floor} ")
        assert box.locator("input[type=number]").input_value() == "40"
        assert box.locator("input[type=number]").get_attribute("min") == str(floor)


GRID_FITS = """() => {
  const g = document.querySelector('.draw-grid'), bar = document.querySelector('header.bar');
  const cells = [...g.querySelectorAll('.card-grid button')].filter((b) => b.offsetParent);
  const top = g.getBoundingClientRect().top, bottom = Math.max(...cells.map(
    (b) => b.getBoundingClientRect().bottom));
  return {cells: cells.length, height: bottom - top, room: innerHeight - bar.offsetHeight}; }"""


@pytest.mark.parametrize("edition", ["monopolino", "starwars"])
def test_every_card_of_the_pile_shows_on_one_screen(browser: Any, tmp_path: Path,
                                                    edition: str) -> None:
    """Item 11: the cards that can come off the pile (Monopolino's 24 RISK cards, Star Wars'
    16 Chance cards) all show on one screen once the grid is scrolled to: the card just
    drawn is picked without hunting; typing a few letters still finds it."""
    drawer, setup, steps, typed = {
        "monopolino": ("giulia", MONOPOLINO, [roll("giulia", 2)], "toy shop"),
        "starwars": ("luke", {**STARWARS, "settings": {"order": "seated", "decks": "physical"}},
                     [{"actor": "luke", "type": "roll", "args": {"dice": [1, 1]}}], "cloud city"),
    }[edition]
    with table(browser, tmp_path, setup, [drawer], steps) as (service, gid, phones, _):
        page = phones[drawer]
        expect()(page.locator(".draw-grid")).to_be_visible()
        want = len(service.view(gid, drawer)["prompt"]["data"]["cards"])
        fit = page.evaluate(GRID_FITS)
        assert fit["cells"] == want >= 16
        assert fit["height"] <= fit["room"], fit
        page.get_by_label("Find the card").fill(typed)
        expect()(page.locator(".card-grid .action:visible")).to_have_count(1)
