"""Monopoly: The Super Mario Bros. Movie Edition: Bowser, GAME OVER, team battles.

Everything else (buying, auctions, rent, jail, cards, trades, debt) is the shared family.
Bowser moves first on the black die (the second die of each roll), harms players he passes,
puts locations he lands on in GAME OVER, and fights the players he meets (never on Go to Jail:
"immediately put your token into the Jail section"). Readings the banker may choose at setup
(Bowser's rest, rent asked for, early-end ranking, Free Parking pot): docs/readings/mario.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from importlib import resources
from typing import TypedDict

from companion.editions.mario.bowser import MarioBowser
from companion.editions.mario.game_over import GameOverMarked
from companion.editions.mario.help import PROMPT_HELP
from companion.editions.mario.page import PAGE
from companion.editions.mario.rent_asked import MarioRentAsked
from companion.editions.mario.story import STORY_COUNTERS
from companion.editions.mario.values import Bowser, MarioValues
from companion.engine.commands import NoArgs
from companion.engine.context import Ctx, cites
from companion.engine.events import WentBankrupt
from companion.engine.i18n import N_, Msg, Msgs
from companion.engine.prompts import RollPrompt
from companion.engine.registry import effect, space_kind, task
from companion.engine.story import Counter
from companion.monopoly.board import Card, Space
from companion.monopoly.help import FAMILY_HELP
from companion.monopoly.rules import MonopolyRules
from companion.monopoly.state import MonopolyState, values_of
from companion.monopoly.totals import Totals
from companion.monopoly.view import BoardMarks, BoardNote, SpaceFlag

__all__ = ["GameOverMarked", "MarioRules", "MarioValues"]

C = Ctx[MonopolyState]

SUPER_STAR = RollPrompt("super_star", then="super_star")
"""Super Star: roll one die and collect that many coins."""

PIRANHA_PLANT = RollPrompt("piranha_plant", then="piranha_plant")
"""Piranha Plant: roll one die and lose that many coins."""


class BowserView(TypedDict):
    position: int
    space: str
    active: bool
    waiting_for: list[str]
    """The names of the players still to finish a turn before he is active again."""


class MarioView(TypedDict):
    """Mario's values on the page (``view["extra"]``)."""

    bowser: BowserView


