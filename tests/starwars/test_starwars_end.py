"""Star Wars: the game ends when every property is owned."""

from __future__ import annotations

from starwars_play import Table

from companion.service import game


def split(t: Table, luke: int) -> None:
    """Give Luke ``luke`` properties and Leia all others, except Echo Base (7)."""
    spaces = [i for i in t.state.b.ownable if i != 7]
    for n, i in enumerate(spaces):
        t.set_owner(t.state.b.spaces[i].id, "luke" if n < luke else "leia")


def test_all_owned_most_properties_wins() -> None:
    """Once every property is purchased the game ends: the most property markers wins."""
    t = Table()
    split(t, 9)
    assert not t.state.finished
    t.roll(3, 4)
    t.do("luke", "buy")  # 10 against 8
    assert t.state.finished and t.state.winners == ("luke",)
    assert "10 properties" in t.state.end_reason
    assert game.legal_actions(t.state) == []


def test_tie_broken_by_money() -> None:
    """A tie in properties: the player with the most money wins."""
    t = Table()
    split(t, 8)
    t.roll(3, 4)
    t.do("luke", "buy")  # 9 and 9; Luke ₥1400, Leia ₥1500
    assert t.state.finished and t.state.winners == ("leia",)
    assert "money breaks the tie" in t.state.end_reason


def test_banker_ends_early_with_the_same_ranking() -> None:
    """The banker may stop the game: most properties, then money, wins."""
    t = Table()
    t.set_owner("mos-eisley", "leia")
    t.do("banker", "end_game")
    assert t.state.finished and t.state.winners == ("leia",)


def test_view_shows_markers_and_force_powers() -> None:
    """The page shows each ship's markers left and the Use the Force table."""
    t = Table()
    t.set_owner("mos-eisley", "leia")
    v = game.view(t.state)
    assert v["extra"]["markers_left"] == {"luke": 16, "leia": 15}
    assert v["extra"]["force_powers"]["6"].startswith("Force Dash")
    assert "board layout" in v["board"]["unverified"]
