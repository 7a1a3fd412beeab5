"""Whole-board corrections: every fact of a space, checked with messages that name the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.types import GameSetup, SetupError
from companion.monopoly.board import load_board
from companion.monopoly.state import MonopolyState
from companion.service import game
from companion.service.script import load_script, run_script

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "starwars-box-profile.json"
SIXTEEN = {"imperial-palace": {"kind": "free_parking"},
           "tibanna-mines": {"kind": "card", "deck": "chance"}}


def refused(edition: str, corrections: dict[str, object]) -> str:
    with pytest.raises(SetupError) as err:
        load_board(edition, corrections)
    return str(err.value)


def test_a_kind_the_edition_does_not_handle_is_refused_naming_the_field() -> None:
    text = refused("starwars", {"spaces": {"imperial-palace": {"kind": "parking"}}})
    assert text.startswith("spaces.imperial-palace.kind: 'parking' is not a kind this edition "
                           "handles; choose one of")
    assert "free_parking" in text


def test_star_wars_markers_limit_a_ship_not_the_board() -> None:
    """"16 for each ship" limits what one ship may own, not how many properties the board has:
    17 properties (one turned into a landing) are a board the rulebook allows."""
    board = load_board("starwars", {"spaces": {"imperial-palace": {"kind": "free_parking"}}})
    assert sum(s.kind == "location" for s in board.spaces) == 17
    board = load_board("starwars", {"spaces": SIXTEEN})
    assert sum(s.kind == "location" for s in board.spaces) == 16
    assert board.find("imperial-palace").kind == "free_parking"
    assert board.find("tibanna-mines").deck == "chance"


def test_star_wars_refuses_what_its_rulebook_contradicts() -> None:
    """"all three Endor properties": an Endor group of another size is refused."""
    endor = [s.id for s in load_board("starwars").spaces if s.color == "endor"]
    text = refused("starwars", {"spaces": {endor[0]: {"kind": "free_parking", "color": ""}}})
    assert text == "colors.endor: the rulebook's endor group has 3 properties, not 2."


MONOPOLY = ("mario", "pokemon", "monopolino", "starwars")


@pytest.mark.parametrize("edition", MONOPOLY)
def test_the_shipped_board_passes_every_check_the_editor_applies(edition: str) -> None:
    """The default's own facts, checked as a box profile is (strict), and a pure reorder
    (two movable spaces swapped) of the shipped board, are accepted."""
    from companion.monopoly import board_edit
    from companion.monopoly.board import _raw

    raw = _raw(edition)
    board_edit.edit_spaces(edition, raw, {}, strict=True)
    ids = [str(s["id"]) for s in raw["spaces"]]
    fixed = set(board_edit.rulebook_totals(edition).fixed) | {
        v for v in raw.get("rules", {}).values() if isinstance(v, str)}
    movable = [i for i, sid in enumerate(ids) if i and sid not in fixed]
    a, b = movable[0], movable[-1]
    order = list(ids)
    order[a], order[b] = order[b], order[a]
    assert [s.id for s in load_board(edition, {"order": order}).spaces] == order


def test_the_master_trainer_defaults_pass_the_box_check() -> None:
    from companion.editions.master_trainer.data import check_totals, load

    data = load()
    check_totals({"item_deck": data.item_deck, "event_deck": data.event_deck,
                  "board_spaces": data.board_spaces})


def test_the_first_example_of_the_profiles_doc_is_a_board_the_editor_accepts() -> None:
    """docs/profiles.md's first example (its order placeholder left out), and the same with
    one space changed, are accepted on the Star Wars board."""
    import json
    import re

    doc = (Path(__file__).resolve().parents[2] / "docs" / "profiles.md").read_text("utf-8")
    example = json.loads(re.search(r"```json\n(.*?)```", doc, re.S).group(1))  # type: ignore
    example.pop("order")
    board = load_board("starwars", example)
    assert board.find("extra").index == 1
    example["spaces"]["senate"]["price"] = 360
    assert load_board("starwars", example).find("senate").price == 360


def test_a_star_wars_game_on_the_corrected_board_plays_to_its_end() -> None:
    data = load_script(EXAMPLE)
    result = run_script(data)
    assert result.state.finished
    assert list(result.state.winners) == data["expect"]["winners"]
    owned = {i for i, d in result.state.deeds.items() if d.owner}
    assert len(owned) == 16
    assert result.state.b.find("imperial-palace").index not in owned
    assert game.replay(result.events) == result.state


def test_mario_colour_pairs_stay_pairs() -> None:
    board = load_board("mario")
    first = next(s for s in board.spaces if s.kind == "location")
    other = next(c for c in board.colors if c != first.color)
    text = refused("mario", {"spaces": {first.id: {"color": other}}})
    assert text.startswith("colors.") and "a colour group has 2 properties, not " in text
    swap = next(s for s in board.spaces if s.color == other)
    fixed = load_board("mario", {"spaces": {first.id: {"color": other},
                                            swap.id: {"color": first.color}}})
    assert fixed.find(first.id).color == other


def test_lapras_spaces_can_be_corrected() -> None:
    board = load_board("pokemon")
    lapras = [s for s in board.spaces if s.kind == "lapras"]
    card = next(s for s in board.spaces if s.kind == "card")
    fixed = load_board("pokemon", {"spaces": {lapras[0].id: {"kind": "card", "deck": card.deck},
                                              card.id: {"kind": "lapras"}}})
    assert fixed.find(card.id).kind == "lapras"
    assert fixed.find(lapras[0].id).kind == "card"


def test_spaces_added_removed_and_reordered() -> None:
    board = load_board("pokemon")
    ids = [s.id for s in board.spaces]
    card = next(s for s in board.spaces if s.kind == "card")
    fixed = load_board("pokemon", {
        "add": [{"id": "extra-chance", "name": "Extra", "kind": "card", "deck": card.deck,
                 "after": "go"}],
        "remove": [card.id]})
    assert [s.id for s in fixed.spaces][:2] == ["go", "extra-chance"]
    assert card.id not in [s.id for s in fixed.spaces]
    assert [s.index for s in fixed.spaces] == list(range(len(ids)))
    order = ids[:1] + list(reversed(ids[1:]))
    assert [s.id for s in load_board("pokemon", {"order": order}).spaces] == order
    assert refused("pokemon", {"order": ids[1:] + ids[:1]}) == "order: the board starts at GO."
    assert "'go' is missing" in refused("pokemon", {"order": ids[1:]})
    assert refused("pokemon", {"remove": ["go"]}).startswith("remove[0]: the rulebook places")


@pytest.mark.parametrize(("corrections", "field"), [
    ({"spaces": {"mos-eisley": {"price": -1}}}, "spaces.mos-eisley.price:"),
    ({"spaces": {"mos-eisley": {"colour": "hoth"}}}, "spaces.mos-eisley.colour:"),
    ({"spaces": {"mos-eisley": {"color": "teal"}}}, "spaces.mos-eisley.color:"),
    ({"spaces": {"chance-1": {"deck": "community"}}}, "spaces.chance-1.deck:"),
    ({"spaces": {"nowhere": {"name": "X"}}}, "spaces.nowhere:"),
    ({"layout": []}, "board.layout:"),
    ({"add": [{"id": "Bad Id", "name": "X", "kind": "card"}]}, "add[0].id:"),
    ({"confirmed": ["spaces.go.price"]}, "confirmed[0]:"),
    ({"spaces": {"mos-eisley": {"kind": ["location"]}}}, "spaces.mos-eisley.kind:"),
    ({"remove": [["go"]]}, "remove[0]:"),
])
def test_bad_corrections_name_the_field(corrections: dict[str, object], field: str) -> None:
    assert refused("starwars", corrections).startswith(field)


def test_old_corrections_are_still_read() -> None:
    board = load_board("starwars", {"spaces": {"mos-eisley": {"name": "Mos Espa", "price": 70}},
                                    "cards": {"ch-02": {"text": "Advance to GO."}}})
    assert board.find("mos-eisley").name == "Mos Espa"
    assert board.card("ch-02").text == "Advance to GO."


def test_unverified_facts_are_marked_per_fact_and_cleared_by_correction_or_confirmation() -> None:
    facts = load_board("starwars").data["unverified_facts"]
    assert {"board.layout", "spaces.mos-eisley.price", "cards.ch-02.text",
            "spaces.empire-tax-1.amount"} <= set(facts)
    board = load_board("starwars", {"spaces": {"mos-eisley": {"price": 70}},
                                    "confirmed": ["cards.ch-02.text"]})
    left = set(board.data["unverified_facts"])
    assert "spaces.mos-eisley.price" not in left and "cards.ch-02.text" not in left
    assert "spaces.mos-eisley.rent" in left


def test_the_game_view_shows_unverified_facts_where_they_are_used() -> None:
    setup = GameSetup.from_json({"edition": "starwars", "players": ["A", "B"],
                                 "settings": {"board": {"confirmed": ["spaces.mos-eisley.name"]}}})
    view = game.view(game.replay(game.new_game(setup)))
    spaces = {s["id"]: s for s in view["board"]["spaces"]}
    assert spaces["mos-eisley"]["unverified"] == ["price", "rent"]
    assert "unverified" not in spaces["go"]


def test_go_to_jail_needs_a_jail() -> None:
    text = refused("monopolino", {"spaces": {"lottery": {"kind": "go_to_jail"}}})
    assert text == "spaces.lottery.kind: 'go_to_jail' needs a Jail space on the board."


def _started(board: object = None) -> MonopolyState:
    settings = {} if board is None else {"board": board}
    setup = GameSetup.from_json({"edition": "mario", "players": ["Ann", "Bob"], "seed": 1,
                                 "settings": settings})
    state = game.replay(game.new_game(setup))
    assert isinstance(state, MonopolyState)
    return state


def test_each_game_plays_on_the_board_its_own_corrections_make() -> None:
    """Boards are built once per correction and shared: a game on the shipped board, one on
    a corrected board, the same correction changed in place, and the shipped board again
    each get their own board."""
    first = next(s for s in load_board("mario").spaces if s.ownable)
    shipped = _started()
    fix = {"spaces": {first.id: {"price": first.price + 7}}}
    corrected = _started(fix)
    fix["spaces"][first.id]["price"] = first.price + 9
    changed = _started(fix)
    again = _started()
    assert corrected.b.find(first.id).price == first.price + 7
    assert changed.b.find(first.id).price == first.price + 9
    assert shipped.b.find(first.id).price == again.b.find(first.id).price == first.price


def test_a_refused_correction_is_refused_every_time() -> None:
    """A refusal is never remembered as a board, and a correction written with a tuple
    instead of a list is refused even after the list form was accepted."""
    first = next(s for s in load_board("mario").spaces if s.ownable)
    for _ in range(2):
        assert refused("mario", {"spaces": {first.id: {"price": -1}}}).startswith(
            f"spaces.{first.id}.price:")
    order = [s.id for s in load_board("mario").spaces]
    assert load_board("mario", {"order": order}).find(first.id) == first
    assert refused("mario", {"order": tuple(order)}).startswith("order: list every space")
