"""A player's own news says "you" only with a second-person message of its own, never by
rewriting an English line (issue 41, item 3): "Super Star: you rolled 3 and collect 3 coins."
where it has one, else the line as the log says it, in every language; never "You rolled 3
and collects 3 coins"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from page_driver import join, join_code, new_phone, running_server

from companion.engine.i18n import Money, Msg, wire
from companion.engine.money import Currency


@pytest.mark.parametrize(("locale", "star", "bowser", "money"), [
    ("en-GB", "Super Star: you rolled 3 and collect 3 coins.",
     "Piranha Plant: Mario rolled 5 and pays 5 coins", "Coins"),
    ("it-IT", "Super Stella: hai fatto 3 e incassi 3 monete.",
     "Pianta Piranha: Mario ha fatto 5 e paga 5 monete", "Monete"),
])
def test_own_news_is_a_message_of_its_own(browser: Any, tmp_path: Path, locale: str,
                                          star: str, bowser: str, money: str) -> None:
    coins = Currency("coin", "coins")
    lines = [Msg("Super Star: {player} rolled {n} and collects {amount}.", player="Mario", n=3,
                 amount=Money(3, coins)),
             Msg("Piranha Plant: {player} rolled {n} and pays {amount}", player="Mario", n=5,
                 amount=Money(5, coins))]
    errors: list[str] = []
    with running_server(tmp_path) as (base, service):
        gid = str(service.create_game({"edition": "mario", "players": ["Mario", "Luigi"],
                                       "dice": "physical", "seed": 1,
                                       "settings": {"order": "seated"}}).game_id)
        page = new_phone(browser, errors, locale=locale)
        join(page, base, join_code(service, gid), "mario")
        said = page.evaluate("(lines) => lines.map((e) => yours(e, 'Mario'))",
                             [wire(x) for x in lines])
        assert said == [star, bowser], json.dumps(said, ensure_ascii=False)
        # the trade form names the money by the words of the view's currency
        assert page.evaluate("moneyWord(S.view.currency)") == money
        page.context.close()
    assert errors == []
