"""Each edition's main states on a 390×844 phone (the whole page), light and dark, against
the pictures committed in docs/screens/: a pixel counts as different when a channel moves by
more than TOLERANCE, and a picture fails when more than MAX_FRACTION of its pixels differ.
Same seeds, same fonts (DejaVu Sans), no animation, toasts hidden. UPDATE_SCREENS=1 rewrites
the pictures."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from page_driver import (
    ARGS,
    CHROMIUM,
    ROOT,
    SCRIPTS,
    finish,
    join,
    join_code,
    new_phone,
    running_server,
    setup_game,
    steady,
)

pytest.importorskip("playwright.sync_api")
Image = pytest.importorskip("PIL.Image")
ImageChops = pytest.importorskip("PIL.ImageChops")
pytestmark = [
    pytest.mark.long(3),
    pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium"),
    pytest.mark.skipif(not os.path.exists("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
                       reason="the pictures are drawn with DejaVu Sans (fonts-dejavu-core)")]
SCREENS = ROOT / "docs" / "screens"
TOLERANCE = 40          # of 255, per channel: antialiasing differences
MAX_FRACTION = 0.006    # of all pixels


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def differing_fraction(a: Any, b: Any) -> float:
    if a.size != b.size:
        return 1.0
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
    bad = sum(diff.point(lambda x: 255 if x > TOLERANCE else 0).histogram()[255:])
    return float(bad) / (a.size[0] * a.size[1])


@pytest.mark.parametrize("where", ["play", "end"])
@pytest.mark.parametrize("edition", list(SCRIPTS))
def test_screens_match(edition: str, where: str, browser: Any, tmp_path: Any) -> None:
    errors: list[str] = []
    for scheme in ("light", "dark"):  # a server each: the phone claims the same seat
        with running_server(tmp_path / scheme) as (base, service):
            game_id, ids = setup_game(service, edition, "last" if where == "end" else where)
            view = service.view(game_id, None)
            who = view["current"] if view["current"] in ids else ids[0]
            page = new_phone(browser, errors, scheme, bypass_csp=True)
            join(page, base, join_code(service, game_id), who)
            if where == "end":  # joined while it ran: a finished game takes no new phones
                finish(service, game_id, edition)
                view = service.view(game_id, None)
            steady(page, view["version"])
            name = f"{edition}-{where}-{scheme}.png"
            got = tmp_path / name
            page.screenshot(path=str(got), full_page=True)
            page.context.close()
        ref = SCREENS / name
        if os.environ.get("UPDATE_SCREENS") or not ref.exists():
            SCREENS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(got, ref)
            continue
        with Image.open(got) as a, Image.open(ref) as b:
            frac = differing_fraction(a, b)
        if frac > MAX_FRACTION:
            out = ROOT / "artifacts" / "screenshots"
            out.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(got, out / f"actual-{name}")
        assert frac <= MAX_FRACTION, f"{name}: {frac:.2%} of the pixels differ"
    assert errors == []
