"""Every money, move, ownership, card and game-end event cites the passage that decides it.

A table of event kinds (the line a player reads, per edition) -> the citation ids whose
passage decides it; each passage is looked up word for word in the rulebook text (the seeds,
COMPANION_RULEBOOKS or ../shared/seeds), and every line of those kinds in the example games,
random games and the scenarios below carries one of them."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from bench_engine import random_game

from companion.engine import readings
from companion.engine.types import Event
from companion.plugins.editions import available, find_edition
from companion.service.script import run_script
from tests.playing import TableGame

ROOT = Path(__file__).resolve().parents[2]
BOOKS = {"pokemon": "000_02dc582a4f256c9e.txt", "master-trainer": "001_5bc591c5d493f0c3.txt",
         "starwars": "002_09112b96d321cbaa.txt", "mario": "003_0fdd73a279e02194.txt",
         "monopolino": "004_377543ec2cf43d2c.txt"}

PASSAGES: list[tuple[str, str, frozenset[str]]] = [
    # edition, the line (a regular expression), the citation ids that decide it
    ("pokemon", r"^Poké Ball! .* catches a wild", frozenset({"catch"})),
    ("pokemon", r"^X: .* catches nothing", frozenset({"catch-miss"})),
    ("pokemon", r"has run out of Poké Balls and is out of the game", frozenset({"out-of-balls"})),
    ("pokemon", r"^No wild .*nothing to catch", frozenset({"catch-empty"})),
    ("pokemon", r"pays .* to explore .*\(exploration cost\)", frozenset({"explore-cost"})),
    ("mario", r"complete colour set protects it", frozenset({"set-protects"})),
    ("mario", r": no rent \(GAME OVER", frozenset({"rent-game-over"})),
    ("mario", r"^Bowser lands on .*: GAME OVER", frozenset({"game-over"})),
    ("mario", r"^Bowser passed ", frozenset({"bowser-toll"})),
    ("master-trainer", r"^City or town: .* draws", frozenset({"city-items"})),
    ("master-trainer", r"^Cinnabar Island: .* draws", frozenset({"cinnabar-items"})),
    ("master-trainer", r"^Take Item Card \d: .* draws", frozenset({"take-items"})),
    ("master-trainer", r"takes .*Item Card.* from ", frozenset({"battle-prize"})),
    ("master-trainer", r"had fewer than two Item Cards: .* draws", frozenset({"battle-prize"})),
    ("master-trainer", r"^The Pokémon Master's reward: .* draws", frozenset({"final-reward"})),
    ("master-trainer", r" is knocked out: ", frozenset({"knock-out", "final-lose"})),
]

CITED = frozenset({"money_paid", "moved_to", "mover_placed", "deed_owned", "traded",
                   "chip_caught", "items_taken", "items_drawn", "item_card_named",
                   "knocked_out", "card_drawn", "went_bankrupt", "finished"})
"""Money, moves, ownership, cards and the game's end: every such event cites its rule."""


def rulebook(edition: str) -> str | None:
    """The rulebook's text, spaces and quotes normalised; None when it is not at hand."""
    env = os.environ.get("COMPANION_RULEBOOKS")
    folders = [Path(env)] if env else [p / "shared" / "seeds" for p in ROOT.parents]
    for folder in folders:
        book = folder / BOOKS[edition]
        if book.exists():
            return normal(book.read_text("utf-8"))
    return None


