"""Issue #29, items 5, 7, 9, 13, 14, 16 and 18 and a refused seat request, in Chromium at
390×844, each while several phones act at once and one phone is in the middle of composing
something (a trade, a seat key, a new game's setup) that must survive every live update."""

from __future__ import annotations

import colorsys
import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from page_driver import (
    FORBIDDEN,
    Table,
    banker_login,
    compose_a_trade,
    expect,
    join,
    join_code,
    new_game,
    new_phone,
    running_server,
    started,
    tap_command,
    told,
)
from test_page_table_night import mario  # noqa: F401  (a fixture)
from web_helpers import PIN, open_banker_form

from companion.service.script import parse_step


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


def test_the_banker_blocks_a_phone_that_keeps_asking(mario: Table, browser: Any) -> None:  # noqa: F811
    """Issue 38: a spectator asks for Luigi's seat; the banker taps "Block this phone" beside
    its request: the phone hears no, and asking again it is told it is blocked."""
    errors: list[str] = []
    other = new_phone(browser, errors)
    other.goto(f"{mario.base}/?code={join_code(mario.service, mario.game_id)}")
    other.get_by_role("button", name="Join", exact=True).click()
    other.locator("[data-reclaim=luigi] summary").click()
    ask = other.locator("[data-ask=luigi]")
    ask.click()
    told(other, "Asked the banker; show them the code")
    block = mario.bank.locator("[data-request=luigi]").get_by_role(
        "button", name="Block this phone").first
    expect()(block).to_be_visible()
    block.click()
    told(mario.bank, "That phone cannot ask for seats again in this game.")
    told(other, "The banker did not let this phone play Luigi.")
    expect()(ask).to_have_text("Ask the banker instead")
    ask.click()
    told(other, "The banker has blocked this phone from asking for seats in this game.")
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
    rest = re.compile(r"Bowser rests until Peach, Mario,? and Luigi have finished a turn\.")
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


def test_a_digital_dice_game_offers_no_real_dice(browser: Any, tmp_path: Path) -> None:
    """Item 5: with digital dice Anna and Ben roll with a button on their phones, and neither
    they nor the banker are offered an "I rolled real dice" form (its values would always be
    refused); Cleo types a trade meanwhile and keeps it."""
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        gid = str(service.create_game({"edition": "mario", "players": ["Anna", "Ben", "Cleo"],
                                       "dice": "digital", "seed": 4}).game_id)
        table = Table(base, service, gid, [])
        for pid in ("anna", "ben", "cleo"):
            table.phones[pid] = new_phone(browser, errors)
            join(table.phones[pid], base, join_code(service, gid), pid)
        table.bank = new_phone(browser, errors)
        banker_login(table.bank, base, gid)
        table.settle()
        coins = compose_a_trade(table.phones["cleo"], "cleo", "anna", "2")
        rolls = 0
        while rolls < 4:
            view = service.view(gid, None)
            pid = view["prompt"]["to"][0]
            if pid == "cleo":  # Cleo is still typing: the banker plays her turn
                break
            table.settle()
            for page in table.all():
                assert "real dice" not in page.evaluate("document.body.innerText")
                assert page.locator(".action[data-type=roll] input").count() == 0
            page = table.phones[pid]
            roll = page.locator(f'.action[data-actor={pid}][data-type=roll]')
            if roll.count():
                roll.get_by_role("button").click()
                rolls += 1
            else:  # buy, end the turn: whatever the turn asks next
                a = next(a for a in view["actions"] if a["actor"] == pid and not a.get("input")
                         and a["type"] not in ("propose_trade", "declare_bankruptcy"))
                tap_command(page, {"actor": pid, "type": a["type"], "args": a["args"]}, 0)
            page.wait_for_function(f"() => window.__version > {view['version']}")
            assert page.evaluate("!toast.error"), page.locator("#toast").inner_text()
        assert rolls >= 2
        assert coins.input_value() == "2"
        for page in table.all():
            page.context.close()
    assert errors == []


