"""Monopoly: Pokémon Edition (2024): explore locations, catch wild Pokémon, battle rivals.

Poké Balls are the money. Landing on a location you control lets you explore it for free; on a
rival's you pay the exploration cost to explore or battle them. Exploring rolls the catching
die (Poké Ball or X faces, a setting). The first Trainer whose tracker mat has all 8 types, or
the last Trainer with Poké Balls, wins. Everything else (auctions, jail, cards, trades, debt) is
the shared family, with hooks in ``spaces``, ``catching`` and ``battles``.

Readings of the rulebook where it is silent (docs/readings/pokemon.md; the ones with two
plausible answers are settings in seeds/pokemon.toml [[readings]]): by default spending your
last Poké Ball on a re-roll puts you out (owing the Bank); bankruptcy is offered only once
selling every location to the Bank could not pay the debt; Lapras offers every
space up to and including the next Lapras (landing there by Lapras does not ride again); the
battle cards are played after both rolls, challenger first; bankruptcy hands locations to the
creditor as in the family rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from importlib import resources
from typing import Any

from companion.editions.pokemon import data, page
from companion.editions.pokemon.battles import PokemonBattles
from companion.editions.pokemon.catching import PokemonCatching, PokemonCaught, with_values
from companion.editions.pokemon.help import PROMPT_HELP
from companion.editions.pokemon.spaces import PokemonSpaces
from companion.editions.pokemon.story import STORY_COUNTERS
from companion.editions.pokemon.tracker_mats import tracker_mats
from companion.editions.table_settings import TableSettings
from companion.engine.commands import NoArgs
from companion.engine.context import Ctx
from companion.engine.event_format import EventData, fact
from companion.engine.events import WentBankrupt
from companion.engine.i18n import N_, Msg, Msgs
from companion.engine.panels import Panel
from companion.engine.registry import prompt_kind
from companion.engine.story import Counter
from companion.engine.types import Action, IllegalCommand
from companion.monopoly.board import load_board
from companion.monopoly.debts import DEBT
from companion.monopoly.help import FAMILY_HELP
from companion.monopoly.rules import MonopolyRules
from companion.monopoly.state import Assets, MonopolyState
from companion.monopoly.totals import Totals

C = Ctx[MonopolyState]


# -- the events of Pokémon changing hands (applied by PokemonRules' ``on_`` handlers) ----------
@fact("pokemon_handed_over")
class PokemonHandedOver(EventData):
    """A trade: ``giver`` handed the wild Pokémon ``chips`` to ``to``."""

    giver: str
    to: str
    chips: list[str]


@fact("pokemon_inherited")
class PokemonInherited(EventData):
    """``player`` is out owing ``heir``, who gets every wild Pokémon ``player`` held."""

    player: str
    heir: str


@fact("pokemon_released")
class PokemonReleased(EventData):
    """``player`` is out owing the Bank: their wild Pokémon go back beside the board."""

    player: str


class PokemonRules(TableSettings, PokemonSpaces, PokemonCatching, PokemonBattles, MonopolyRules):
    """Monopoly: Pokémon Edition."""
    data_folder = resources.files("seeds")  # seeds/<name>.toml and the files beside it
    locales = resources.files(__name__) / "locales"  # its own words in every language

    name = "pokemon"
    title = "Monopoly: Pokémon Edition"
    page = page.PAGE
    max_players = 4
    dice_count = 1
    prompt_help = {**FAMILY_HELP, **PROMPT_HELP}
    effect_arg_words = {**MonopolyRules.effect_arg_words,
                        "bonus": ("int", N_("Bonus in a battle"))}  # a kept Challenge card's
    move_words = {**MonopolyRules.move_words,
                  "battle": N_("{player}'s challenge to a battle"),
                  "explore": N_("{player}'s exploring"),
                  "reroll": N_("{player}'s roll again"),
                  "stop": N_("{player}'s stop"),
                  }
    kind_words = {**MonopolyRules.kind_words, "lapras": N_("Lapras")}
    glance_forms = {
        **MonopolyRules.glance_forms,
        "battle_card": (N_("{player}: {total} against {theirs}. A Challenge card?"),),
        "explore": (N_("{player}: explore {space}?"),),
    }
    board_totals = Totals(locations=16, group_size=(2, 2), fixed=("go",))
    """What the rulebook prints about the board (a box profile's board is checked against it)."""
    own_settings = ({"name": "ball_faces", "label": N_("Poké Ball faces on the catching die"),
                     "type": "int", "min": 1, "max": 6},)
    trade_extras = ("pokemon",)
    cite_as = {"auction": "auction-win", "adventure": "cards", "challenge": "cards"}
    never_cites = {"rent": "a rival's location is explored or battled, never rented",
                   "three-doubles": "one die: no doubles"}

    def edition_setup(self, state: MonopolyState) -> MonopolyState:
        state = super().edition_setup(state)
        faces = data.ball_faces_setting(state.b, dict(state.setup.settings))
        return replace(state, ext=data.PokemonValues(
            wild=data.all_chips(state.b), caught={p.id: [] for p in state.players},
            ball_faces=faces))

    # -- debts: "they have to try to earn Poké Balls by selling locations" -----------------
    def sale_would_pay(self, state: MonopolyState) -> str | None:
        """While selling locations to the Bank could still pay the debt: the reason
        bankruptcy is refused; else None."""
        d = state.debt
        if d is None:
            return None
        owned = state.owned_by(d.player)
        worth = state.player(d.player).money + sum(self.bank_price(state, i) for i in owned)
        if not owned or worth < d.amount:
            return None
        return Msg("{player} must first try to earn Poké Balls: selling locations to the Bank "
                   "({spaces}) or to rival Trainers can pay the {amount} owed.",
                   player=state.name(d.player), spaces=[state.b.spaces[i].name for i in owned],
                   amount=state.cash(d.amount))

    @prompt_kind(DEBT)
    def actions_debt(self, state: MonopolyState) -> list[Action]:
        out = super().actions_debt(state)
        if self.sale_would_pay(state):
            out = [a for a in out if a.type != "declare_bankruptcy"]
        return out

    def refuse_declare_bankruptcy(self, state: MonopolyState,
                                  actor: str, args: NoArgs) -> str | None:
        return self.sale_would_pay(state)

    # -- trades and bankruptcy ------------------------------------------------------------
    def check_holds_extra(self, state: MonopolyState, pid: str, assets: Assets) -> None:
        for card in assets.cards:
            if not self.is_jail_card(state, card):
                raise IllegalCommand(Msg("Only Get Out of Jail Free cards can be traded."))
        mine = data.caught(state, pid)
        chips = {c for cs in data.all_chips(state.b).values() for c in cs}
        for chip in assets.extra.get("pokemon", ()):
            if chip not in chips:
                raise IllegalCommand(Msg("There is no such wild Pokémon chip."))
            if chip not in mine:
                raise IllegalCommand(Msg("{player} does not hold the wild Pokémon {chip}.",
                                         player=state.name(pid), chip=chip))
        battle = data.values(state).battle
        if battle and assets.spaces:
            if battle["space"] in assets.spaces:
                raise IllegalCommand(Msg("A location being battled for cannot be traded."))

    def hand_over_extra(self, ctx: C, giver: str, taker: str, a: Assets) -> None:
        chips = list(a.extra.get("pokemon", ()))
        if chips:
            ctx.emit("pokemon_handed_over", giver=giver, to=taker, chips=chips)

    def on_pokemon_handed_over(self, state: MonopolyState, e: PokemonHandedOver) -> MonopolyState:
        table = data.all_caught(state)
        table[e.giver] = [c for c in table[e.giver] if c not in e.chips]
        table[e.to] = [*table[e.to], *e.chips]
        return with_values(state, caught=table)

    def hand_over_extras(self, ctx: C, pid: str, heir: str | None) -> None:
        """Owing a Trainer: they get the wild Pokémon. Owing the Bank: released to the wild."""
        chips = data.caught(ctx.state, pid)
        if heir is not None:
            say = Msg("{heir} gets {player}'s wild Pokémon.", heir=ctx.state.name(heir),
                      player=ctx.state.name(pid)) if chips else ""
            ctx.emit("pokemon_inherited", say, player=pid, heir=heir)
        else:
            say = Msg("{player}'s wild Pokémon are released back beside the board.",
                      player=ctx.state.name(pid)) if chips else ""
            ctx.emit("pokemon_released", say, player=pid)

    def on_pokemon_inherited(self, state: MonopolyState, e: PokemonInherited) -> MonopolyState:
        table = data.all_caught(state)
        chips = table[e.player]
        table[e.player] = []
        table[e.heir] = [*table[e.heir], *chips]
        return with_values(state, caught=table, catch=None)

    def on_pokemon_released(self, state: MonopolyState, e: PokemonReleased) -> MonopolyState:
        table = data.all_caught(state)
        chips = table[e.player]
        table[e.player] = []
        wild = data.wild(state)
        for chip in chips:
            wild[data.chip_type(chip)].append(chip)
        return with_values(state, caught=table, wild=wild, catch=None)

    def describe(self, state: MonopolyState, a: Assets) -> str:
        names = data.type_names(state.b)
        chips = [Msg("{type} Pokémon {chip}", type=names[data.chip_type(c)], chip=c)
                 for c in a.extra.get("pokemon", ())]
        rest = super().describe(state, Assets(a.money, a.spaces, a.cards))
        if not chips:
            return rest
        parts = [*([rest] if rest != "nothing" else []), *chips]
        said = parts[-1]
        for part in reversed(parts[:-1]):
            said = Msg("{item}, {rest}", item=part, rest=said)
        return said

    # -- the end --------------------------------------------------------------------------
    def story_counters(self) -> Sequence[Counter]:
        return STORY_COUNTERS

    def end_cite(self, state: MonopolyState) -> str:
        return "end-mat"

    ends_after = frozenset({PokemonCaught.tag(), PokemonHandedOver.tag(), PokemonInherited.tag(),
                            WentBankrupt.tag()})
    """A tracker mat fills by a catch, a trade or an inheritance; the last Trainer standing
    follows a bankruptcy."""

    def ended(self, state: MonopolyState) -> tuple[list[str], str] | None:
        complete = data.complete_mats(state)
        done = [p.id for p in state.active if p.id in complete] if complete else []
        if done:
            return done, Msgs("{players} completed the tracker mat with all 8 types and wins!",
                              "{players} completed the tracker mat with all 8 types and win!",
                              len(done), players=[state.name(p) for p in done])
        active = state.active
        if len(active) == 1:
            return [active[0].id], Msg("{player} is the last Trainer with Poké Balls and wins!",
                                       player=active[0].name)
        return None

    def final_ranking(self, state: MonopolyState) -> tuple[list[str], str]:
        """Stopped early: most types on the mat, then most Pokémon, then most Poké Balls
        (setting early_end = balls: the most Poké Balls)."""
        if self.reading(state, "early_end") == "balls":
            return self.money_ranking(state, in_money=False)
        def score(pid: str) -> tuple[int, int, int]:
            return (len(data.mat_types(state, pid)), len(data.caught(state, pid)),
                    state.player(pid).money)
        best = max(score(p.id) for p in state.active)
        winners = [p.id for p in state.active if score(p.id) == best]
        return winners, Msgs("{players} leads with {types}, {pokemon} Pokémon and {amount}.",
                             "{players} lead with {types}, {pokemon} Pokémon and {amount}.",
                             len(winners), players=[state.name(w) for w in winners],
                             types=Msgs("{n} type", "{n} types", best[0]), pokemon=best[1],
                             amount=state.cash(best[2]))

    # -- front ends -----------------------------------------------------------------------
    def view(self, state: MonopolyState, viewer: str | None = None) -> dict[str, Any]:
        out = super().view(state, viewer)
        for p in out["players"]:
            pid = p["id"]
            p.update(partner=data.partner(state, pid), pokemon=data.caught(state, pid),
                     types=sorted(data.mat_types(state, pid)),
                     mat_complete=data.mat_complete(state, pid),
                     battle_strength=data.battle_strength(state, pid))
        return out

    def panels(self, state: MonopolyState) -> list[Panel]:
        """Tracker mats: each Trainer's mat, the catching die and the chance a standing
        exploring or catching prompt shows, the wild Pokémon left."""
        prompt = state.prompt
        odds = prompt.data["odds"] if prompt and prompt.kind in self.live_prompts else None
        return [tracker_mats(state, odds)]

    def extra_view(self, state: MonopolyState) -> data.PokemonView:
        ext = data.values(state)
        k, n = ext.ball_faces, int(state.b.rule("die_faces"))
        return {"types": data.type_names(state.b),
                "wild": {t: len(c) for t, c in ext.wild.items()},
                "catching_die": {"faces": ["ball"] * k + ["x"] * (n - k), "ball_faces": k,
                                 "reroll_price": int(state.b.rule("reroll_price"))},
                "catch": ext.catch, "battle": ext.battle,
                "mats": {pid: {"types": sorted(data.mat_types(state, pid)),
                               "count": len(chips)} for pid, chips in ext.caught.items()}}

    def tag_objects(self) -> list[tuple[str, str]]:
        board = load_board(self.name)
        names = data.type_names(board)
        chips = [(f"chip:{c}", Msg("the {type}-type chip {chip}", type=names[t], chip=c))
                 for t, cs in data.all_chips(board).items() for c in cs]
        return super().tag_objects() + chips
