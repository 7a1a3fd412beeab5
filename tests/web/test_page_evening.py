"""The rest of a real evening at the table (issue #29 items 10, 12 and 17), in Chromium at
390×844: a move is taken back by its name, news reaches the phone it concerns, a Master
Trainer catch is one step; each while another phone composes something it must keep."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from page_driver import (
    ROOT,
    Table,
    banker_login,
    compose_a_trade,
    expect,
    held_back,
    join,
    join_code,
    new_phone,
    running_server,
    script,
    tap_command,
    toasts,
    told,
)
from test_page_table_night import mario  # noqa: F401  (a fixture)

from companion.engine.i18n import Msg
from companion.service.game_record import MOVES
from companion.service.game_service import GameService
from companion.service.script import parse_step


def test_undo_names_the_move_and_brings_back_no_old_news(mario: Table) -> None:  # noqa: F811
    """Item 10: the banker's undo names the move as a player does ("Peach's roll", not
    "Bowser moves…"), the log says it in a sentence without "step(s)" or a die beside it,
    and no phone shows again what it was told turns ago; Mario's half-typed trade stays."""
    coins = compose_a_trade(mario.phones["mario"], "mario", "peach", "3")
    steps = iter(mario.steps)
    while True:  # play on until the last move is a player's roll (Bowser moves first)
        mario.step(next(steps))
        last = mario.service.commands(mario.game_id)[-1]
        if last["body"]["type"] == "roll":
            break
    name = next(p["name"] for p in mario.service.view(mario.game_id, None)["players"]
                if p["id"] == last["actor"])
    move = str(Msg(MOVES['roll'], player=name))
    said = [r["say"] for r in mario.service.history(mario.game_id) if r["cmd"] == last["cmd"]]
    assert said[0].startswith("Bowser")  # what the old box named the move by
    hits = {pid: page.evaluate("(window.__hits || []).length")
            for pid, page in mario.phones.items()}
    said_before = {pid: len(toasts(page)) for pid, page in mario.phones.items()}

    bank = mario.bank
    bank.locator("#tab-banker").click()
    box = bank.locator(".undo-box")
    expect()(box).to_contain_text(f"Last move: {move}")
    assert "Bowser" not in box.inner_text()
    bank.get_by_role("button", name="Take back the last move…").click()
    expect()(box.locator("[role=alert]")).to_have_text(
        f"Take back {move}? Everyone's phone goes back to before it.")
    before = mario.version()
    bank.locator("[data-confirm=undo]").click()
    bank.wait_for_function(f"() => window.__version > {before}")
    mario.settle()
    line = f"The banker undoes {move}."
    assert mario.service.history(mario.game_id)[-1]["say"] == line
    for pid, page in [*mario.phones.items(), ("banker", bank)]:
        page.locator("#tab-table").click()
        li = page.locator(".happened li").first
        expect()(li).to_have_text(line)
        assert li.locator(".dice-pics").count() == 0, pid
        if pid != "banker":  # nothing said again that was news turns ago
            assert page.evaluate("(window.__hits || []).length") == hits[pid], pid
            told(page, line)  # the undo is the news, and nothing else
            assert toasts(page)[said_before[pid]:] == [line], (pid, toasts(page))
    # taking back a move and two after it: counted in words
    version = mario.version()
    cmds = [c for c in mario.service.commands(mario.game_id) if c["body"]["type"] != "undo"]
    out = mario.service.undo(mario.game_id, cmds[-4]["cmd"])  # the last was taken back
    assert out.ok and out.says[0].endswith(" and the 2 moves after it."), out.says
    assert "step" not in out.says[0]
    mario.phones["mario"].wait_for_function(f"() => window.__version > {version}")
    assert coins.input_value() == "3"


