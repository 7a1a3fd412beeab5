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
from page_driver import CHROMIUM, expect, join, join_code, new_phone, running_server

from companion.service import GameService

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
