"""A Pokémon Master Trainer box's profile: its deck and chip counts, Evolution Groups and
Rival Cards (companion/engine/box.py); no card texts, a tag per card of each deck."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.editions.master_trainer.data import EditionData, load
from companion.engine.box import BoxProfile
from companion.engine.i18n import N_, Msg, said, wire
from companion.engine.types import SetupError

TABLES = ("item_deck", "event_deck", "board_spaces", "city_items")
"""Settings a fact of the same name confirms as a whole."""


class MasterTrainerBox(BoxProfile):
    def card_objects(self, rules: Any, settings: Mapping[str, Any]) -> set[str]:
        return {o for o, _ in card_objects(load(settings))}

    def check(self, rules: Any, settings: Mapping[str, Any]) -> None:
        try:
            load(settings)  # the rulebook's totals are checked there, as for every game
        except SetupError as exc:
            raise SetupError(Msg("settings.{error}", error=said(exc))) from None

    def unverified(self, rules: Any, settings: Mapping[str, Any]) -> list[str]:
        return list(load(settings).unverified)

    def confirm(self, rules: Any, settings: dict[str, Any], fact: str) -> None:
        data = load(settings)
        if fact in TABLES:
            value = getattr(data, fact)
            settings[fact] = dict(value) if isinstance(value, Mapping) else value
        elif fact == "evolution_groups":
            settings[fact] = [list(g) for g in data.groups]
        elif fact.startswith("rivals."):
            key = fact.split(".", 1)[1]
            rival = data.rivals[key]
            settings.setdefault("rivals", {})[key] = {"strength": rival.strength,
                                                      "bonus": list(rival.bonus)}

    def editor(self, rules: Any, profile: Mapping[str, Any], facts: list[str]
               ) -> dict[str, Any]:
        tags = {obj: uid for uid, obj in profile["tags"].items()}
        data = load(profile["settings"])

        def deck(card: str) -> str:
            kind = card.rsplit("-", 1)[0]
            return "item" if kind in data.item_deck else "rival" if kind in data.rivals \
                else "event"

        return {"notes": [wire(n) for n in data.deck_notes],  # a lost card: said, not refused
                "card_tags": [{"id": (card := obj.removeprefix("card:")), "label": wire(label),
                               "deck": deck(card), "tag": tags.get(obj)}  # wire: each language
                              for obj, label in card_objects(data)],
                "tag_decks": TAG_DECKS, "settings_hint": SETTINGS_HINT}


TAG_DECKS = [{"deck": "item", "title": N_("Item Cards")},
             {"deck": "event", "title": N_("Event Cards")},
             {"deck": "rival", "title": N_("Rival Cards")}]
"""The decks whose cards get a tag, in the editor's order, each named (a message id)."""
SETTINGS_HINT = N_("Deck counts, chips on the board, evolution groups, rivals, readings (JSON).")
"""What the editor's other settings hold for this box (a message id)."""


def card_objects(data: EditionData) -> list[tuple[str, str]]:
    """One tag object per card of the Item and Event decks (``card:<kind>-<n>``) and per
    Rival Card (``card:<rival>-1``)."""
    out: list[tuple[str, str]] = []
    for kind, deck, names in (("item", data.item_deck, data.item_names),
                              ("event", data.event_deck, data.event_names)):
        out += [(f"card:{k}-{i}", Msg("Item Card: {card} ({i} of {n})", card=names[k], i=i, n=n)
                 if kind == "item" else
                 Msg("Event Card: {card} ({i} of {n})", card=names[k], i=i, n=n))
                for k, n in deck.items() for i in range(1, n + 1)]
    out += [(f"card:{k}-1", Msg("Rival Card: {card}", card=r.name)) for k, r in data.rivals.items()]
    return out
