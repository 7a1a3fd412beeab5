"""``MasterTrainerRules``: the edition as the engine finds it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from companion.editions.master_trainer.base import (
    DRAW_ITEMS,
    RIVAL_CARD,
    data_of,
    initial_trainers,
)
from companion.editions.master_trainer.battles import PRIZE
from companion.editions.master_trainer.box_profile import MasterTrainerBox, card_objects
from companion.editions.master_trainer.cards import DRAW_EVENT, CardArgs
from companion.editions.master_trainer.data import check_seed, load, unverified_words
from companion.editions.master_trainer.help import GLANCES, MOVES, PROMPT_HELP
from companion.editions.master_trainer.spaces import SPACES
from companion.editions.master_trainer.state import MasterTrainerState
from companion.editions.master_trainer.story import STORY_COUNTERS
from companion.editions.master_trainer.view import ViewRules
from companion.engine import readings
from companion.engine import rng as rng_mod
from companion.engine.i18n import N_, Msg, Msgs
from companion.engine.story import Counter
from companion.engine.types import Command, GameSetup, IllegalCommand, SetupError

COLOUR_NAMES = {"pink": N_("Pink"), "green": N_("Green"), "blue": N_("Blue"), "red": N_("Red")}
"""The board's chip colours as the setup form names them."""
MOVERS = {"green": Msg("Green mover"), "orange": Msg("Orange mover"), "blue": Msg("Blue mover"),
          "yellow": Msg("Yellow mover"), "pink": Msg("Pink mover"), "beige": Msg("Beige mover")}
"""Each mover as a tag's name."""


