"""Rules at hand: a search over the rulebook passages and readings of the game being played,
and the readings in force for that game."""

from __future__ import annotations

from companion.service.rules_lookup import in_force, search


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


def test_a_search_finds_passages_by_the_readers_words() -> None:
    """An Italian or Spanish phone finds the passages by its own words (issue 41, item 4):
    each result says what the passage says in that language, beside the English quote it
    comes from."""
    def ids(edition: str, query: str, lang: str) -> set[str]:
        return {p["id"] for p in search(edition, {}, query, lang)}

    assert "go-to-jail" in ids("mario", "cárcel", "es")      # the search box's own example
    assert "go-to-jail" in ids("mario", "carcel", "es")      # any accents
    assert "rent" in ids("monopolino", "alquiler", "es")
    assert "rent" in ids("monopolino", "affitto", "it")
    assert "battle" in ids("mario", "combate", "es")
    assert "go-to-jail" in ids("starwars", "prigione", "it")
    assert {"battle-win", "battle-lose"} <= ids("pokemon", "lotta", "it")
    assert "catch" in ids("pokemon", "cattura", "it")
    assert "battle" in ids("master-trainer", "lotta", "it")
    rent = next(p for p in search("monopolino", {}, "affitto", "it") if p["id"] == "rent")
    assert rent["summary"].startswith("Affitto:")
    assert rent["text"] == "pay the amount shown on the space to the owner of the booth."
    # a reading by its topic in the reader's words, and first-game help by its explanation
    found = search("monopolino", {}, "botteghino", "it")
    assert {"reading", "rule"} <= {p["kind"] for p in found}
    assert any(p["kind"] == "help" for p in search("pokemon", {}, "cattura", "it"))
    # English words still find the English quote on any phone; English has no summaries
    assert "rent" in ids("mario", "rent", "it")
    assert all(p.get("summary", "") == "" for p in search("mario", {}, "rent", "en"))
