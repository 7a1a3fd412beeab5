"""Drive the phone page in Chromium like a table of friends: a banker phone sets a scripted
game up through the form, two player phones join with the code, and every step of the script
is played by tapping the page of the phone whose player acts (docs/web.md, "Tests")."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from web_helpers import PIN, FakeHardware, open_banker_form

from companion.editions.master_trainer.battles import bonus_cards
from companion.service.game_service import GameService
from companion.service.script import parse_step
from web import create_app
from web.server import make_server

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        "--font-render-hinting=none", "--disable-lcd-text", "--force-color-profile=srgb"]
PHONE = {"width": 390, "height": 844}
SCRIPTS = {"mario": "mario-two-players", "pokemon": "pokemon-two-trainers",
           "starwars": "starwars-two-ships", "monopolino": "monopolino-2-players",
           "master-trainer": "master-trainer-two-players"}
# fixed fonts, no animation, no caret: screenshots that only change when the page does
STEADY_CSS = ("*,*::before,*::after{animation:none!important;transition:none!important;"
              "caret-color:transparent!important}"
              ":root{font-family:'DejaVu Sans',sans-serif!important}")
# what a player must never read: internal names and raw data
FORBIDDEN = [re.compile(p) for p in (
    r"\b[a-z]+_[a-z_0-9]+\b", r"\bnull\b", r"\bundefined\b", r"\[object", r"\bNaN\b",
    r"\bPot text\b", r"\bLottery text\b", r"\bSpace \d+\b", r"\d+/\d+ \(", r"\b100\.0 ?%",
    r"\btrue\b", r"\bfalse\b", r"\{\"", r"\bNone\b",
    r"\b[a-z]+-\d+\b")]  # the last: card and chip ids ("qb-10", "rock-1")


def script(edition: str) -> dict[str, Any]:
    return dict(json.loads((ROOT / "examples" / f"{SCRIPTS[edition]}.json").read_text("utf-8")))


@contextmanager
def running_server(state_dir: Path) -> Iterator[tuple[str, GameService]]:
    with GameService(state_dir) as service:
        app = create_app(service, hardware=FakeHardware(), config={"banker_pin": PIN})
        srv = make_server(app, "127.0.0.1", 0, threads=24)
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{srv.effective_port}", service
        finally:
            srv.close()


def new_phone(browser: Any, errors: list[str], scheme: str = "light",
              bypass_csp: bool = False, first_game: str | None = "off",
              locale: str = "en-GB") -> Any:
    """A 390×844 phone; ``bypass_csp`` lets a test inject its own style or axe-core;
    ``first_game``: the phone's first-game mode answered before ("off": the offer is not
    shown; None: a phone never asked, web/static/rules.js); ``locale``: its browser's
    language (navigator.language and Accept-Language)."""
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=1, color_scheme=scheme,
                              reduced_motion="reduce", bypass_csp=bypass_csp, locale=locale)
    if first_game is not None:
        ctx.add_init_script("try { localStorage.setItem('companion.firstGame', "
                            f"{first_game!r}); }} catch (e) {{}}")
    ctx.set_default_timeout(30000)  # generous: CI shares two cores with the server
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if "Content Security" in m.text else None)
    return page


def expect() -> Any:
    """Playwright's ``expect``, patient: CI shares two cores with the server."""
    from playwright.sync_api import expect as pw_expect

    pw_expect.set_options(timeout=20_000)
    return pw_expect


def banker_starts(bank: Any, base: str, setup: dict[str, Any]) -> str:
    """Log in with the PIN, fill the setup form, start; returns the join code."""
    bank.goto(base + "/")
    open_banker_form(bank)
    bank.fill("#pin", PIN)
    bank.get_by_role("button", name="Log in").click()
    expect()(bank.locator("#who")).to_have_text("Banker")
    return new_game(bank, setup)