def test_the_board_stays_whole_in_large_text_while_the_table_plays(mario: Table) -> None:  # noqa: F811
    """Item 14: Peach reads the board in Large text while Luigi and Peach play and Mario types
    a trade: no cell's words spill out or break inside a word ("GAM / E OVER"), and no seat's
    colour is the red of the GAME OVER outline."""
    coins = compose_a_trade(mario.phones["mario"], "mario", "luigi", "3")
    page = mario.phones["peach"]
    page.locator("#tab-more").click()
    page.locator("#pref-big").check()
    page.locator("#tab-table").click()
    broken = """() => Array.from(document.querySelectorAll('.cell .nm, .cell .flag'))
      .filter((e) => {
        if (e.scrollWidth > e.clientWidth + 1) return true;
        const node = e.firstChild; if (!node || node.nodeType !== 3) return false;
        let at = 0;  /* each word (a hyphen, soft or not, may end one) stays on one line */
        for (const w of node.data.split(/[ \\u00ad-]/)) {
          const r = document.createRange(); r.setStart(node, at); r.setEnd(node, at + w.length);
          at += w.length + 1;  /* (a hyphen drawn at a break is a sliver of its own) */
          const rows = Array.from(r.getClientRects()).filter((x) => x.width >= 4);
          if (new Set(rows.map((x) => Math.round(x.top))).size > 1) return true;
        }
        return false;
      }).map((e) => e.textContent)"""
    for step in mario.steps[:4]:
        mario.step(step)
        expect()(page.locator(".cell.over")).not_to_have_count(0)
        assert page.evaluate(broken) == []
        assert coins.input_value() == "3"
    warn = page.locator(".cell.over").first.evaluate("e => getComputedStyle(e).outlineColor")
    seats = page.locator(".legend .pdot").evaluate_all(
        "els => els.map((e) => getComputedStyle(e).backgroundColor)")

    def hue(c: str) -> float:
        r, g, b = (int(x) / 255 for x in re.findall(r"\d+", c)[:3])
        return colorsys.rgb_to_hls(r, g, b)[0] * 360

    for colour in seats:  # no seat is a red that reads as the GAME OVER outline
        apart = abs(hue(colour) - hue(warn)) % 360
        assert min(apart, 360 - apart) >= 20, (colour, warn)


def test_the_page_added_to_the_home_screen_opens_the_game(mario: Table) -> None:  # noqa: F811
    """Item 9: Mario opens the companion from his home screen (the manifest's start page, in
    standalone display) while Luigi and Peach play and Peach types a trade: he is back in the
    game as Mario at once, live; the manifest names the companion and its icons."""
    coins = compose_a_trade(mario.phones["peach"], "peach", "luigi", "2")
    old = mario.phones["mario"]
    manifest = old.evaluate("""async () => {
        const link = document.querySelector('link[rel=manifest]');
        const data = await (await fetch(link.href)).json();
        return {...data, start: new URL(data.start_url, link.href).href}; }""")
    assert manifest["name"] == "Board Companion" and manifest["display"] == "standalone"
    assert {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}
    mario.step(mario.steps[0])
    app = old.context.new_page()  # the icon tapped: the start page, in the phone's own browser
    old.close()
    app.goto(manifest["start"])
    mario.phones["mario"] = app
    expect()(app.locator("#who")).to_have_text("Mario")
    mario.settle()
    for step in mario.steps[1:5]:  # Luigi, Peach and Mario play on; Peach's trade stays
        mario.step(step)
        assert coins.input_value() == "2"
    assert app.evaluate("!toast.error")
    expect()(app.locator("#live")).to_have_class(re.compile(r"\bon\b"))


