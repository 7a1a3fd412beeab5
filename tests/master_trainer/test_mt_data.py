"""The edition's data checked against the rulebook's lists."""

from __future__ import annotations

from collections import Counter

import pytest
from mt_table import RULES

from companion.editions.master_trainer.data import evolution_bonuses, load
from companion.editions.master_trainer.turns import chip_arg
from companion.engine.types import IllegalCommand, SetupError

DATA = load()


def test_all_150_chips_one_per_number() -> None:
    """150 chips: every Pokémon of the first generation up to Mewtwo (#1-#150), Mew excluded."""
    assert sorted(c.number for c in DATA.chips.values()) == list(range(1, 151))


def test_chip_counts_per_colour() -> None:
    """6 starters, 35 pink, 41 green, 38 blue, 26 red and 4 yellow chips."""
    counts = Counter(c.colour for c in DATA.chips.values())
    assert counts == {"starter": 6, "pink": 35, "green": 41, "blue": 38, "red": 26, "yellow": 4}


def test_catch_faces_per_colour() -> None:
    """Pink 3-4-5, green 4-5, blue 3-4, red 5, yellow 6; starters are never caught."""
    faces = {c.colour: set() for c in DATA.chips.values()}
    for c in DATA.chips.values():
        faces[c.colour].add(c.catch)
    assert faces == {"starter": {()}, "pink": {(3, 4, 5)}, "green": {(4, 5)},
                     "blue": {(3, 4)}, "red": {(5,)}, "yellow": {(6,)}}


@pytest.mark.parametrize(
    ("slug", "number", "colour", "power", "attack", "strength"),
    [
        # copied from the rulebook's lists
        ("bulbasaur", 1, "starter", 4, "Leech Seed", 4),
        ("charmander", 4, "starter", 4, "Ember", 5),
        ("squirtle", 7, "starter", 5, "Water Gun", 4),
        ("meowth", 52, "starter", 3, "Bite", 3),
        ("caterpie", 10, "pink", 2, "String Shot", 1),
        ("nidoran-f", 29, "pink", 2, "Tackle", 2),
        ("nidoran-m", 32, "pink", 2, "Horn Attack", 3),
        ("magikarp", 129, "pink", 2, "Tackle", 1),
        ("sandslash", 28, "green", 4, "Slash", 5),
        ("porygon", 137, "green", 5, "Tackle", 4),
        ("farfetchd", 83, "blue", 6, "Fury Attack", 5),
        ("mr-mime", 122, "blue", 7, "Confusion", 6),
        ("dratini", 147, "blue", 7, "Wrap", 6),
        ("dragonair", 148, "red", 6, "Dragon Rage", 6),
        ("gyarados", 130, "red", 7, "Dragon Rage", 8),
        ("mewtwo", 150, "yellow", 9, "Psychic", 9),
        ("moltres", 146, "yellow", 8, "Sky Attack", 9),
    ],
)
def test_sample_chips_match_the_rulebook(
    slug: str, number: int, colour: str, power: int, attack: str, strength: int
) -> None:
    """A sample of chips, value by value, as printed in the rulebook."""
    c = DATA.chips[slug]
    assert (c.number, c.colour, c.power, c.attack, c.strength) == (
        number, colour, power, attack, strength)


def test_colour_ranges_match_the_rulebook() -> None:
    """Pink Power Points and Attack 1-3; green Power Points 4-5, Attack 3-5; blue 6-7 / 5-7;
    red Power Points 6-7, Attack 6-8; yellow Attack 9."""
    def span(colour: str, field: str) -> tuple[int, int]:
        values = [getattr(c, field) for c in DATA.of_colour(colour)]
        return min(values), max(values)
    assert span("pink", "power") == (2, 3) and span("pink", "strength") == (1, 3)
    assert span("green", "power") == (4, 5) and span("green", "strength") == (3, 5)
    assert span("blue", "power") == (6, 7) and span("blue", "strength") == (5, 7)
    assert span("red", "power") == (6, 7) and span("red", "strength") == (6, 8)
    assert span("yellow", "strength") == (9, 9)


def test_evolution_groups_name_real_chips_and_give_3_or_5() -> None:
    """Evolution Groups: a set of two adds 3, a set of three adds 5, to the most evolved."""
    for group in DATA.groups:
        assert all(slug in DATA.chips for slug in group)
        assert len(group) in (2, 3)
    assert evolution_bonuses(("pikachu", "raichu"), DATA) == {"raichu": 3}
    assert evolution_bonuses(("bulbasaur", "ivysaur", "venusaur"), DATA) == {"venusaur": 5}
    assert evolution_bonuses(("bulbasaur", "venusaur"), DATA) == {}


def test_decks_hold_54_cards_each() -> None:
    """54 Item Cards and 54 Event Cards."""
    assert sum(DATA.item_deck.values()) == 54
    assert sum(DATA.event_deck.values()) == 54


def test_unprinted_values_are_marked_unverified() -> None:
    """Values the rulebook does not print are flagged; Lance keeps the printed point."""
    assert {"item_deck", "event_deck", "board_spaces", "rivals.lance"} <= set(DATA.unverified)
    lance = DATA.rivals["lance"]
    assert lance.strength == 14 and lance.bonus[2 - 1] == 7
    assert sum(DATA.board_spaces.values()) == 37


def test_banker_enters_printed_rival_values_through_settings() -> None:
    """The banker can replace a Rival Card's values with the printed ones."""
    fixed = load({"rivals": {"gary": {"strength": 12, "bonus": [6, 6, 5, 5, 4, 4]}}})
    assert fixed.rivals["gary"].strength == 12 and fixed.rivals["gary"].verified
    assert "rivals.gary" not in fixed.unverified
    with pytest.raises(SetupError, match="6 numbers"):
        load({"rivals": {"gary": {"bonus": [1, 2]}}})
    with pytest.raises(SetupError, match="unknown rival"):
        load({"rivals": {"giovanni": {"strength": 3}}})


def test_tag_objects_cover_chips_movers_and_spaces() -> None:
    """A tag can stand for any chip, any mover and any kind of space."""
    objects = dict(RULES.tag_objects())
    assert objects["chip:16-pidgey"] == "#16 Pidgey"
    assert sum(k.startswith("chip:") for k in objects) == 150
    assert "token:yellow" in objects and "space:catch-blue" in objects
    assert "space:final" in objects


def test_a_chip_is_named_by_slug_number_both_name_or_tag() -> None:
    for text in ("pidgey", 16, "16", "16-pidgey", "Pidgey", " PIDGEY ", "chip:16-pidgey"):
        assert chip_arg(text, DATA) == "pidgey"
    assert chip_arg("Mr. Mime", DATA) == chip_arg(122, DATA) == "mr-mime"
    for junk in (None, "", "mew", 151, "chip:", "16-squirtle"):
        with pytest.raises(IllegalCommand, match="There is no Pokémon chip called"):
            chip_arg(junk, DATA)


def test_each_game_reads_the_data_its_own_settings_give() -> None:
    """The data is built once per settings and shared: changed settings (even the same
    dict changed in place) give their own data, and a refusal is refused every time."""
    settings = {"city_items": 2}
    assert load(settings).city_items == 2
    settings["city_items"] = 0
    assert load(settings).city_items == 0
    assert load().city_items == DATA.city_items
    for _ in range(2):
        with pytest.raises(SetupError, match="city_items"):
            load({"city_items": 9})