def new_game(bank: Any, setup: dict[str, Any]) -> str:
    """On a logged-in banker's phone: fill the setup form, start; returns the join code."""
    bank.locator("#setup > summary").click()
    expect()(bank.locator(f"#setup-edition option[value={setup['edition']}]")).to_have_count(1)
    bank.select_option("#setup-edition", setup["edition"])
    # the edition's own settings arrive a moment later (a banker sees "Loading the edition…"):
    # choosing a setting before they do would choose it on nothing, and the game would differ
    expect()(bank.locator("#setup-edition-box")).not_to_contain_text("Loading the edition")
    bank.fill("#setup-players", "\n".join(setup["players"]))
    bank.select_option("#setup-dice", setup.get("dice", "digital"))
    settings = dict(setup.get("settings", {}))
    if bank.locator("#setup-set-decks").count():  # the example scripts draw virtual cards
        settings.setdefault("decks", "virtual")
    for name, value in settings.items():
        bank.select_option(f"#setup-set-{name}", str(value))
        expect()(bank.locator(f"#setup-set-{name}")).to_have_value(str(value))
    bank.fill("#setup-seed", str(setup.get("seed", 1)))
    bank.get_by_role("button", name="Start the game").click()
    heading = bank.get_by_role("heading", name="Join code:")
    expect()(heading).to_be_visible()
    return str(heading.inner_text().split(":")[1].strip())


def join(page: Any, base: str, code: str, player: str) -> None:
    """Join with the code, pick the player, note the seat key (by the page's structure, not its
    words: a phone may read any language)."""
    page.goto(f"{base}/?code={code}")
    page.locator("#code").press("Enter")
    page.locator(f"[data-claim={player}]").click()
    page.locator(".notice.key button").click()


def visible_text(page: Any) -> str:
    return str(page.evaluate("document.body.innerText"))


def internal_names(page: Any, view: dict[str, Any]) -> list[str]:
    """Ids and field names a player could read on this page (should be none)."""
    text = visible_text(page)
    hits = [m.group(0) for rx in FORBIDDEN for m in rx.finditer(text)]
    ids = {p["id"] for p in view["players"]}
    ids |= {s["id"] for s in (view.get("board") or {}).get("spaces", []) if "-" in s["id"]}
    for p in view["players"]:
        ids |= {c for c in p.get("pokemon", [])}
    hits += [i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)]
    return hits


def _box(page: Any, cmd: dict[str, Any], wait_ms: int = 10_000) -> Any:
    """The page's action element for this command (its fixed args match the command's),
    waited for as a player waits for the button (a loaded machine may paint it a moment
    after the version arrives; a page error meanwhile still fails the test at its end)."""
    boxes = page.locator(f'.action[data-actor="{cmd["actor"]}"][data-type="{cmd["type"]}"]')
    waited = 0
    while True:
        n = boxes.count()
        for i in range(n):
            raw = boxes.nth(i).get_attribute("data-args")
            fixed = json.loads(raw) if raw else {}
            if all(cmd["args"].get(k) == v for k, v in fixed.items()):
                return boxes.nth(i)
        if waited >= wait_ms:
            held = page.evaluate("S.view && [S.view.version, S.view.prompt && S.view.prompt.text]")
            raise AssertionError(f"no action on the page for {cmd} (found {n}); the page "
                                 f"holds version {held[0]}: {held[1]}")
        page.wait_for_timeout(100)
        waited += 100


def page_rolls_after(page: Any, cmd: dict[str, Any]) -> bool:
    """Whether the page sends this choice together with the roll that follows it."""
    if cmd["type"] != "catch":
        return False
    if page.locator("#tab-table").get_attribute("aria-selected") != "true":
        page.locator("#tab-table").click()
    return bool(_box(page, cmd).locator(".then-roll").count())


def ball_and_roll(page: Any, cmd: dict[str, Any], dice: list[int] | None) -> None:
    """A catch in one step: the die typed (real dice), then the ball tapped."""
    box = _box(page, cmd)
    if dice:
        box.locator("input[data-die='0']").fill(str(dice[0]))
    box.locator(f"button[data-value='{cmd['args'].get('ball', 'none')}']").click()


