"""Every automatic action that moves money, moves a piece, changes ownership or ends a game
cites the rule that caused it: the edition, the rulebook's section and a short quote, or the
companion's own reading / house default (issue 11, "The rule cited")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.engine import readings
from companion.plugins.editions import find_edition
from companion.service.script import run_script

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.json"))

CITED = frozenset({
    "money_paid",      # money paid or received
    "moved_to",        # a token moved (Monopoly family)
    "mover_placed",    # a mover placed (Master Trainer)
    "deed_owned",      # ownership of a location
    "traded",          # Pokémon changing hands (Master Trainer)
    "chip_caught",     # a Pokémon joining a team (Master Trainer)
    "items_taken",     # Item Cards won in a battle (Master Trainer)
    "went_bankrupt",
    "finished",        # the game ended
})
"""The event types (companion/engine/events.py) that must carry a citation."""


def _run(example: str) -> tuple[str, list[tuple[str, str, str]]]:
    data = json.loads((ROOT / "examples" / example).read_text("utf-8"))
    result = run_script(data)
    return data["edition"], [(e.type.split("@")[0], e.say, e.cite) for e in result.events]


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_money_move_ownership_and_end_event_of_an_example_cites_its_rule(
    example: str,
) -> None:
    edition, events = _run(example)
    rules = find_edition(edition)
    uncited = [(kind, say) for kind, say, cite in events
               if kind in CITED and rules.citation(cite) is None]
    assert uncited == []
    assert any(kind in CITED for kind, _, _ in events)


def _cited(example: str) -> dict[str, str]:
    """Citation id -> the first sentence said under it in ``example``."""
    out: dict[str, str] = {}
    for _, say, cite in _run(example)[1]:
        if cite:
            out.setdefault(cite, say)
    return out


# One example per edition, a rule its game applies, and the catalogue's words for it.
RESOLVED = [
    ("mario-two-players.json", "bowser-toll", "Bowser",
     "When Bowser simply passes a player (but not landing on that player’s current board "
     "space), that player pays 1 coin for being attacked by Bowser."),
    ("pokemon-two-trainers.json", "salary", "GO",
     "When a player passes or lands on the GO space, they collect 2 Poké Balls from the Bank."),
    ("starwars-two-ships.json", "salary", "GO",
     "Every time you pass or land on GO, collect ₥200 from the Bank."),
    ("monopolino-2-players.json", "booth",
     "Streets, parks and other coloured spaces without booths",
     "pay the amount shown to the Bank and place one of your booths on the coloured edge of "
     "the space."),
    ("master-trainer-two-players.json", "move", "Traveling the land",
     "During their turn, each player rolls one die."),
]


@pytest.mark.parametrize(("example", "rule", "section", "quote"), RESOLVED)
def test_a_citation_resolves_to_the_catalogues_section_and_quote(
    example: str, rule: str, section: str, quote: str
) -> None:
    """The rule an example applied, as a player sees it: the edition, the rulebook's heading
    and its exact words (the same words the edition's catalogue holds)."""
    edition = json.loads((ROOT / "examples" / example).read_text("utf-8"))["edition"]
    assert rule in _cited(example)
    rules = find_edition(edition)
    got = rules.citation(rule)
    assert got is not None
    assert got["edition"] == rules.title
    assert (got["section"], got["quote"]) == (section, quote)
    assert readings.citations(edition)[rule]["quote"] == quote
    assert got["text"].startswith(f"{rules.title} rulebook, {section}: \u201c{quote}\u201d")


def test_a_rule_the_companion_chose_says_reading_with_its_topic() -> None:
    """Mario's rent rule is a reading (asked for or automatic): the citation says so."""
    rules = find_edition("mario")
    got = rules.citation("rent")
    assert got is not None
    assert got["reading"] == "reading: Rent not asked for before the next roll is lost"
    assert "reading: Rent not asked for" in got["text"]
    early = rules.citation("early-end")
    assert early is not None and "quote" not in early
    assert early["text"].startswith("Monopoly: The Super Mario Bros. Movie Edition: reading: ")


def test_readings_based_events_of_the_examples_say_reading() -> None:
    """Star Wars' Force Levitate is a reading (ships in Jail): its moves say "reading: …"."""
    said = {cite: say for cite, say in _cited("starwars-bankruptcy.json").items()}
    assert "force-levitate" in said
    got = find_edition("starwars").citation("force-levitate")
    assert got is not None and got["reading"].startswith("reading: ")


def test_a_house_default_says_so() -> None:
    got = find_edition("starwars").citation("banker-transfer")
    assert got is not None
    assert got["house"].startswith("house default (unverified): ")


def test_an_unknown_or_empty_citation_resolves_to_nothing() -> None:
    rules = find_edition("mario")
    assert rules.citation("") is None and rules.citation("no-such-rule") is None