def normal(text: str) -> str:
    for a, b in (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"')):
        text = text.replace(a, b)
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize(("edition", "line", "ids"), PASSAGES)
def test_each_passage_of_the_table_is_the_rulebooks_own_words(
        edition: str, line: str, ids: frozenset[str]) -> None:
    catalogue = find_edition(edition).citations()
    text = rulebook(edition)
    known = {r["id"] for r in readings.readings(edition)}
    for rule in ids:
        entry = catalogue[rule]
        assert "quote" in entry or entry.get("reading") in known, rule
        if "quote" in entry and text is not None:
            assert normal(entry["quote"]) in text, (rule, entry["quote"])


def played(edition: str, t: TableGame) -> list[tuple[str, Event]]:
    """The events of the commands played (not the arranged position)."""
    return [(edition, e) for batch in t.batches[1:] for e in batch]


def scenario_events() -> list[tuple[str, Event]]:
    """Lines random play rarely reaches, played on purpose."""
    out: list[tuple[str, Event]] = []
    # Pokémon: a miss, then the last Poké Ball spent on a re-roll (out of the game), and a
    # location with no wild Pokémon left.
    t = TableGame.start("pokemon", ["Ash", "Misty"])
    cave = t.index("cave")
    t.arrange("deed_owned", space=cave, owner="ash")
    t.arrange("money_paid", source="ash", to="bank", amount=18)
    t.arrange("moved_to", player="ash", to=cave - 1)
    t.roll(1)
    t.by("ash", "explore")
    t.roll(6)
    t.by("ash", "reroll")
    out += played("pokemon", t)
    t = TableGame.start("pokemon", ["Ash", "Misty"])
    wild = {k: [] for k in t.state.ext.wild}
    t.arrange("edition_values_set", set={"wild": wild})
    t.arrange("deed_owned", space=cave, owner="ash")
    t.arrange("moved_to", player="ash", to=cave - 1)
    t.roll(1)
    out += played("pokemon", t)
    # Mario: Bowser lands on a location of a complete set, and rent on a GAME OVER location.
    m = TableGame.start("mario", ["Ann", "Bob"])
    first = next(s for s in m.state.b.spaces if s.kind == "location")
    pair = [s.index for s in m.state.b.spaces if s.color == first.color]
    for i in pair:
        m.arrange("deed_owned", space=i, owner="bob")
    bowser = m.state.ext.bowser["position"]
    m.arrange("edition_values_set", set={"bowser": {**m.state.ext.bowser,
                                                    "position": (pair[0] - 3) % 28}})
    m.arrange("moved_to", player="ann", to=(pair[0] - 6) % 28)
    m.roll(3, 3)
    out += played("mario", m)
    m = TableGame.start("mario", ["Ann", "Bob"])
    m.arrange("deed_owned", space=first.index, owner="bob")
    m.arrange("game_over_marked", space=first.index, game_over=True)
    m.arrange("edition_values_set", set={"bowser": {**m.state.ext.bowser, "active": False,
                                                    "wake": ["ann", "bob"]}})
    m.arrange("moved_to", player="ann", to=first.index - 3)
    m.roll(1, 2)
    assert bowser is not None
    out += played("mario", m)
    return out


def played_events() -> list[tuple[str, Event]]:
    out: list[tuple[str, Event]] = []
    for path in sorted((ROOT / "examples").glob("*.json")):
        data = json.loads(path.read_text("utf-8"))
        out += [(data["edition"], e) for e in run_script(data).events]
    for edition in available():
        for seed in (1, 2, 3):
            events, _ = random_game(seed, players=4, max_commands=600, edition=edition)
            out += [(edition, e) for e in events]
    return out + scenario_events()


@pytest.fixture(scope="module")
def events() -> list[tuple[str, Event]]:
    return played_events()


def test_every_line_of_the_table_cites_its_passage(events: list[tuple[str, Event]]) -> None:
    wrong, seen = [], set()
    for edition, e in events:
        for n, (ed, line, ids) in enumerate(PASSAGES):
            if ed == edition and e.say and re.search(line, e.say):
                seen.add(n)
                if e.cite not in ids:
                    wrong.append((edition, e.say, e.cite, sorted(ids)))
    assert wrong == []
    missing = [PASSAGES[n][:2] for n in range(len(PASSAGES)) if n not in seen]
    assert missing == [], "lines the games never said (the table checks nothing for them)"


def test_every_money_move_ownership_card_and_end_event_cites_a_rule(
        events: list[tuple[str, Event]]) -> None:
    uncited = sorted({(edition, e.type.split("@")[0], e.say) for edition, e in events
                      if e.type.split("@")[0] in CITED
                      and find_edition(edition).citation(e.cite) is None})
    assert uncited == []
