"""The player ``scripts/bench_engine.py`` gives Master Trainer: random, but it plays to win
where a real player obviously would, so its games reach a winner."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from test_mt_final import at_cinnabar_with_twenty

from companion.service import game

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from bench_engine import mt_command, random_game  # noqa: E402


def test_a_benchmark_game_ends_with_a_new_master_trainer() -> None:
    """A 4-player benchmark game of Master Trainer ends: someone beats a Pokémon Master."""
    events, commands = random_game(1001, players=4, edition="master-trainer")
    assert commands < 5000
    assert game.replay(events).finished
    assert any(e.cite == "final-win" for e in events)


def test_final_battle_fields_the_strongest_pokemon_with_the_two_best_bonus_cards() -> None:
    """In the Final Battle the player sends out its strongest Pokémon (Mewtwo or Zapdos, 9
    each, not Pikachu 3) with its two best Attack Bonus cards."""
    t = at_cinnabar_with_twenty()
    t.give("ash", items=("bonus_1", "bonus_5", "great_ball", "bonus_4"))
    t.do("ash", "roll", dice=[4])
    t.do("ash", "land", space="final")
    command = mt_command(random.Random(1), t.state, game.legal_actions(t.state))
    assert command.type == "fight" and command.actor == "ash"
    assert command.args["chip"] in ("mewtwo", "zapdos")
    assert command.args["bonus"] == ["bonus_5", "bonus_4"]


def test_a_knocked_out_strong_pokemon_is_revived_with_a_potion_before_the_final_battle() -> None:
    """With a Potion in hand and its strongest Pokémon knocked out, the player revives it."""
    t = at_cinnabar_with_twenty()
    t.do("ash", "roll", dice=[4])
    t.do("ash", "land", space="final")
    t.give("ash", items=("potion",), knocked_out=("mewtwo",))
    command = mt_command(random.Random(1), t.state, game.legal_actions(t.state))
    assert (command.type, command.args.get("chip")) == ("use", "mewtwo")
