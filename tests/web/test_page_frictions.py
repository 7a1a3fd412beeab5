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