def test_a_banker_with_no_game_is_shown_how_to_start_one(browser: Any, tmp_path: Path) -> None:
    """Item 16: on a box with no game a logged-in banker is told to start one with New game
    (not "Join with the code"); "Banker" and "New game" look tappable; the join code's hint has
    six digits. The banker then types the next game's players while Anna and Ben play."""
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        bank = new_phone(browser, errors)
        bank.goto(base + "/")
        expect()(bank.locator("#code")).to_have_attribute("placeholder", re.compile(r"\b\d{6}\b"))
        expect()(bank.locator("#code")).not_to_have_attribute("placeholder",
                                                               re.compile(r"\b\d{4}\b"))
        looks_tappable(bank.locator("details.opener > summary", has_text="Banker"))
        open_banker_form(bank)
        bank.fill("#pin", PIN)
        bank.get_by_role("button", name="Log in").click()
        expect()(bank.locator("#who")).to_have_text("Banker")
        expect()(bank.get_by_role("region", name="Games")).to_contain_text(
            "No game yet: start one with New game.")
        assert "Join with the code" not in bank.evaluate("document.body.innerText")
        looks_tappable(bank.locator("#setup > summary"))
        # what the banker came to do comes first and is the one strong button; joining is there
        top = "e => e.getBoundingClientRect().top"
        join_box = bank.get_by_role("region", name="Join a game")
        assert bank.locator("#setup").evaluate(top) < join_box.evaluate(top)
        expect()(join_box.get_by_role("button", name="Join", exact=True)).not_to_have_class(
            re.compile(r"\bprimary\b"))

        code = new_game(bank, {"edition": "mario", "players": ["Anna", "Ben"], "seed": 4})
        gid = service.games()[-1]["id"]
        table = Table(base, service, gid, [])
        table.bank = bank
        for pid in ("anna", "ben"):
            table.phones[pid] = new_phone(browser, errors)
            join(table.phones[pid], base, code, pid)
        bank.locator("#tab-banker").click()
        bank.locator("#setup > summary").click()
        bank.fill("#setup-players", "Cleo\nDan")
        for _ in range(3):  # Anna and Ben play; the banker's next game stays typed
            view = service.view(gid, None)
            pid = view["prompt"]["to"][0]
            a = next(a for a in view["actions"] if a["actor"] == pid and (
                not a.get("input") or a["input"]["kind"] == "dice")
                and a["type"] not in ("propose_trade", "declare_bankruptcy"))
            page = table.phones[pid]
            page.wait_for_function(f"() => window.__version >= {view['version']}")
            tap_command(page, {"actor": pid, "type": a["type"], "args": a["args"]}, 0)
            bank.wait_for_function(f"() => window.__version > {view['version']}")
            assert bank.locator("#setup-players").input_value() == "Cleo\nDan"
            expect()(bank.locator("#setup")).to_have_attribute("open", "")
        for page in table.all():
            page.context.close()
    assert errors == []


def looks_tappable(summary: Any) -> None:
    """A button's look: a border all round, a pointer, a tap target 44 px high (measured once
    shown: the first page may still be drawing when the test looks)."""
    expect()(summary).to_be_visible()
    expect()(summary).to_have_css("border-top-style", "solid")
    expect()(summary).to_have_css("border-bottom-style", "solid")
    expect()(summary).to_have_css("cursor", "pointer")
    assert summary.evaluate("e => e.getBoundingClientRect().height") >= 44


