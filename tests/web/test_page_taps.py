"""A tap is never lost to a live update (Chromium, 390×844): at a table someone is always
moving, so a phone's finger is often on a button when another phone's move redraws the
page. The press and the release must land on the same button, or the browser sends the tap
nowhere and the player taps again, not knowing whether the first one counted."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from page_driver import CHROMIUM, Table, compose_a_trade, expect
from test_page_table_night import mario  # noqa: F401  (a fixture)

from companion.service.script import parse_step

pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="needs Debian's chromium")


def press(page: Any, target: Any) -> None:
    """Put a finger down on ``target`` (released by ``page.mouse.up()``)."""
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def test_a_tap_made_while_another_phone_moves_counts(mario: Table) -> None:  # noqa: F811
    """Luigi's finger is on the History tab when Mario's move reaches his phone: when he lifts
    it, History opens (before, the redraw replaced the button under his finger and the tap
    went nowhere); and the move itself shows on his phone once he has let go."""
    step = mario.steps[0]
    actor = parse_step(mario.service.state(mario.game_id)[1], step).to_json()["actor"]
    watcher_id = next(pid for pid in mario.phones if pid != actor)
    watcher = mario.phones[watcher_id]
    before = mario.version()
    press(watcher, watcher.locator("#tab-history"))
    mario.step(step)  # waits until every phone, the pressing one too, has the new version
    watcher.mouse.up()
    expect()(watcher.locator("#tab-history")).to_have_attribute("aria-selected", "true")
    assert watcher.evaluate("window.__version") > before


def test_a_form_opened_while_another_phone_moves_opens(mario: Table) -> None:  # noqa: F811
    """Luigi taps "Propose a trade" as Mario's move arrives: the trade form opens (it stayed
    shut when the redraw replaced the opener under his finger)."""
    step = mario.steps[0]
    actor = parse_step(mario.service.state(mario.game_id)[1], step).to_json()["actor"]
    pid = next(p for p in mario.phones if p != actor)
    phone = mario.phones[pid]
    trade = phone.locator(f".action[data-actor={pid}][data-type=propose_trade]")
    press(phone, trade.locator("summary"))
    mario.step(step)
    phone.mouse.up()
    expect()(trade.locator("select")).to_be_visible()


def test_a_finger_resting_on_the_screen_does_not_freeze_it(mario: Table) -> None:  # noqa: F811
    """A finger left on the page (a long press, a phone held by its screen) does not hold the
    table back: the move shows on that phone while the finger is still down."""
    step = mario.steps[0]
    actor = parse_step(mario.service.state(mario.game_id)[1], step).to_json()["actor"]
    watcher = mario.phones[next(pid for pid in mario.phones if pid != actor)]
    news = watcher.locator(".glance")
    shown = news.inner_text()
    press(watcher, watcher.locator("#tab-history"))
    mario.step(step)
    expect()(news).not_to_have_text(shown)  # the finger is still down
    watcher.mouse.up()


def test_a_trade_being_typed_survives_a_look_at_another_tab(mario: Table) -> None:  # noqa: F811
    """Peach types a trade, looks at the History tab (another phone moves meanwhile) and comes
    back: her partner, coins and focus-free form are as she left them, still open."""
    step = mario.steps[0]
    actor = parse_step(mario.service.state(mario.game_id)[1], step).to_json()["actor"]
    pid = next(p for p in mario.phones if p != actor)
    phone = mario.phones[pid]
    partner = next(p for p in mario.phones if p != pid)
    compose_a_trade(phone, pid, partner, "3")
    phone.locator("#tab-history").click()
    mario.step(step)
    phone.locator("#tab-table").click()
    trade = phone.locator(f".action[data-actor={pid}][data-type=propose_trade]")
    expect()(trade.locator("select")).to_have_value(partner)
    expect()(trade.locator("fieldset").nth(0).locator("input[type=number]")).to_have_value("3")
