"""The trainers' sections of the phone's table (the view's ``panels``): each trainer's Power
Points, place, chips and hand, the battle, the catching odds and the chips left to find, in
each reader's words, and never another seat's Item Cards."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from mt_table import Table, started

from companion.engine.i18n import localized


def panel(view: dict[str, Any], title: str) -> dict[str, Any]:
    """The panel of ``view`` whose title (as the reader reads it) starts with ``title``."""
    found = [p for p in view["panels"] if str(p["title"]).startswith(title)]
    assert len(found) == 1, [str(p["title"]) for p in view["panels"]]
    return found[0]


def texts(p: dict[str, Any]) -> list[str]:
    """Every text of a panel's blocks, in order (headings, paragraphs, lines)."""
    out: list[str] = []
    for b in p["blocks"]:
        for key in ("heading", "text"):
            if key in b:
                out.append(str(b[key]))
        out += [str(line["text"]) for line in b.get("lines", ())]
    return out


def test_an_italian_trainer_reads_the_power_points_and_the_chips_left_in_italian() -> None:
    t = started()
    view = localized(t.view("ash"), "it")
    ash = panel(view, "Squadra di Ash")
    assert ash["player"] == "ash" and ash["badge"] == "3 Punti Potenza su 20"
    meter = next(b["meter"] for b in ash["blocks"] if "meter" in b)
    assert meter == {"value": 3, "max": 20, "label": "Punti Potenza di Ash"}
    assert "A Biancavilla" in texts(ash)
    left = texts(panel(view, "Gettoni ancora da trovare"))
    assert any(line.startswith("Rosa: ") and " nel vassoio, " in line and "coperti" in line
               for line in left), left
    assert any(line.endswith(" nella caverna.") for line in left), left
    assert "Strumenti in mano: 0" in texts(ash)


def test_a_seats_view_never_carries_another_seats_item_names() -> None:
    t = started()
    t.give("ash", items=("potion", "potion", "fly"))
    t.give("misty", items=("bonus_3",))
    for viewer, sees in (("ash", {"ash"}), ("misty", {"misty"}), ("", set()),
                         ("banker", {"ash", "misty"})):
        view = t.view(viewer)
        ash, misty = panel(view, "Ash's team"), panel(view, "Misty's team")
        assert "Items in hand: 3" in texts(ash) and "Items in hand: 1" in texts(misty)
        said = json.dumps(view["panels"], default=str)
        assert ("Potion" in said) == ("ash" in sees), viewer
        assert ("Fly" in said) == ("ash" in sees), viewer
        assert ("Attack Bonus 3" in said) == ("misty" in sees), viewer
    assert {"Potion ×2", "Fly"} <= set(texts(panel(t.view("ash"), "Ash's team")))


def test_chips_are_cards_by_colour_then_knocked_out() -> None:
    t = started()
    t.give("ash", team=("raichu", "pidgey", "rattata"), knocked_out=("pidgey",))
    ash = panel(t.view("misty"), "Ash's team")
    headings = [str(b["heading"]) for b in ash["blocks"] if "heading" in b]
    assert headings[:4] == ["Starter", "Pink", "Blue", "Knocked out"]
    cards = [c for b in ash["blocks"] for c in b.get("cards", ())]
    pikachu, rattata, raichu, pidgey = cards
    assert (pikachu["corner"], pikachu["title"], pikachu["note"]) == ("#25", "Pikachu", "⚔ 3")
    assert raichu["label"] == "Raichu, number 26, Blue, strength 9"  # with the Evolution Bonus
    assert pidgey["label"] == "Pidgey, number 16, Pink, strength 2, knocked out"
    assert pidgey["off"] == "knocked out" and "off" not in rattata
    assert pikachu["tone"] == "#8d6e63" and rattata["tone"] == "#d81b60"


def test_the_catching_odds_by_ball_in_each_readers_words() -> None:
    t = started()
    t.give("ash", items=("great_ball",))
    t.do("ash", "roll", dice=[3])
    t.do("ash", "land", space="catch-pink")
    t.do("ash", "reveal", chip="16-pidgey")
    odds = panel(t.view("ash"), "Catching Pidgey")
    assert texts(odds) == ["No ball: an even chance (50 %) (3 of 6 faces)",
                           "Great Ball: very likely (83 %) (5 of 6 faces)"]
    assert texts(panel(localized(t.view("ash"), "it"), "Cattura di Pidgey"))[1] == \
        "Mega Ball: molto probabile (83 %) (5 facce su 6)"


def final_battle() -> Table:
    t = started()
    t.give("ash", team=("mewtwo", "zapdos"))
    t.do("ash", "roll", dice=[2])
    t.do("ash", "land", space="town-no-draw")
    t.turn_of("ash")
    t.do("ash", "roll", dice=[4])
    t.do("ash", "land", space="final")
    t.state = replace(t.state, battle=replace(t.state.battle, rival="lance"))
    return t


def test_the_final_battle_keeps_the_rival_secret_until_shown() -> None:
    t = final_battle()
    face_down = texts(panel(t.view("ash"), "The Final Battle"))
    assert "The rival is still face down." in face_down
    assert not any("Lance" in line for line in face_down)
    holder = texts(panel(t.view("misty"), "The Final Battle"))
    assert "Rival: Lance" in holder and "Dragonite; strength 14" in holder
    assert any(line.startswith("Bonus by roll: 1: +") for line in holder), holder
    t.give("ash", items=("bonus_5",))
    t.do("ash", "fight", chip="mewtwo", bonus=[5])
    battle = panel(t.view("ash"), "The Final Battle")
    assert "Ash: Mewtwo, strength 9, 1 bonus card" in texts(battle)
    assert any(b.get("player") == "ash" for b in battle["blocks"])
    assert "Rival: Lance" in texts(battle)  # shown once the fight is on
