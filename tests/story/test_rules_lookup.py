"""Rules at hand: a search over the rulebook passages and readings of the game being played,
and the readings in force for that game."""

from __future__ import annotations

from companion.rules_lookup import in_force, search


def test_a_search_finds_the_rulebooks_words_in_any_case_or_accents() -> None:
    found = search("mario", {}, "BOWSER move")
    assert found and all("bowser" in (p["title"] + p["text"]).lower() for p in found)
    assert found[0]["title"].lower().count("bowser")  # a title that says it comes first
    assert search("pokemon", {}, "poke ball") == search("pokemon", {}, "Poké Ball")
    assert search("mario", {}, "no such words anywhere") == []
    assert len(search("mario", {}, "")) == 30  # blank: the passages, a page of them


def test_the_readings_in_force_are_this_games_choices() -> None:
    default = {r["id"]: r["chosen"] for r in in_force("mario", {})}
    chosen = {r["id"]: r["chosen"] for r in in_force("mario", {"bowser_rest": "next_turn"})}
    assert default["bowser-rest"].startswith("every player has finished a turn")
    assert chosen["bowser-rest"].startswith("every player has finished their next turn")
    found = search("mario", {"bowser_rest": "next_turn"}, "Bowser active again")
    assert any(p["kind"] == "reading" and "next turn" in p["text"] for p in found)
