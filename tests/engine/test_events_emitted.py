"""Current rules emit only facts (#28 item 3): no generic patch and no legacy type, which
old logs still replay. Every example game and bot-played games of every edition are run and
the types of the events they emit collected."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from companion.engine import event_format
from companion.engine.types import GameSetup
from companion.plugins.editions import find_edition, known
from companion.service import game, script

ROOT = Path(__file__).resolve().parents[2]
GENERIC = {"edition_values_set", "player_value_set", "auction_changed", "debt_changed",
           "battle_changed", "offer_changed", "turn_flags_set", "dice_round_changed",
           "flow_changed", "jail_changed", "deck_changed"}
"""The generic patches replaced by facts (legacy now, or upcast to the fact they were)."""


def bot_games(edition: str) -> set[str]:
    """The event types two bots emit in short games of ``edition``."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from profile_engine import person_bot, random_bot
    finally:
        sys.path.pop(0)
    declared = {s["name"] for s in find_edition(edition).setup_info()["settings"]}
    settings = {"order": "seated"} if "order" in declared else {}
    emitted: set[str] = set()
    for seed, bot in ((1, random_bot), (2, person_bot), (3, random_bot), (4, person_bot)):
        rnd = random.Random(seed)
        setup = GameSetup.from_json({"edition": edition, "players": ["Ann", "Bob", "Cat"],
                                     "dice": "physical", "seed": seed,
                                     "settings": settings})
        state = game.replay(game.new_game(setup))
        for _ in range(400):
            if state.finished:
                break
            events, state = game.step(state, bot(rnd, game.legal_actions(state)))
            emitted.update(e.type for e in events)
    return emitted


def example_games() -> set[str]:
    emitted: set[str] = set()
    for path in sorted((ROOT / "examples").glob("*.json")):
        result = script.run_script(json.loads(path.read_text("utf-8")))
        emitted.update(e.type for e in result.events)
    return emitted


@pytest.mark.parametrize("edition", sorted(known()))
def test_bot_games_emit_no_generic_or_legacy_event(edition: str) -> None:
    emitted = bot_games(edition)
    assert emitted & (GENERIC | event_format.LEGACY) == set()
    assert all(event_format.is_current(t) for t in emitted)


def test_example_games_emit_no_generic_or_legacy_event() -> None:
    emitted = example_games()
    assert emitted & (GENERIC | event_format.LEGACY) == set()
    assert {"bowser_moved", "pokemon_caught", "booth_placed", "prompt_asked@2", "went_to_jail",
            "left_jail", "deck_card_drawn"} <= emitted


def test_a_legacy_event_is_refused_where_it_is_emitted_and_still_replays() -> None:
    with pytest.raises(TypeError, match="legacy"):
        event_format.checked("edition_values_set", {"set": {"discard": {}}})
    assert {"edition_values_set", "player_value_set", "auction_changed"} <= event_format.LEGACY


def test_an_old_debt_patch_upcasts_to_the_fact_it_was() -> None:
    old = {"player": "ann", "creditor": "bob", "amount": 7, "reason": "Rent", "cite": "rent"}
    assert event_format.upcast("debt_changed", {"debt": old}) == (
        "debt_owed", {"player": "ann", "creditor": "bob", "amount": 7, "reason": "Rent",
                      "rule": "rent"})
    assert event_format.upcast("debt", {"debt": None}) == ("debt_settled", {})


def test_the_question_jail_and_decks_are_facts_declared_by_their_owners() -> None:
    owners = {"prompt_asked": "companion.engine.state", "prompt_cleared": "companion.engine.state",
              "went_to_jail": "companion.monopoly.events", "left_jail": "companion.monopoly.events",
              "stayed_in_jail": "companion.monopoly.events",
              "deck_card_drawn": "companion.monopoly.events",
              "card_put_under": "companion.monopoly.events"}
    event_format.load_editions()
    assert {name: event_format.EVENT_TYPES[name].__module__ for name in owners} == owners
    assert not {"flow_changed", "jail_changed", "deck_changed"} & set(event_format.EVENT_TYPES)


@pytest.mark.parametrize(("old", "data", "fact"), [
    ("flow_changed", {"prompt": None, "todo": []}, ("prompt_cleared@2", {"todo": []})),
    ("flow", {"prompt": {"kind": "turn", "to": ["ann"], "text": "Ann: roll", "data": {}},
              "todo": [{"name": "end_turn", "args": {}}]},
     ("prompt_asked@2", {"kind": "turn", "to": ["ann"], "text": "Ann: roll",
                         "todo": [{"name": "end_turn", "args": {}}]})),
    ("jail", {"player": "ann", "in_jail": True, "tries": 0}, ("went_to_jail", {"player": "ann"})),
    ("jail_changed", {"player": "ann", "in_jail": True, "tries": 2},
     ("stayed_in_jail", {"player": "ann", "tries": 2})),
    ("jail_changed", {"player": "ann", "in_jail": False, "tries": 0},
     ("left_jail", {"player": "ann"})),
    ("deck", {"deck": "chance", "cards": ["b", "a"], "card": "a", "player": "ann"},
     ("deck_card_drawn", {"player": "ann", "deck": "chance", "card": "a", "cards": ["b", "a"]})),
    ("deck_changed", {"deck": "chance", "cards": ["b", "a"]},
     ("deck_ordered", {"deck": "chance", "cards": ["b", "a"]})),
])
def test_an_old_patch_upcasts_to_the_fact_it_was(old: str, data: dict[str, object],
                                                 fact: tuple[str, dict[str, object]]) -> None:
    assert event_format.upcast(old, data) == fact


def test_each_editions_facts_are_declared_in_that_editions_modules() -> None:
    """Master Trainer's chips and cards, Mario's GAME OVER card and Star Wars' Force die are
    declared by their editions, not by the engine's events.py."""
    event_format.load_editions()
    where = {name: cls.__module__ for name, cls in event_format.EVENT_TYPES.items()}
    for name in ("chip_caught", "chip_revealed", "knocked_out", "revived", "items_drawn",
                 "items_handed_over", "event_card_named", "item_card_named", "traded",
                 "starter_dealt", "decks_shuffled", "turn_order_set", "turn_started",
                 "mover_placed", "die_counted", "turn_flags_set", "dice_round_changed",
                 "battle_changed"):
        assert where[name].startswith("companion.editions.master_trainer."), name
    assert where["game_over_marked"] == "companion.editions.mario.game_over"
    assert where["force_die_rolled"] == "companion.editions.starwars.force"