def test_a_card_effect_is_edited_in_words_while_the_table_plays(mario: Table) -> None:  # noqa: F811
    """Item 7: the banker corrects a Bowser's Fury card for the next game by choosing what it
    does in words and filling a labelled field, and reads it back in a sentence, while Luigi,
    Peach and Mario play on: what was chosen and typed stays; the next game applies it."""
    bank = mario.bank
    bank.locator("#tab-banker").click()
    bank.locator("#setup > summary").click()
    expect()(bank.locator("#setup-edition option[value=mario]")).to_have_count(1)
    bank.select_option("#setup-edition", "mario")
    bank.locator("#setup-board > summary").click()
    bank.locator("#setup-board summary", has_text="Bowser's Fury").click()
    effect = bank.locator('[data-effect="bf-13"]')
    said = effect.locator(".effect-say")
    expect()(said).to_have_text("Pay 1 coin to the Bank.")
    words = effect.locator("select[data-effect-word]")
    assert "_" not in words.inner_text()  # words, never the vocabulary's ids
    words.select_option(label="Collect money from the Bank")
    amount = effect.get_by_label("Amount")
    amount.fill("4")
    amount.dispatch_event("change")
    expect()(said).to_have_text("Collect 4 coins from the Bank.")
    amount.click()
    bank.keyboard.press("End")
    for n, step in enumerate(mario.steps[:3]):
        mario.step(step)
        expect()(said).to_have_text(f"Collect {4 + n} coins from the Bank.")
        assert bank.evaluate("document.activeElement === document.querySelector("
                             "'[data-effect=\"bf-13\"] input')"), f"focus lost at {n}"
        bank.keyboard.press("ArrowUp")  # the field goes on taking the banker's keys
        amount.dispatch_event("change")
    expect()(said).to_have_text("Collect 7 coins from the Bank.")
    assert "Collect money from the Bank" in words.evaluate("e => e.selectedOptions[0].text")
    bank.fill("#setup-players", "Cleo\nDan")
    bank.select_option("#setup-set-decks", "virtual")
    known = {g["id"] for g in mario.service.games()}
    bank.get_by_role("button", name="Start the game").click()
    state = mario.service.state(started(bank, mario.service, known))[1]
    assert state.setup.settings["board"]["cards"]["bf-13"]["effect"] == {
        "do": "collect", "amount": 7}


def test_the_profile_editor_speaks_in_words_while_the_table_plays(mario: Table) -> None:  # noqa: F811
    """Item 6: the banker opens Mario's box profile editor (every space and card unfolded)
    while Luigi and Peach play and Mario types a trade: its title, spaces, kinds and cards are
    in words; no id ("brooklyn", "qb-10"), no snake_case kind ("super_star"), no "3?"."""
    coins = compose_a_trade(mario.phones["mario"], "mario", "luigi", "3")
    bank = mario.bank
    bank.goto(f"{mario.base}/profile")
    bank.select_option("#pf-edition", "mario")
    bank.fill("#pf-new", "Our box")
    bank.get_by_role("button", name="Start from the edition's defaults").click()
    expect()(bank.locator("details[id^=space-] > summary").first).to_be_visible()
    for step in mario.steps[:2]:  # tapped on the players' phones (the banker's edits)
        before, state = mario.service.state(mario.game_id)
        cmd = parse_step(state, step).to_json()
        tap_command(mario.phones[cmd["actor"]], cmd, 0)
        mario.phones[cmd["actor"]].wait_for_function(f"() => window.__version > {before}")
        mario.settle(list(mario.phones.values()))
    for _ in range(3):  # every space and card unfolded (the editor draws them when opened)
        bank.evaluate("""() => document.querySelectorAll('details:not([open]) > summary')
            .forEach((s) => s.click())""")
    text = bank.evaluate("document.body.innerText")
    board = mario.service.view(mario.game_id, None)["board"]["spaces"]
    ids = {s["id"] for s in board if len(s["id"]) > 3}  # "brooklyn", "lava-lake"
    found = [m.group(0) for rx in FORBIDDEN for m in rx.finditer(text)]
    found += [i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)]
    found += re.findall(r"\b\d+\?", text) + re.findall(r"\bmario profile\b", text)
    assert found == [], found
    assert coins.input_value() == "3"