def tap_command(page: Any, cmd: dict[str, Any], decimals: int) -> None:
    """Play one command by tapping the page: buttons, dice fields, choices, amounts."""
    if page.locator("#tab-table").get_attribute("aria-selected") != "true":
        page.locator("#tab-table").click()
    box = _box(page, cmd)
    args = dict(cmd["args"])
    if "dice" in args and box.locator("input[data-die]").count():
        for i, d in enumerate(args["dice"]):
            box.locator(f"input[data-die='{i}']").fill(str(d))
        box.locator("button[data-send=dice]").click()
        return
    if box.locator("button[data-value]").count():
        if "bonus" in args:
            for card in bonus_cards(args["bonus"]):
                box.locator(f"input[data-bonus='{card}']").first.check()
        arg = next(k for k in args if k not in ("bonus",) and box.locator(
            f"button[data-value='{args[k]}']").count())
        box.locator(f"button[data-value='{args[arg]}']").click()
        return
    if "amount" in args:
        box.locator("input[type=number]").fill(f"{args['amount'] / 10 ** decimals:.{decimals}f}")
        box.locator("button").click()
        return
    box.locator("button").first.click()
    confirm = box.locator("[data-confirm=yes]")
    if confirm.count():
        confirm.click()


def play(phones: dict[str, Any], bank: Any, service: GameService, game_id: str,
         steps: list[Any], check: Any = None, every: int = 10) -> None:
    """Every step on the phone of the player who acts (the banker's for anyone else). A
    choice the page sends with the roll after it (a Master Trainer catch: ball and die in one
    step) plays that step and the next in one tap."""
    paired = 0
    for n, step in enumerate(steps, 1):
        if paired == n:
            continue
        version, state = service.state(game_id)
        cmd = parse_step(state, step).to_json()
        page = phones.get(cmd["actor"], bank)
        page.wait_for_function(f"() => window.__version >= {version}")
        decimals = ((service.view(game_id, None).get("currency") or {}).get("decimals") or 0)
        sent = len(service.commands(game_id))
        try:
            if page_rolls_after(page, cmd):
                then = parse_step(state, steps[n]).to_json()
                assert then["type"] == "roll" and then["actor"] == cmd["actor"], then
                ball_and_roll(page, cmd, then["args"].get("dice") or then["args"].get("values"))
                paired = n + 1
            else:
                tap_command(page, cmd, decimals)
        except AssertionError as e:  # say where the page and the server stand
            said = service.view(game_id, cmd["actor"] if cmd["actor"] in phones else None)
            done = [c["body"] for c in service.commands(game_id)[-3:]]
            raise AssertionError(f"{e}\nthe server at version {said['version']} asks: "
                                 f"{(said.get('prompt') or {}).get('text')}; last commands "
                                 f"{done}; last steps {steps[max(0, n - 4):n]}") from None
        try:
            page.wait_for_function(f"() => window.__version > {version}")
        except Exception:  # say what the phone said (a refusal shows as a toast)
            said = page.evaluate("document.getElementById('toast').textContent")
            raise AssertionError(f"step {n} {step!r} ({cmd}): the phone says {said!r}") from None
        assert service.state(game_id)[0] > version, f"step {n} {step!r} did nothing"
        assert page.evaluate("!toast.error"), f"step {n} {step!r} ({cmd}): the phone says " \
            + page.evaluate("document.getElementById('toast').textContent")
        for _ in range(600 if paired == n + 1 else 0):  # the roll sent after the catch
            if len(service.commands(game_id)) >= sent + 2:
                break
            page.wait_for_timeout(50)
        else:
            if paired == n + 1:
                said = page.evaluate("document.getElementById('toast').textContent")
                raise AssertionError(f"step {n + 1}: the roll after {cmd} was not sent: {said!r}")
        if check is not None and n % every == 0:
            check(n)


# the state each edition is pictured in: the first step from a third of the script on whose
# prompt is one of these kinds (else half-way)
SHOWN = {"mario": ("buy",), "pokemon": ("explore",), "starwars": ("auction", "buy"),
         "monopolino": ("booth", "choose", "turn"), "master-trainer": ("catch", "fight", "land")}


def setup_game(service: GameService, edition: str, where: str) -> tuple[str, list[str]]:
    """Play the edition's script on the service to ``where`` ("play", "end", or "last": every
    step but the last, which ``finish`` plays once the phones have joined: a finished game's
    join code no longer works); returns the game id and the first two players' ids."""
    data = script(edition)
    steps = data.pop("steps")
    if where == "last":
        steps = steps[:-1]
    out = service.create_game(data)
    assert out.ok, out.error
    game_id = str(out.game_id)
    for n, step in enumerate(steps):
        if where == "play" and n >= len(steps) // 3:
            view = service.view(game_id, None)
            kind = (view.get("prompt") or {}).get("kind")
            if kind in SHOWN[edition] or n >= len(steps) // 2:
                break
        _, state = service.state(game_id)
        res = service.submit(game_id, parse_step(state, step))
        assert res.ok, res.error
    ids = [p["id"] for p in service.view(game_id, None)["players"]]
    return game_id, ids[:2]