class MasterTrainerRules(ViewRules):
    """Pokémon Master Trainer (1999): no money, a race to 20 Power Points and a win against
    a Pokémon Master. Players move their own movers; the companion keeps the rest."""

    citation_file = "seeds/master-trainer/rules.toml"
    locales = resources.files("companion.editions.master_trainer") / "locales"  # its own words
    prompt_help = PROMPT_HELP
    move_words = MOVES
    glance_forms = GLANCES
    box = MasterTrainerBox()
    """What a box profile holds: deck and chip counts, groups, Rival Cards (box_profile.py)."""

    def story_counters(self) -> Sequence[Counter]:
        return STORY_COUNTERS

    def end_cite(self, state: MasterTrainerState) -> str:
        """A game ends only when a trainer wins the Final Battle (for a log from before
        citations)."""
        return "final-win"

    def check(self) -> None:
        check_seed(self)
        self.check_citations()

    def citations(self) -> Mapping[str, Mapping[str, str]]:
        table: Mapping[str, Mapping[str, str]] | None = self.__dict__.get("_citations")
        if table is None:
            table = self.__dict__["_citations"] = readings.citations(self.name)
        return table

    def reading_topic(self, reading: str) -> str:
        return next((r["topic"] for r in readings.readings(self.name) if r["id"] == reading),
                    reading)

    def initial_state(self, setup: GameSetup) -> MasterTrainerState:
        data = load(setup.settings)
        if setup.settings.get("decks", "virtual") not in ("physical", "virtual"):
            raise SetupError(Msg("'decks' is 'physical' (players name each card drawn) or "
                                 "'virtual' (the companion draws)."))
        lo, hi = data.limits["min_players"], data.limits["max_players"]
        if not lo <= len(setup.players) <= hi:
            raise SetupError(Msg("Pokémon Master Trainer is for {low} to {high} players.",
                                 low=lo, high=hi))
        return MasterTrainerState(
            setup=setup, rng=rng_mod.seed_state(setup.seed),
            trainers=initial_trainers([p.id for p in setup.players]),
        )

    def final_ranking(self, state: MasterTrainerState) -> tuple[list[str], str]:
        """Ended by the banker: the most Power Points of revived Pokémon win (reading
        early-end); Trainers tied at the top share the win."""
        points = {t.id: self.power(state, t.id) for t in state.trainers}
        best = max(points.values())
        winners = [pid for pid, n in points.items() if n == best]
        return winners, Msgs("{players} leads with {points} Power Points.",
                             "{players} lead with {points} Power Points.", len(winners),
                             players=[self.pname(state, w) for w in winners], points=best)

    def end_rule(self, state: MasterTrainerState) -> str:
        return readings.early_end_words(self.name, state.setup.settings)

    def setup_info(self) -> dict[str, Any]:
        """The setup form's data: movers to pick, the counts the rulebook does not print
        (Item and Event decks, chips per board colour, city Item Cards), the Pokémon
        Masters' cards (as JSON: ``{rival: {strength, bonus: [6 numbers]}}``) and the
        Evolution Groups (``[[slug, ...], ...]``). The decks' totals are checked by ``load``
        for every game, script and profile alike."""
        data = load()

        def counts(name: str, label: str, values: Mapping[str, int],
                   names: Mapping[str, str]) -> dict[str, Any]:
            return {"name": name, "label": label, "type": "counts", "min": 0,
                    "default": dict(values),
                    "keys": [{"key": k, "label": names.get(k, k.replace("_", " ").capitalize())}
                             for k in values]}

        return {
            "settings": [
                {"name": "decks", "label": N_("Item and Event Cards"), "type": "choice",
                 "default": "physical",
                 "choices": [{"value": "physical",
                              "label": N_("Real piles (name each card drawn)")},
                             {"value": "virtual", "label": N_("Companion draws")}]},
                {"name": "city_items", "label": N_("Item Cards a city or town gives"),
                 "type": "int", "min": 0, "max": 3, "default": data.city_items},
                counts("item_deck", N_("Item Cards in the deck"), data.item_deck,
                       data.item_names),
                counts("event_deck", N_("Event Cards in the deck"), data.event_deck,
                       data.event_names),
                counts("board_spaces", N_("Chips on the board's spaces, by colour"),
                       data.board_spaces, COLOUR_NAMES),
                {"name": "rivals", "label": N_("Pokémon Masters' cards (strength, bonus for "
                                               "rolls 1-6)"), "type": "json", "advanced": True,
                 "default": {k: {"strength": r.strength, "bonus": list(r.bonus)}
                             for k, r in data.rivals.items()}},
                {"name": "evolution_groups", "label": N_("Evolution Groups (lists of 2 or 3 "
                                                         "Pokémon, least evolved first)"),
                 "type": "json", "advanced": True,
                 "default": [list(g) for g in data.groups]},
                *readings.settings_info("master-trainer"),
            ],
            "tokens": list(data.movers),
            "board": None,
            "unverified": unverified_words(data),
        }

    def tag_objects(self) -> list[tuple[str, str]]:
        """Objects a tag can stand for: every chip, every mover, every kind of space, and
        each card of the Item and Event decks (``card:<kind>-<n>``: one tag per card)."""
        data = load()
        out = [(c.tag, c.label) for c in sorted(data.chips.values(), key=lambda c: c.number)]
        out += [(f"token:{m}", MOVERS.get(m, f"{m.title()} mover")) for m in data.movers]
        out += [(s.tag, s.label) for s in SPACES.values()]
        return out + card_objects(data)

    def interpret_tap(self, state: MasterTrainerState, obj: str, role: str = "") -> Command:
        """The command a tag tap means now: a space tag says where the mover landed, a chip
        tag names the chip asked for (starter, reveal, take, fight, revive, Potion), a mover
        tag names its player (whom to challenge) or rolls for them in a digital game.
        IllegalCommand says why a tap means nothing now."""
        kind, _, key = obj.partition(":")
        if kind == "card":
            return self.card_tapped(state, key.rsplit("-", 1)[0])
        if kind == "chip" and key[:1].isdigit():
            key = key.split("-", 1)[-1]
        arg = {"space": "space", "chip": "chip", "token": "with"}.get(kind)
        if arg is None:
            raise IllegalCommand(Msg("{tag} is not a Pokémon Master Trainer object.", tag=obj))
        if kind == "token":
            seats = [p.id for p in state.setup.players if p.token == key]
            if not seats:
                raise IllegalCommand(Msg("No player in this game has the {mover} mover.",
                                         mover=key))
            key = seats[0]
        legal = self.actions(state)
        for action in legal:
            spec = action.input or {}
            if spec.get("arg") == arg and any(o["value"] == key for o in spec.get("options", ())):
                return Command(action.actor, action.type, {**action.args, arg: key})
        if kind == "token" and state.setup.dice == "digital":
            for action in legal:
                if action.actor == key and action.type == "roll":
                    return Command(key, "roll", {})
        raise IllegalCommand(f"That tag means nothing now. {self.waiting_for(state)}")

    def card_tapped(self, state: MasterTrainerState, card: str) -> Command:
        """A deck card's tag names the card drawn from the real pile (or taken as a prize)."""
        prompt = state.prompt
        if prompt is None or prompt.kind not in (DRAW_ITEMS.kind, DRAW_EVENT.kind, PRIZE.kind,
                                                 RIVAL_CARD.kind):
            raise IllegalCommand(Msg("No card is to be drawn now; tap a card when the game "
                                     "asks."))
        why = self.refuse_draw(state, prompt.to[0], CardArgs(card))
        if why:
            raise IllegalCommand(why)
        return Command(prompt.to[0], "draw", {"card": card})


__all__ = ["MasterTrainerRules", "MasterTrainerState", "data_of"]
