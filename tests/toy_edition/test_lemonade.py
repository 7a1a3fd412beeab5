"""The declared rules API is enough for a new edition: one data file, one short module."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from lemonade import LemonadeRules

from companion.engine.i18n import render
from companion.engine.seeds import SeedError
from companion.plugins import editions
from companion.plugins.editions import register_edition, unregister_edition
from companion.service import game
from tests.playing import TableGame

Play = Callable[..., TableGame]


@pytest.fixture(autouse=True)
def lemonade() -> Iterator[None]:
    register_edition(LemonadeRules())
    yield
    unregister_edition("lemonade")


def test_heatwave_makes_every_other_player_buy_a_lemonade(play: Play) -> None:
    g = play("lemonade", ["Ann", "Bob", "Cy"])
    g.roll(1, 3)  # Start -> Heatwave
    assert [g.p(p).money for p in ("ann", "bob", "cy")] == [12, 9, 9]
    assert "Heatwave: Bob buys a lemonade from Ann" in " ".join(g.says(1))


def test_shared_rules_come_from_the_family_buy_rent_and_the_card(play: Play) -> None:
    g = play("lemonade", ["Ann", "Bob"])
    g.roll(1, 2)  # Start -> Sugar Street
    g.do("buy")
    assert g.state.owner(g.index("sugar-street")) == "ann"
    g.roll(1, 1)  # Bob: doubles, the Surprise card: collect 3
    assert g.p("bob").money == 13
    g.roll(2, 3)  # Bob again: 2 + 5 = 7 -> past Start (salary 2) to Lemon Lane
    assert g.p("bob").money == 15
    assert game.replay(g.events) == g.state


def test_its_own_money_reads_in_each_language_from_its_catalogues(play: Play) -> None:
    """A counted money of its own ("lemon") is said by the edition's "{n} lemon" message
    (before: "12 lemons" to an Italian and a Spanish reader too)."""
    g = play("lemonade", ["Ann", "Bob"])
    g.roll(1, 2)
    g.do("buy")
    g.roll(1, 1)  # Bob: the Surprise card, collect 3
    line = g.says(1)[-1]
    assert {lang: render(line, lang) for lang in ("en", "it", "es")} == {
        "en": "Card: Bob collects 3 lemons.", "it": "Carta: Bob riceve 3 limoni.",
        "es": "Carta: Bob cobra 3 limones."}


def test_a_seed_naming_a_kind_with_no_rule_fails_when_the_edition_loads(
        tmp_path: Path) -> None:
    seed = LemonadeRules.data_folder.joinpath("lemonade.toml").read_text("utf-8")
    bad = tmp_path / "hail.toml"
    bad.write_text(seed.replace('kind = "heatwave"', 'kind = "hailstorm"'), "utf-8")

    class Hail(LemonadeRules):
        name = "hail"
        data_folder = tmp_path

    with pytest.raises(SeedError, match=r"hail\.toml: spaces\[4\] \(heatwave\)\.kind = "
                                        r"'hailstorm': no rule handles this space"):
        register_edition(Hail())
    unregister_edition("hail")


class Hail(LemonadeRules):
    """An installed edition declared wrong (its data folder is set by the test)."""

    name = "hail"


def test_an_installed_edition_declared_wrong_is_left_out_saying_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """`companion editions`, the setup page and the profiles list the editions that load and
    the log says why one does not (before: `companion editions` ended in a SeedError traceback
    and the page left the edition out without a word)."""
    seed = LemonadeRules.data_folder.joinpath("lemonade.toml").read_text("utf-8")
    (tmp_path / "hail.toml").write_text(seed.replace('kind = "heatwave"', 'kind = "hailstorm"'),
                                        "utf-8")
    monkeypatch.setattr(Hail, "data_folder", tmp_path)
    installed = editions._entry_points()
    point = EntryPoint("hail", f"{__name__}:Hail", editions.GROUP)
    monkeypatch.setattr(editions, "_entry_points", lambda: {**installed, "hail": point})
    with caplog.at_level(logging.WARNING):
        names = editions.available()
    assert "hail" not in names
    assert "lemonade" in names
    assert "hail.toml: spaces[4] (heatwave).kind = 'hailstorm': no rule handles" in caplog.text