def finish(service: GameService, game_id: str, edition: str) -> None:
    """Play the script's last step (after ``setup_game(..., "last")``): the game ends."""
    _, state = service.state(game_id)
    res = service.submit(game_id, parse_step(state, script(edition)["steps"][-1]))
    assert res.ok, res.error
    assert service.state(game_id)[1].finished


def join_code(service: GameService, game_id: str) -> str:
    return str(next(g["join_code"] for g in service.games() if g["id"] == game_id))


def steady(page: Any, version: int) -> None:
    """Wait for the view, the fonts and the live dot; freeze what moves; hide toasts."""
    page.wait_for_function(f"() => window.__version >= {version}")
    page.add_style_tag(content=STEADY_CSS + "#toast{display:none!important}")
    page.wait_for_function("() => document.fonts.ready.then(() => true)")
    page.wait_for_selector("#live.on")
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); "
                  "window.scrollTo(0, 0); }")


class Table:
    """A served game, its banker's phone and a phone per seat, each acting by taps."""

    def __init__(self, base: str, service: GameService, game_id: str, steps: list[Any]) -> None:
        self.base, self.service, self.game_id, self.steps = base, service, game_id, steps
        self.phones: dict[str, Any] = {}
        self.bank: Any = None

    def all(self) -> list[Any]:
        return [self.bank, *self.phones.values()]

    def version(self) -> int:
        return self.service.state(self.game_id)[0]

    def settle(self, pages: list[Any] | None = None) -> None:
        """Every phone (or ``pages``) shows the latest move: a loaded machine gets two
        minutes (the wait ends as soon as the phone has it)."""
        v = self.version()
        for page in pages or self.all():
            page.wait_for_function(f"() => window.__version >= {v}", timeout=120_000)

    def step(self, step: Any) -> None:
        """One scripted move, tapped on its player's phone; every phone sees it."""
        before, state = self.service.state(self.game_id)
        cmd = parse_step(state, step).to_json()
        page = self.phones[cmd["actor"]]
        tap_command(page, cmd, 0)
        page.wait_for_function(f"() => window.__version > {before}")
        self.settle()


def banker_login(page: Any, base: str, game_id: str) -> None:
    page.goto(base + "/")
    open_banker_form(page)
    page.fill("#pin", PIN)
    page.get_by_role("button", name="Log in").click()
    expect()(page.locator("#who")).to_have_text("Banker")
    page.goto(f"{base}/?game={game_id}")


def toasts(page: Any) -> list[str]:
    """Everything the phone's toast has said, oldest first (it hides after a few seconds)."""
    return list(page.evaluate("window.__toasts || []"))


def started(page: Any, service: GameService, known: set[str]) -> str:
    """The id of the game the banker has just started on ``page`` (none of ``known``), once
    the companion has it: the banker's tab shows a join code before, the current game's."""
    for _ in range(1500):
        new = [g["id"] for g in service.games() if g["id"] not in known]
        if new:
            return str(new[-1])
        page.wait_for_timeout(20)
    raise AssertionError("the banker's new game was not started")


def held_back(page: Any, held: list[Any], count: int = 1) -> None:
    """Wait until a route handler of ``page`` has held back ``count`` answers. Playwright's
    sync API runs a handler only while the test is inside one of its calls, so the page may
    show a move (by its stream) before the handler has put that move's answer in ``held``."""
    for _ in range(1500):
        if len(held) >= count:
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"{len(held)} answers held back, not {count}")


def told(page: Any, text: str) -> None:
    """Wait until the phone's toast has said ``text`` (or a line holding it)."""
    page.wait_for_function("t => (window.__toasts || []).some((x) => x.includes(t))", arg=text)


def compose_a_trade(page: Any, actor: str, partner: str, coins: str) -> Any:
    """Open the trade form, pick the partner, type coins; returns the coins field."""
    trade = page.locator(f'.action[data-actor={actor}][data-type=propose_trade]')
    trade.locator("summary").click()
    trade.locator("select").select_option(partner)
    field = trade.locator("fieldset").nth(0).locator("input[type=number]")
    field.fill(coins)
    return field
