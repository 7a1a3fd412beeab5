"""The OLED speaks the table's language (``[hardware.display] language``, issue 30): the same
view of messages draws the Italian words on an Italian table, the English ones elsewhere."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine.i18n import Money, Msg, localized
from companion.engine.money import Currency
from hardware.config import HardwareConfigError, load_hardware_config
from hardware.table import TableHardware

EURO = Currency("euro", "euros", "€", 2)
VIEW = {"current": "p1", "players": [{"id": "p1", "name": "Zoë", "money": 750}],
        "prompt": {"kind": "turn", "to": ["p1"],
                   "text": Msg("{player}'s turn: roll the die", player="Zoë")},
        "log": [Msg("{player} pays {amount} to the Bank for {space}.", player="Zoë",
                    amount=Money(50, EURO), space="Kite Park")],
        "actions": [{"actor": "p1", "type": "roll", "label": Msg("Roll"), "args": {}},
                    {"actor": "banker", "type": "end_game", "label": Msg("End the game now"),
                     "args": {}}]}


def _frame(view: Any, language: str = "en") -> bytes:
    display = {"kind": "dummy", "language": language}
    table = TableHardware.from_config({"readers": [{"role": "bank"}], "display": display},
                                      lambda r, u: None, lambda a, x: None, simulate=True)
    try:
        table.show(view)
        return bytes(table.frame_png())
    finally:
        table.stop()


def test_an_italian_table_draws_the_italian_words() -> None:
    italian = localized(VIEW, "it")
    assert italian["prompt"]["text"] == "Tocca a Zoë: tira il dado"
    assert italian["actions"][0]["label"] == "Tira"
    assert _frame(VIEW, "it") == _frame(italian, "it")
    assert _frame(VIEW) != _frame(italian, "it")


def test_an_unknown_language_is_refused_by_name() -> None:
    with pytest.raises(HardwareConfigError, match="language"):
        load_hardware_config({"display": {"language": "klingon"}})
