"""Nothing left untranslated (issue 30, item 6), the phones' half: every phone of a table reads
the page in the pseudo-language, where each message of the catalogue is decorated ⟦…⟧
(web/pages.py builds it from the same source, messages.pot), while the banker sets a game up,
the players join and play it to its end, and everyone looks at every screen: join, banker
login, setup, table, history, money, phone, banker tab, rules at hand and a search in them,
first-game mode, the story at the end (its figures too), the history pages and the box
profile editor. Any visible text (and any
aria-label, placeholder, title or alt) with a word outside the decorations fails, but for a
short explicit allow-list: the names and the box's own words the game shows (players, tokens,
spaces, cards, decks, editions), numbers, money, codes and seat keys, and the rulebook's quoted
passages. One test file an edition (tests/web/test_page_pseudo*.py) keeps each run short."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from page_driver import ARGS, CHROMIUM, PHONE, play, running_server, script
from web_helpers import PIN

from tests.i18n import pseudo

playwright_api = pytest.importorskip("playwright.sync_api")
ENGLISH_AREAS = '[lang="en"]'
"""Not looked at: what the page marks as English (a rulebook's quoted words: issue 41)."""


# the words a phone shows: visible text nodes, the options of a visible select, and the
# accessible names and hints of visible elements; each with where it was
COLLECT = """(ENGLISH) => {
  const out = [];
  const shown = (el) => !!el && el.checkVisibility({visibilityProperty: true});
  const where = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : "");
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement, text = n.nodeValue.trim();
    if (!text || !el || el.closest("script, style, noscript, textarea, " + ENGLISH)) continue;
    const sel = el.closest("select");
    if (sel ? shown(sel) : shown(el)) out.push([where(el), text]);
  }
  for (const el of document.body.querySelectorAll("[aria-label], [placeholder], [title], [alt]")) {
    if (!shown(el) || el.closest(ENGLISH)) continue;
    for (const a of ["aria-label", "placeholder", "title", "alt"]) {
      const v = (el.getAttribute(a) || "").trim();
      if (v) out.push([where(el) + "@" + a, v]);
    }
  }
  out.push(["title", document.title]);
  return out;
}"""


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless (a test file's module fixture)."""
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def pseudo_phone(browser: Any, base: str, errors: list[str], first_game: str | None = "off"
                 ) -> Any:
    """A phone whose reader asked for the pseudo-language (its choice on the page: the
    remembered language and its cookie), with the first-game offer answered or not."""
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=1, locale="en-GB",
                              reduced_motion="reduce")
    ctx.add_init_script("try { localStorage.setItem('companion.lang', 'qps'); } catch (e) {}")
    if first_game is not None:
        ctx.add_init_script("try { localStorage.setItem('companion.firstGame', "
                            f"{first_game!r}); }} catch (e) {{}}")
    ctx.add_cookies([{"name": "companion.lang", "value": "qps", "url": base}])
    ctx.set_default_timeout(30000)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


class Table(pseudo.Table):
    """The words a phone of this table may show untranslated: the box's and the rulebook's."""

    def untranslated(self, page: Any) -> list[tuple[str, str]]:
        """Every text on ``page`` with a word that is neither decorated nor allowed, and
        where it is."""
        return [(where, text) for where, text in page.evaluate(COLLECT, ENGLISH_AREAS)
                if self.left(text)]


def _look(page: Any, table: Table, screen: str, found: dict[str, str]) -> None:
    """Each untranslated text once, with the first screen that showed it."""
    page.wait_for_timeout(150)  # the answers the tab asked for, drawn
    for where, text in table.untranslated(page):
        found.setdefault(text, f"{screen}: {where}")


def _open_all(page: Any) -> None:
    """Every closed details on the page opened (a reader opens them)."""
    page.evaluate("() => document.querySelectorAll('#app details:not([open])').forEach("
                  "(d) => { d.open = true; })")


def _tabs(page: Any, table: Table, who: str, found: dict[str, str]) -> None:
    for tab in ("table", "history", "chart", "more", "banker"):
        if page.locator(f"#tab-{tab}").count():
            page.locator(f"#tab-{tab}").click()
            if tab != "table":
                _open_all(page)
            _look(page, table, f"{who} {tab} tab", found)
    page.locator("#tab-table").click()




def play_in_pseudo(edition: str, browser: Any, tmp_path: Any) -> None:
    """The edition's example game set up, played to its end and looked at on three phones in
    the pseudo-language; fails on any text outside the catalogue."""
    data = script(edition)
    steps = data.pop("steps")
    errors: list[str] = []
    found: dict[str, str] = {}
    with running_server(tmp_path) as (base, service):
        table = Table(service, edition)
        # the banker's phone: the join screen, the login, the setup form
        bank = pseudo_phone(browser, base, errors)
        bank.goto(base + "/")
        playwright_api.expect(bank.locator("html")).to_have_attribute("lang", "qps")
        playwright_api.expect(bank.locator("#code")).to_be_visible()
        _look(bank, table, "join screen", found)
        bank.locator("details.opener[data-keep=login] > summary").click()
        _look(bank, table, "banker login", found)
        bank.fill("#pin", PIN)
        bank.locator("details.opener[data-keep=login] button[type=submit]").click()
        playwright_api.expect(bank.locator("#setup")).to_be_visible()
        bank.locator("#setup > summary").click()
        bank.select_option("#setup-edition", edition)
        playwright_api.expect(bank.locator("#setup-edition-box [id^=setup-set-], "
                                           "#setup-edition-box #setup-board")
                              .first).to_be_attached()
        bank.fill("#setup-players", "\n".join(data["players"]))
        _open_all(bank)
        _look(bank, table, "setup form", found)
        for name, value in {"decks": "virtual", **data.get("settings", {})}.items():
            if bank.locator(f"#setup-set-{name}").count():
                bank.select_option(f"#setup-set-{name}", str(value))
        bank.select_option("#setup-dice", data.get("dice", "digital"))
        bank.fill("#setup-seed", str(data.get("seed", 1)))
        bank.locator("#setup > button.primary").click()
        playwright_api.expect(bank.locator("#tab-banker")).to_be_visible()
        game_id = service.active_game() or ""
        table.learn(game_id)
        code = str(service.view(game_id, None)["join_code"])
        ids = [p["id"] for p in service.view(game_id, None)["players"]]
        # two players' phones join; the second was never asked about first-game mode
        phones = {}
        for i, pid in enumerate(ids[:2]):
            page = pseudo_phone(browser, base, errors, first_game="on" if i else None)
            page.goto(f"{base}/?code={code}")
            page.locator("#code").press("Enter")
            page.locator(f"[data-claim={pid}]").click()
            playwright_api.expect(page.locator(".notice.key")).to_be_visible()
            _look(page, table, "seat key", found)
            page.locator(".notice.key button").click()
            phones[pid] = page
        first = phones[ids[1]]
        _look(first, table, "first-game offer", found)
        everyone = [("banker", bank), *phones.items()]
        for who, page in everyone:
            _tabs(page, table, who, found)
        # the rules at hand, from the bar, and a search in them (one that finds passages,
        # one that finds nothing)
        first.locator("#rules-open").click()
        playwright_api.expect(first.locator("dialog.rules-sheet li").first).to_be_visible()
        _look(first, table, "rules at hand", found)
        for query in ("rent", "zzqx"):
            first.fill("#rules-q", query)
            first.wait_for_function("() => !document.querySelector('dialog.rules-sheet ul')"
                                    ".textContent.includes('⟦Loading')")
            first.wait_for_timeout(400)  # the search's answer, drawn (it waits 150 ms)
            _look(first, table, f"rules search {query!r}", found)
        first.locator("dialog.rules-sheet button.close").click()

        def check(n: int) -> None:
            table.learn(game_id)
            for who, page in everyone:
                page.wait_for_function(
                    f"() => window.__version >= {service.state(game_id)[0]}")
                _look(page, table, f"{who} at step {n}", found)

        play(phones, bank, service, game_id, steps, check=check, every=3)
        assert service.view(game_id, None)["finished"]
        check(len(steps))
        for who, page in everyone:
            _tabs(page, table, f"{who} at the end", found)
            story = page.locator("details.story > summary")
            story.click()
            playwright_api.expect(page.locator("details.story a.btn").first).to_be_visible()
            _look(page, table, f"{who}: the story", found)
        # the history pages and the box profile editor (the banker's phone)
        bank.goto(base + "/history")
        playwright_api.expect(bank.locator("#f-box")).to_be_visible()
        _look(bank, table, "history page", found)
        bank.goto(f"{base}/history?game={game_id}")
        playwright_api.expect(bank.locator("#replay")).to_be_visible()
        _open_all(bank)
        _look(bank, table, "a game's replay", found)
        bank.goto(f"{base}/profile?edition={edition}")
        playwright_api.expect(bank.locator("#pf-new")).to_be_visible()
        _look(bank, table, "box profiles", found)
        bank.fill("#pf-new", "Zoë")
        bank.locator("#pf-new ~ button.primary").click()
        playwright_api.expect(bank.locator("#pf-save")).to_be_visible()
        bank.evaluate("() => document.querySelectorAll('details').forEach((d) => d.open = true)")
        _look(bank, table, "box profile editor", found)
        for page in [bank, *phones.values()]:
            page.context.close()
    assert errors == []
    assert found == {}, "\n".join(f"{where}: {text!r}" for text, where in found.items())


def get(url: str) -> str:
    """A page drawn without script, read by a phone that chose the pseudo-language."""
    with urllib.request.urlopen(urllib.request.Request(url, headers={
            "Cookie": "companion.lang=qps"}), timeout=30) as resp:
        return str(resp.read().decode())