class MarioRules(MarioRentAsked, MarioBowser, MonopolyRules):
    """The Super Mario Bros. Movie Edition."""
    data_folder = resources.files("seeds")  # seeds/<name>.toml and the files beside it
    locales = resources.files(__name__) / "locales"  # its own words in every language

    name = "mario"
    title = "Monopoly: The Super Mario Bros. Movie Edition"
    page = PAGE
    max_players = 6
    prompt_help = {**FAMILY_HELP, **PROMPT_HELP}
    move_words = {**MonopolyRules.move_words,
                  "ask_rent": N_("{player}'s call for rent"),
                  "continue_location": N_("{player}'s continued location"),
                  }
    effect_words = {
        **MonopolyRules.effect_words,
        "move_bowser": (N_("Move Bowser"), N_("Bowser moves {steps}")),
        "move_bowser_to": (N_("Move Bowser to a space"), N_("Bowser moves to {space}")),
        "continue_all": (N_("Your GAME OVER spaces continue"),
                         N_("Every GAME OVER space you own continues for free")),
    }
    kind_words = {**MonopolyRules.kind_words, "piranha_plant": N_("Piranha Plant"),
                  "super_star": N_("Super Star")}
    board_totals = Totals(spaces=28, locations=16, group_size=(2, 2),
                          kind_counts={"card": 6, "super_star": 1, "piranha_plant": 1},
                          fixed=("go", "jail", "free-parking", "go-to-jail"))
    """What the rulebook prints about the board (a box profile's board is checked against it)."""
    """Readings offered to the banker (seeds/mario.toml [[readings]], docs/readings/mario.md)."""

    dice_names = ("red", "black")
    """The two dice as the rulebook names them (two-dice inputs name them); Bowser moves on
    the black."""

    def story_counters(self) -> Sequence[Counter]:
        return STORY_COUNTERS

    def edition_setup(self, state: MonopolyState) -> MonopolyState:
        state = super().edition_setup(state)
        start = state.b.find(state.b.rule("bowser_start")).index
        bowser: Bowser = {"position": start, "active": True, "wake": []}
        return replace(state, ext=MarioValues(bowser=bowser))

    def final_ranking(self, state: MonopolyState) -> tuple[list[str], str]:
        if self.reading(state, "early_end") == "money":
            return self.money_ranking(state)
        return super().final_ranking(state)

    # -- spaces and cards ---------------------------------------------------------------
    @space_kind("super_star")
    def land_super_star(self, ctx: C, pid: str, space: Space) -> None:
        self.ask_roll(ctx, SUPER_STAR, pid, Msg("Super Star! {player}: roll one die and "
                                                  "collect that many coins",
                                                  player=ctx.state.name(pid)),
                      1, label=Msg("Roll"), player=pid)

    @task("super_star")
    @cites("super-star")
    def task_super_star(self, ctx: C, player: str, dice: list[int]) -> None:
        self.receive(ctx, player, dice[0], Msg("Super Star: {player} rolled {n} and collects "
                                               "{amount}.", player=ctx.state.name(player),
                                               n=dice[0], amount=ctx.state.cash(dice[0])))

    @space_kind("piranha_plant")
    def land_piranha_plant(self, ctx: C, pid: str, space: Space) -> None:
        self.ask_roll(ctx, PIRANHA_PLANT, pid, Msg("Piranha Plant! {player}: roll one die "
                                                     "and lose that many coins",
                                                     player=ctx.state.name(pid)),
                      1, label=Msg("Roll"), player=pid)

    @task("piranha_plant")
    @cites("piranha-plant")
    def task_piranha_plant(self, ctx: C, player: str, dice: list[int]) -> None:
        self.pay(ctx, player, "bank", dice[0], Msg("Piranha Plant: {player} rolled {n} and "
                                                   "pays {amount}", player=ctx.state.name(player),
                                                   n=dice[0], amount=ctx.state.cash(dice[0])))

    @effect("continue_all")
    def effect_continue_all(self, ctx: C, pid: str, card: Card, args: NoArgs) -> None:
        for i in ctx.state.owned_by(pid):
            if self.game_over_at(ctx.state, i):
                ctx.emit("game_over_marked", Msg("{space} continues for free.",
                                                 space=ctx.state.b.spaces[i].name),
                         space=i, game_over=False)

    # -- the end --------------------------------------------------------------------------
    ends_after = frozenset({GameOverMarked.tag(), WentBankrupt.tag()})
    """Only a GAME OVER mark or a bankruptcy can end the game (see ``ended``)."""

    def end_cite(self, state: MonopolyState) -> str:
        if all(self.game_over_at(state, i) for i in state.b.ownable):
            return "end-game-over"
        return super().end_cite(state)

    def ended(self, state: MonopolyState) -> tuple[list[str], str] | None:
        marks = values_of(state, MarioValues).game_over  # checked after every step: count first
        if len(marks) >= len(state.b.ownable) and all(i in marks for i in state.b.ownable):
            return [], Msgs("Bowser has put all {n} locations in GAME OVER: the Mushroom "
                            "Kingdom is his and everyone loses.",
                            "Bowser has put all {n} locations in GAME OVER: the Mushroom "
                            "Kingdom is his and everyone loses.", len(state.b.ownable))
        return super().ended(state)

    def board_marks(self, state: MonopolyState) -> BoardMarks:
        """Bowser on the board, GAME OVER on the locations it marks, and both told in the
        middle of the board."""
        b = self.bowser(state)
        marks = values_of(state, MarioValues).game_over
        over = sorted(marks)
        space = state.b.spaces[b["position"]].name
        notes: list[BoardNote] = [
            {"mark": Msg("B"), "text": Msg("Bowser is on {space}.", space=space) if b["active"]
             else Msg("Bowser is on {space} (asleep).", space=space)},
            {"text": Msg("GAME OVER: {spaces}", spaces=[state.b.spaces[i].name for i in over])
             if over else Msg("No GAME OVER yet.")}]
        if b["wake"]:  # resting Bowser wakes when these have played
            notes.append({"text": Msgs("Bowser rests until {players} has finished a turn.",
                                       "Bowser rests until {players} have finished a turn.",
                                       len(b["wake"]),
                                       players=[state.name(w) for w in b["wake"]])})
        flag: SpaceFlag = {"kind": "over", "text": Msg("GAME OVER"), "shown": True}
        return {"flags": {i: [flag] for i in over},
                "pieces": [{"index": b["position"], "mark": Msg("B"),
                            "here": Msg("Bowser is here")}],
                "notes": notes}

    def extra_view(self, state: MonopolyState) -> MarioView:
        b = self.bowser(state)
        return {"bowser": {"position": b["position"], "space": state.b.spaces[b["position"]].name,
                           "active": b["active"],
                           "waiting_for": [state.name(w) for w in b["wake"]]}}
