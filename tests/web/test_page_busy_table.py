"""Issue #29, items 5, 7, 9, 13, 14, 16 and 18 and a refused seat request, in Chromium at
390×844, each while several phones act at once and one phone is in the middle of composing
something (a trade, a seat key, a new game's setup) that must survive every live update."""

from __future__ import annotations

import re
from typing import Any

from page_driver import (
    Table,
    compose_a_trade,
    expect,
    join_code,
    new_phone,
    told,
)
from test_page_table_night import mario  # noqa: F401  (a fixture)

from companion.script import parse_step


def submit(table: Table, steps: list[Any]) -> None:
    """Moves made at the table on the companion itself (tags, the OLED buttons): every phone
    follows them live."""
    for step in steps:
        res = table.service.submit(table.game_id, parse_step(
            table.service.state(table.game_id)[1], step))
        assert res.ok, res.error


def test_a_refused_seat_request_says_so_on_its_button(mario: Table, browser: Any) -> None:  # noqa: F811
    """A phone asks the banker for Luigi's seat while the table plays: its button says what it
    asked ("show them 1234") at once, and once the banker refuses it offers to ask again (it
    kept the old "Asked the banker: show them …" after the refusal)."""
    errors: list[str] = []
    other = new_phone(browser, errors)
    other.goto(f"{mario.base}/?code={join_code(mario.service, mario.game_id)}")
    other.get_by_role("button", name="Join", exact=True).click()
    other.locator("[data-reclaim=luigi] summary").click()
    ask = other.locator("[data-ask=luigi]")
    expect()(ask).to_have_text("Ask the banker instead")
    ask.click()
    told(other, "Asked the banker; show them the code")
    code = other.evaluate("S.seat.asking.find((a) => a.player === 'luigi').code")
    expect()(ask).to_have_text(f"Asked the banker: show them {code}")
    mario.step(mario.steps[0])  # the table plays on meanwhile
    expect()(ask).to_have_text(f"Asked the banker: show them {code}")
    refuse = mario.bank.locator("[data-request=luigi]").get_by_role("button", name="Refuse").first
    expect()(refuse).to_be_visible()
    refuse.click()
    told(other, "The banker did not let this phone play Luigi.")
    expect()(ask).to_have_text("Ask the banker instead")
    mario.step(mario.steps[1])
    expect()(ask).to_have_text("Ask the banker instead")
    expect()(other.locator("[data-reclaim=luigi]")).to_have_attribute("open", "")
    other.context.close()
    assert errors == []


def test_the_log_reads_in_sentences_while_a_trade_is_typed(mario: Table) -> None:  # noqa: F811
    """Item 13: Luigi and Mario beat Bowser on their phones, Peach types a trade meanwhile;
    every phone's board says whom resting Bowser waits for in a sentence ("Bowser rests until
    Peach, Mario and Luigi have finished a turn."). Mario pays his Jail fine on his phone: the
    log says it once, in two sentences, never "Mario's Jail fine." nor "paid 1 coin and
    leaves Jail."; Mario's phone tells him "You pay the Jail fine of 1 coin. You leave Jail."."""
    peach = mario.phones["peach"]
    coins = compose_a_trade(peach, "peach", "luigi", "2")
    for step in mario.steps[:6]:  # ... luigi: choose mario, luigi: roll 3, mario: roll 5
        mario.step(step)
    rest = "Bowser rests until Peach, Mario and Luigi have finished a turn."
    for page in mario.all():
        page.locator("#tab-table").click()
        expect()(page.locator("section.board .mid")).to_contain_text(rest)
    mario.phones["peach"].locator("#tab-table").click()
    mario.step(mario.steps[6])  # Peach buys: her turn is over
    for page in mario.all():
        expect()(page.locator("section.board .mid")).to_contain_text(
            "Bowser rests until Mario and Luigi have finished a turn.")
        assert "waits for" not in page.evaluate("document.body.innerText")
    assert coins.input_value() == "2"

    submit(mario, mario.steps[7:34])  # ... to Mario in Jail, his turn
    mario.settle()
    said = len(mario.phones["mario"].evaluate("window.__toasts || []"))
    mario.step(mario.steps[34])  # mario: pay_jail_fine, tapped on his phone
    fine, leaves = "Mario pays the Jail fine of 1 coin.", "Mario leaves Jail."
    bad = re.compile(r"'s Jail fine\b|paid \d+ coins? and leaves Jail")
    for page in mario.all():
        lines = [re.sub(r"\s*rule$", "", x) for x in page.get_by_role(
            "list", name="What just happened").locator(":scope > li").all_inner_texts()]
        assert [x for x in lines if "Jail" in x][:2] == [leaves, fine], lines
        assert sum("Jail fine" in x for x in lines) == 1, lines
        assert not bad.search(page.evaluate("document.body.innerText"))
        if page is peach:  # still typing her trade on the table tab
            continue
        page.locator("#tab-history").click()
        history = page.locator(".hist").inner_text()
        assert history.count("pays the Jail fine of 1 coin") == 1 and not bad.search(history)
        page.locator("#tab-table").click()
    own = mario.phones["mario"].evaluate("window.__toasts")[said:]
    assert own[0] == "You pay the Jail fine of 1 coin. You leave Jail.", own
    assert coins.input_value() == "2"
