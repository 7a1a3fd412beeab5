"""What the page asks at a catch and a fight is said in this edition's words, sent with the
action's input (message ids of its own catalogue, web/static/app.js choiceThenRoll/bonusPicker):
the page's own code names no Poké Ball and no Attack Bonus card (issue 40)."""

from __future__ import annotations

from mt_table import started
from test_mt_battles import challenge
from test_mt_catching import land_on_pink_pidgey

from companion.engine.i18n import Msg, render


def test_the_catch_asks_for_the_die_and_the_ball_in_its_own_words() -> None:
    t = land_on_pink_pidgey(items=("great_ball",))
    catch = next(a for a in t.actions("ash") if a.type == "catch")  # type: ignore[attr-defined]
    roll = catch.input["roll"]
    assert render(Msg(roll["typed"], action="Prova"), "it") == (
        "Prova: tira il dado, scrivi il numero, poi tocca la ball che giochi")
    assert render(Msg(roll["rolled"], action="Intentar"), "es") == (
        "Intentar: toca la ball que juegas; el companion tira el dado")
    assert render(Msg(roll["missing"]), "en") == (
        "Enter the die you rolled (1 to 6), then tap the ball.")


def test_the_fight_names_its_attack_bonus_cards_in_its_own_words() -> None:
    t = started()
    challenge(t, ash_items=("bonus_2", "bonus_3"))
    t.do("misty", "accept")
    fight = next(a for a in t.actions("ash") if a.type == "fight")
    bonus = fight.input["bonus"]
    assert render(Msg(bonus["legend"], n=bonus["max"]), "it") == "Carte Bonus Attacco (fino a 2)"