def test_a_server_on_loopback_shows_an_address_that_reaches_it(
        browser: Any, tmp_path: Path) -> None:
    """Item 18: ``companion run --host 127.0.0.1`` prints, puts in the join QR and draws on the
    OLED an address that reaches it (it showed the LAN address, which it does not answer on).
    Anna and Ben join through the QR's own link; Anna rolls while Ben types a trade."""
    import io

    import segno
    from PIL import Image, ImageDraw

    from hardware import screens
    from hardware.idle_screen import IDLE_SHIFTS

    with socket.socket() as s:  # a free port, for this test alone
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.app.cli", "run", "--host", "127.0.0.1", "--port",
         str(port), "--state-dir", str(tmp_path), "--simulate", "--no-mdns", "--pin", PIN],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    errors: list[str] = []
    try:
        assert proc.stdout is not None
        printed = ""
        while " on http" not in printed:
            line = proc.stdout.readline()
            assert line, f"the companion stopped: {printed}"
            printed += line
        url = re.search(r" on (http://\S+)", printed).group(1)  # type: ignore[union-attr]
        assert url == f"http://127.0.0.1:{port}", printed
        bank = new_phone(browser, errors)
        bank.goto(url + "/")
        open_banker_form(bank)
        bank.fill("#pin", PIN)
        bank.get_by_role("button", name="Log in").click()
        expect()(bank.locator("#who")).to_have_text("Banker")
        oled = Image.open(io.BytesIO(bank.context.request.get(url + "/api/oled.png").body()))
        drawn = Image.new("1", (screens.WIDTH, screens.HEIGHT))
        screens.draw_join(ImageDraw.Draw(drawn), url, "")
        moved = []  # the idle screen moves by a pixel every minute (burn-in)
        for shift in IDLE_SHIFTS:
            image = Image.new("1", drawn.size)
            image.paste(drawn, shift)
            moved.append(image.tobytes())
        assert oled.convert("1").tobytes() in moved  # the OLED's QR and words

        code = new_game(bank, {"edition": "mario", "players": ["Anna", "Ben"], "seed": 4})
        link = f"{url}/?code={code}"
        qr = bank.context.request.get(bank.locator("img.qr").evaluate("e => e.src")).body()
        want = io.BytesIO()
        segno.make(link).save(want, kind="svg", scale=5, dark="#000", light="#fff")
        assert qr == want.getvalue()  # the QR the phones scan holds that link
        phones = {}
        for pid in ("anna", "ben"):
            page = phones[pid] = new_phone(browser, errors)
            page.goto(link)
            page.get_by_role("button", name="Join", exact=True).click()
            page.locator(f"[data-claim={pid}]").click()
            expect()(page.locator("#who")).not_to_have_text("Watching")
            page.get_by_role("button", name="I noted it").click()
        coins = compose_a_trade(phones["ben"], "ben", "anna", "1")
        before = phones["ben"].evaluate("window.__version")
        roll = phones["anna"].locator(".action[data-actor=anna][data-type=roll]")
        roll.get_by_role("button").click()
        phones["ben"].wait_for_function(f"() => window.__version > {before}")
        assert coins.input_value() == "1"
        for page in [bank, *phones.values()]:
            page.context.close()
    finally:
        proc.terminate()
        proc.communicate(timeout=60)  # and its output pipe closed
    assert errors == []


def test_the_edition_a_banker_chose_stays_chosen_when_the_list_comes_late(
        browser: Any, tmp_path: Path) -> None:
    """A banker on a slow phone opens New game before the editions' list has come and chooses
    Master Trainer; a second answer of that list must not put Mario back (it did: the game
    started was Mario with Master Trainer's settings)."""
    errors: list[str] = []
    held: list[Any] = []
    with running_server(tmp_path) as (base, _service):
        bank = new_phone(browser, errors)
        bank.route("**/api/editions", lambda route: held.append(route))
        bank.goto(base + "/")
        open_banker_form(bank)
        bank.fill("#pin", PIN)
        bank.get_by_role("button", name="Log in").click()
        expect()(bank.locator("#who")).to_have_text("Banker")
        bank.locator("#setup > summary").click()  # opened before the list came
        expect()(bank.locator("#setup")).to_have_attribute("open", "")
        for _ in range(1500):  # the form's own ask for the list, held (at most 30 s)
            if held:
                break
            bank.wait_for_timeout(20)
        first = held.pop(0)
        first.continue_()
        expect()(bank.locator("#setup-edition option[value=master-trainer]")).to_have_count(1)
        bank.select_option("#setup-edition", "master-trainer")
        expect()(bank.locator("#setup-set-decks")).to_have_count(1)
        for route in held:  # any later answer of the list arrives now
            route.continue_()
        bank.wait_for_load_state("networkidle")
        expect()(bank.locator("#setup-edition")).to_have_value("master-trainer")
        expect()(bank.locator("#setup-set-decks")).to_have_count(1)
        bank.context.close()
    assert errors == []