def test_notices_reach_whom_they_concern(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """Item 12: Mario draws "Team spirit!" and Luigi's and Peach's phones say "You pay Mario
    1 coin."; Mario's own news says "You"; Peach, who typed her trade meanwhile, hears that
    Luigi declined it; a phone whose seat request the banker refused is told so."""
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        gid = str(service.create_game({
            "edition": "mario", "players": ["Mario", "Luigi", "Peach"], "dice": "physical",
            "seed": 1, "settings": {"order": "seated", "decks": "physical"}}).game_id)
        code = join_code(service, gid)
        table = Table(base, service, gid, [])
        for pid in ("mario", "luigi", "peach"):
            table.phones[pid] = new_phone(browser, errors)
            join(table.phones[pid], base, code, pid)
        table.bank = new_phone(browser, errors)
        banker_login(table.bank, base, gid)
        table.settle()
        mario, luigi, peach = (table.phones[p] for p in ("mario", "luigi", "peach"))
        coins = compose_a_trade(peach, "peach", "luigi", "2")

        before = table.version()
        tap_command(mario, {"actor": "mario", "type": "roll", "args": {"dice": [1, 1]}}, 0)
        mario.wait_for_function(f"() => window.__version > {before}")
        told(mario, "Question Block")  # the answer to Mario's own roll
        said = toasts(mario)[-1]
        assert "You move 2 to Question Block." in said and "You will roll again." in said, said
        assert not re.search(r"\bMario (moves|will|rolled)\b", said), said
        table.settle()
        before = table.version()
        mario.get_by_role("button", name=re.compile("Team spirit")).click()
        # the tap's request is on its way: wait for Mario's phone to show the card played
        mario.wait_for_function(f"() => window.__version > {before}")
        table.settle()
        for page in (luigi, peach):
            told(page, "You pay Mario 1 coin.")
        assert coins.input_value() == "2"  # Peach's trade, typed through all of it

        peach.get_by_role("button", name="Offer the trade").click()
        decline = luigi.locator('.action[data-actor=luigi][data-type=decline_trade] button')
        expect()(decline).to_have_count(1)
        decline.click()
        told(peach, "Luigi declined your trade.")

        other = new_phone(browser, errors)
        other.goto(f"{base}/?code={code}")
        other.get_by_role("button", name="Join", exact=True).click()
        other.locator("[data-reclaim=luigi] summary").click()
        other.locator("[data-ask=luigi]").click()
        told(other, "Asked the banker; show them the code")
        asks = table.bank.locator("[data-request=luigi]")
        refuse = asks.get_by_role("button", name="Refuse").first
        expect()(refuse).to_be_visible()
        refuse.click()
        told(other, "The banker did not let this phone play Luigi.")
        expect()(other.locator("#who")).to_have_text("Watching")
        for page in [*table.all(), other]:
            page.context.close()
    assert errors == []


def test_news_reaches_a_phone_whose_own_move_is_on_its_way(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """Item 12: Luigi offers Peach a trade and its answer is slow to come back; meanwhile Mario
    draws "Team spirit!" and Luigi pays him. Luigi's phone still says "You pay Mario 1 coin."
    (it dropped every line that came while its own move was on its way) and tells its own
    offer once, by the answer."""
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        gid = str(service.create_game({
            "edition": "mario", "players": ["Mario", "Luigi", "Peach"], "dice": "physical",
            "seed": 1, "settings": {"order": "seated", "decks": "physical"}}).game_id)
        code = join_code(service, gid)
        table = Table(base, service, gid, [])
        for pid in ("mario", "luigi", "peach"):
            table.phones[pid] = new_phone(browser, errors)
            join(table.phones[pid], base, code, pid)
        table.bank = new_phone(browser, errors)
        banker_login(table.bank, base, gid)
        table.settle()
        mario, luigi, peach = (table.phones[p] for p in ("mario", "luigi", "peach"))
        coins = compose_a_trade(peach, "peach", "mario", "3")  # Peach types meanwhile
        before = table.version()
        tap_command(mario, {"actor": "mario", "type": "roll", "args": {"dice": [1, 1]}}, 0)
        mario.wait_for_function(f"() => window.__version > {before}")
        table.settle()

        held: list[Any] = []  # Luigi's answers, held back until Mario has moved

        def hold(route: Any) -> None:
            held.append((route, route.fetch()))

        luigi.route("**/api/games/*/commands", hold)
        compose_a_trade(luigi, "luigi", "peach", "1")
        said = len(toasts(luigi))
        before = table.version()
        luigi.get_by_role("button", name="Offer the trade").click()
        luigi.wait_for_function(f"() => window.__version > {before}")  # its move, live
        held_back(luigi, held)
        assert len(held) == 1 and luigi.evaluate("S.sending") == 1
        before = table.version()
        mario.get_by_role("button", name=re.compile("Team spirit")).click()
        mario.wait_for_function(f"() => window.__version > {before}")
        luigi.wait_for_function(f"() => window.__version > {before}")  # Mario's move, live
        route, answer = held.pop()
        route.fulfill(response=answer)
        told(luigi, "You pay Mario 1 coin.")
        news = toasts(luigi)[said:]
        offer = [t for t in news if "trade" in t.lower()]
        assert len(offer) == 1 and sum(t.count("You pay Mario 1 coin.") for t in news) == 1, news
        told(peach, "You pay Mario 1 coin.")  # Peach, who was not sending, heard it too
        assert coins.input_value() == "3"
        luigi.unroute("**/api/games/*/commands")
        for page in table.all():
            page.context.close()
    assert errors == []


def test_your_own_news_speaks_to_you_in_every_language(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """Items 12-13: Mario reads English, Luigi Italian, Peach Spanish (and types a trade
    meanwhile). Mario's roll and "Team spirit!" are told to him as "You…", "Luigi pays you…";
    Luigi's and Peach's phones say they pay, each in its language, never in the third person
    (was "Luigi paga…" on Italian phones); and passing START is a whole sentence ("You pass
    START and collect €0.50.", was "You pass START: collects €0.50")."""
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        gid = str(service.create_game({
            "edition": "mario", "players": ["Mario", "Luigi", "Peach"], "dice": "physical",
            "seed": 1, "settings": {"order": "seated", "decks": "physical"}}).game_id)
        code = join_code(service, gid)
        table = Table(base, service, gid, [])
        for pid, locale in (("mario", "en-GB"), ("luigi", "it-IT"), ("peach", "es-ES")):
            table.phones[pid] = new_phone(browser, errors, locale=locale)
            join(table.phones[pid], base, code, pid)
        table.bank = new_phone(browser, errors)
        banker_login(table.bank, base, gid)
        table.settle()
        mario, luigi, peach = (table.phones[p] for p in ("mario", "luigi", "peach"))
        coins = peach.locator('.action[data-actor=peach][data-type=propose_trade]')
        coins.locator("summary").click()
        field = coins.locator("fieldset").nth(0).locator("input[type=number]")
        field.fill("2")
        before = table.version()
        tap_command(mario, {"actor": "mario", "type": "roll", "args": {"dice": [1, 1]}}, 0)
        told(mario, "You move 2 to Question Block.")
        assert "Doubles! You will roll again." in toasts(mario)[-1]
        table.settle()
        said = {pid: len(toasts(page)) for pid, page in table.phones.items()}
        assert table.version() > before
        mario.locator(".action[data-actor=mario][data-type=draw]").filter(
            has_text="Team spirit").locator("button").click()
        told(mario, "Luigi pays you 1 coin. Peach pays you 1 coin.")
        told(luigi, "Paghi 1 moneta a Mario.")
        told(peach, "Pagas 1 moneda a Mario.")
        for pid, page in table.phones.items():
            news = " ".join(toasts(page)[said[pid]:])
            assert not re.search(rf"\b{pid.title()}\b|Card: |Carta: ", news), (pid, news)
        assert field.input_value() == "2"
        for page in table.all():
            page.context.close()

    # Monopolino: the first move that passes START, tapped on its mover's (English) phone
    data = script("monopolino")
    steps = data.pop("steps")
    with GameService(tmp_path / "trial") as trial:  # which step is it?
        tid = str(trial.create_game(data).game_id)
        for n, step in enumerate(steps):  # noqa: B007
            out = trial.submit(tid, parse_step(trial.state(tid)[1], step))
            if any(re.search(r" passes .*: collects ", str(x)) for x in out.says):
                break
    with running_server(tmp_path / "monopolino") as (base, service):
        gid = str(service.create_game(data).game_id)
        for step in steps[:n]:
            assert service.submit(gid, parse_step(service.state(gid)[1], step)).ok
        cmd = parse_step(service.state(gid)[1], steps[n]).to_json()
        page = new_phone(browser, errors)
        join(page, base, join_code(service, gid), cmd["actor"])
        tap_command(page, cmd, 2)
        told(page, "You pass START and collect €0.50.")
        assert not any(": collects" in t for t in toasts(page)), toasts(page)
        page.context.close()
    assert errors == []


@pytest.fixture
def catching(browser: Any, tmp_path: Path) -> Iterator[Table]:  # noqa: F811
    """Master Trainer with real dice, Ash at a catch prompt (landed, chip turned over)."""
    data = json.loads((ROOT / "examples" / "master-trainer-two-players.json")
                      .read_text("utf-8"))
    steps = data.pop("steps")
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        gid = str(service.create_game(data).game_id)
        for step in steps[:7]:  # ... land catch-blue, reveal ivysaur
            assert service.submit(gid, parse_step(service.state(gid)[1], step)).ok
        table = Table(base, service, gid, steps[7:])
        for pid in ("ash", "misty"):
            table.phones[pid] = new_phone(browser, errors)
            join(table.phones[pid], base, join_code(service, gid), pid)
        table.bank = new_phone(browser, errors)
        banker_login(table.bank, base, gid)
        table.settle()
        yield table
        for page in table.all():
            page.context.close()
    assert errors == []


def test_a_catch_is_the_die_and_the_ball_in_one_step(catching: Table, browser: Any) -> None:  # noqa: F811
    """Item 17: at a catch Ash types the die and taps the ball: the catch and its roll are
    both sent (was two prompts: the ball, then the roll); a phone typing Misty's seat key
    meanwhile keeps it; the banker's undo is on the banker tab's first screen."""
    ash = catching.phones["ash"]
    errors: list[str] = []
    other = new_phone(browser, errors)
    other.goto(f"{catching.base}/?code={join_code(catching.service, catching.game_id)}")
    other.get_by_role("button", name="Join", exact=True).click()
    other.locator("[data-reclaim=misty] summary").click()
    other.fill("#key-misty", "1a2b 3c")

    box = ash.locator('.action[data-actor=ash][data-type=catch]')
    expect()(box).to_contain_text("roll the die, enter it, then tap the ball")
    sent = len(catching.service.commands(catching.game_id))
    said = len(toasts(ash))
    box.get_by_label("Die").fill("3")  # taps: the die, the ball
    box.get_by_role("button", name=re.compile("^No ball")).click()
    ash.wait_for_function(f"() => (window.__toasts || []).length > {said}")  # both answered
    bodies = [c["body"] for c in catching.service.commands(catching.game_id)[sent:]]
    assert [(b["type"], b["args"]) for b in bodies] == [
        ("catch", {"ball": "none"}), ("roll", {"dice": [3]})]
    state = catching.service.state(catching.game_id)[1]
    assert state.dice is None or state.dice.purpose != "catch"
    assert ash.evaluate("!toast.error"), toasts(ash)
    catching.settle()
    assert other.locator("#key-misty").input_value() == "1a2b 3c"
    bank = catching.bank
    bank.locator("#tab-banker").click()
    undo = bank.locator("#undo")
    expect()(undo).to_be_visible()
    assert undo.evaluate("e => e.getBoundingClientRect().bottom") <= 844
    other.context.close()
    assert errors == []
