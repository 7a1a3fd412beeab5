"""The Tracker mats section of the table: each Trainer's mat, the catching die and its odds,
and the wild Pokémon left, in each reader's words (the view's ``panels``)."""

from __future__ import annotations

from typing import Any

from pokemon_play import Table

from companion.engine.i18n import localized
from companion.service import game


def _texts(value: Any) -> list[str]:
    """Every text a panel shows (titles, headings, lines, labels), in order."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for k, v in value.items() if k not in ("player", "tone") for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def _mats(t: Table, lang: str) -> str:
    panels = localized(game.view(t.state)["panels"], lang)
    mats = [p for p in panels if p["title"] == localized_title(lang)]
    assert len(mats) == 1, [p["title"] for p in panels]
    return "\n".join(_texts(mats[0]))


def localized_title(lang: str) -> str:
    return {"en": "Tracker mats", "it": "Tabelloni dei tipi", "es": "Tableros de tipos"}[lang]


def test_an_italian_trainer_reads_the_mats_and_the_odds_in_italian() -> None:
    """Ash has a Fire-type Pokémon on the mat and is asked to explore his own Cave: the
    section says so in Italian, with the chance in Italian digits (decimal comma)."""
    t = Table()
    t.give("ash", "fire-1")
    t.own("ash", "cave")
    t.land_on("cave")
    assert t.kind == "explore"
    text = _mats(t, "it")
    assert "Ash con Pikachu: 1 Pokémon, forza in battaglia 2" in text
    assert ("3 su 6: una possibilità su due (50 %) catturare con un tiro; ritirare costa 1 Poké "
            "Ball.") in text
    assert "Adesso: quasi certo (99,9999 %) catturare entro 20 tiri con 20 Poké Ball." in text
    assert "dado di cattura: 3 facce su 6 mostrano una Poké Ball" in text
    assert "Pokémon selvatici rimasti: Roccia 6, Ghiaccio 6" in text
    assert "Fuoco 5" in text
    assert "Tabellone di Ash: 1 tipi su 8" in text  # what a screen reader calls his mat


def test_the_mat_ticks_the_types_caught_in_the_boxs_order() -> None:
    """A mat is a grid of the eight types in the box's order, the caught ones ticked; a
    complete mat says so."""
    t = Table()
    t.give("misty", *(f"{k}-1" for k in ("rock", "ice", "psychic", "fighting", "fire",
                                         "electric", "grass", "water")))
    panel = game.view(t.state)["panels"][0]
    grids = [b["lines"] for b in panel["blocks"] if b.get("grid")]
    assert [[(str(line["text"]), line["ticked"]) for line in grid] for grid in grids] == [
        [(n, False) for n in ("Rock", "Ice", "Psychic", "Fighting", "Fire", "Electric",
                              "Grass", "Water")],
        [(n, True) for n in ("Rock", "Ice", "Psychic", "Fighting", "Fire", "Electric",
                             "Grass", "Water")]]
    assert "8 Pokémon, battle strength 9, mat complete!" in _mats(t, "en")
    assert "Now:" not in _mats(t, "en")  # no prompt carries odds: no current chance
