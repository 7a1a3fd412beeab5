"""Cards drawn from the real piles (an Event Card, or an Item Card named as it is drawn), and
what each Event Card does (Trade Pokémon and Let's Fight!: :mod:`trades`, :mod:`battles`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.editions.master_trainer.base import DRAW_ITEMS, RIVAL_CARD, State, data_of
from companion.editions.master_trainer.data import CHIP_WORDS, COLOURS
from companion.editions.master_trainer.landing import LandingRules
from companion.editions.master_trainer.turns import ChipArgs, chip_arg
from companion.engine import readings
from companion.engine.commands import Small, takes
from companion.engine.i18n import Msg
from companion.engine.prompts import CommandPrompt
from companion.engine.registry import declare, need
from companion.engine.rules import Ctx, cites
from companion.engine.types import IllegalCommand

DRAW_EVENT = CommandPrompt("draw_event")
"""Name the Event Card drawn from the real pile."""

REVIVE_CARD = CommandPrompt("revive_card")
"""Pokémon Center card: revive one knocked-out Pokémon."""

TAKE = CommandPrompt("take")
"""Chance: take a chip from the board."""


@dataclass(frozen=True)
class CardArgs:
    """Name the card drawn from the real pile or taken as a prize."""

    card: Small = None
    """The card's kind (``potion``, ``great_ball``, ...)."""


class CardRules(LandingRules):
    """``draw`` and ``take``, and the Event Cards."""

    if TYPE_CHECKING:
        def ask_fight(self, ctx: Ctx[State]) -> None: ...  # battles.py

    # -- Event Cards -----------------------------------------------------------------------
    def draw_event(self, ctx: Ctx[State]) -> None:
        state = ctx.state
        pid = state.current
        assert pid is not None
        if state.setup.settings.get("decks", "virtual") == "physical":
            names = data_of(state).event_names
            above = self.events_above(state)
            ctx.ask(DRAW_EVENT, (pid,), Msg("{player}: draw an Event Card, then tap it or pick "
                                              "it", player=self.pname(state, pid)),
                    cards=[k for k in names if k in above])
            return
        card = state.events_deck[0]
        title = data_of(state).event_names[card]
        ctx.emit("event_drawn", Msg("{player} draws the Event Card {card} (it goes under the "
                                    "Event pile).", player=self.pname(state, pid), card=title),
                 player=pid, card=card)
        need(self, "event_card", card)(ctx, pid)

    @staticmethod
    def events_above(state: State) -> tuple[str, ...]:
        """Event Cards that can come off the real pile now: those not yet drawn since the
        pile came round (a drawn card goes under the pile)."""
        top = state.events_top
        return state.events_deck[:top] if top else state.events_deck

    def refuse_draw(self, state: State, actor: str, args: CardArgs) -> str | None:
        prompt = state.prompt
        card = str(args.card)
        if prompt is None or card in prompt.data.get("cards", ()):
            return None
        data = data_of(state)
        if prompt.kind == DRAW_ITEMS.kind:
            return self.why_not_item(state, card)
        if prompt.kind == RIVAL_CARD.kind:
            return Msg("There is no Rival Card {card} in this game.", card=repr(card))
        if prompt.kind != DRAW_EVENT.kind:
            return None
        names = data.event_names
        if card not in names:
            if card in data.item_names:
                return Msg("{card} is an Item Card: draw an Event Card.",
                           card=data.item_names[card])
            return Msg("There is no Event Card {card} in this game.", card=repr(card))
        return Msg("No {card} card can come up now: every one is under the pile.",
                   card=names[card])

    def why_not_item(self, state: State, card: str) -> str:
        """Why Item Card ``card`` cannot be the one drawn from the real pile now."""
        data = data_of(state)
        names = data.item_names
        if card not in names:
            if card in data.event_names:
                return Msg("{card} is an Event Card: draw an Item Card.",
                           card=data.event_names[card])
            return Msg("There is no Item Card {card} in this game.", card=repr(card))
        if card in state.items_deck:
            return Msg("No {card} card can come up now: every one left in the pile is under it "
                       "(used cards go under the pile).", card=names[card])
        if self.holders(state, card):
            return Msg("Every {card} card is in a player's hand: it cannot be drawn.",
                       card=names[card])
        return Msg("This game's Item deck has no {card} card.", card=names[card])

    @takes(CardArgs)
    def cmd_draw(self, ctx: Ctx[State], actor: str, args: CardArgs) -> None:
        """``draw card=<kind>``: the card drawn from the real pile: an Event Card (it goes
        under the pile) or an Item Card (it joins the hand; the draw goes on if more are
        due)."""
        assert ctx.state.prompt is not None
        if ctx.state.prompt.kind == DRAW_ITEMS.kind:
            self.draw_named_item(ctx, str(args.card))
            return
        if ctx.state.prompt.kind == RIVAL_CARD.kind:
            self.rival_named(ctx, str(args.card))
            return
        state = ctx.state
        pid = state.current
        assert pid is not None and state.prompt is not None
        card = str(args.card)
        above = list(self.events_above(state))
        above.remove(card)
        under = [*state.events_deck[state.events_top or len(state.events_deck):], card]
        title = data_of(state).event_names[card]
        ctx.clear_prompt()
        ctx.emit("event_card_named", Msg("{player} draws the Event Card {card} (it goes under "
                                         "the Event pile).", player=self.pname(state, pid),
                                         card=title),
                 player=pid, card=card, deck=above + under, top=len(above))
        need(self, "event_card", card)(ctx, pid)

    def rival_named(self, ctx: Ctx[State], card: str) -> None:
        """The Rival Card the Pokémon Master drew from the real pile: the Final Battle
        begins with it (the card stays secret until it is shown)."""
        prompt = ctx.state.prompt
        pid = ctx.state.current
        assert prompt is not None and pid is not None
        ctx.clear_prompt()
        ctx.emit("final_battle_begun", prompt.data["say"], challenger=pid, master=prompt.to[0],
                 rival=card)
        self.ask_fight(ctx)

    def draw_named_item(self, ctx: Ctx[State], card: str) -> None:
        """The Item Card named leaves the pile for the hand; the cards above it stay above,
        and once none is left the cards put under come round."""
        state = ctx.state
        prompt = state.prompt
        assert prompt is not None
        pid, why, count = prompt.to[0], prompt.data["why"], int(prompt.data["count"])
        above = list(self.items_above(state))
        rest = list(state.items_deck[len(above):])
        above.remove(card)
        deck, top = (above + rest, len(above)) if above else (rest, len(rest))
        ctx.clear_prompt()
        cite = prompt.data.get("cite")  # a prompt saved before citations: the rule applied
        name = self.pname(state, pid)
        say = Msg("{why}: {player} draws an Item Card from the real pile.", why=why,
                  player=name) if count == 1 else \
            Msg("{why}: {player} draws an Item Card from the real pile ({n} more to draw).",
                why=why, player=name, n=count - 1)
        ctx.emit("item_card_named", say, player=pid, card=card, deck=deck, top=top, cite=cite)
        if count > 1:
            self.draw_items(ctx, pid, count - 1, why, cite or ctx.cite)

    @declare("event_card", "take_1")
    def event_take_1(self, ctx: Ctx[State], pid: str) -> None:
        self.draw_items(ctx, pid, 1, Msg("Take Item Card 1"), "take-items")
        self.end_turn(ctx)

    @declare("event_card", "take_2")
    def event_take_2(self, ctx: Ctx[State], pid: str) -> None:
        self.draw_items(ctx, pid, 2, Msg("Take Item Card 2"), "take-items")
        self.end_turn(ctx)

    @declare("event_card", "take_3")
    def event_take_3(self, ctx: Ctx[State], pid: str) -> None:
        self.draw_items(ctx, pid, 3, Msg("Take Item Card 3"), "take-items")
        self.end_turn(ctx)

    @declare("event_card", "pokemon_center")
    def event_pokemon_center(self, ctx: Ctx[State], pid: str) -> None:
        """"It's used to revive any knocked-out Pokémon": all of them, or one of the player's
        choice (setting center_card)."""
        out = list(ctx.state.trainer(pid).knocked_out)
        one = readings.chosen("master-trainer", ctx.state.setup.settings, "center_card") == "one"
        if len(out) > 1 and one:
            ctx.ask(REVIVE_CARD, (pid,), Msg("Pokémon Center card: revive one knocked-out "
                                               "Pokémon."))
        elif out:
            self.revive(ctx, pid, out, lambda names: Msg(
                "Pokémon Center card: revives {pokemon}: back to fighting and counting Power "
                "Points.", pokemon=names))
        else:
            ctx.say(Msg("Pokémon Center card: no knocked-out Pokémon to revive."))
        self.end_turn(ctx)

    @declare("event_card", "unknown_dungeon")
    def event_unknown_dungeon(self, ctx: Ctx[State], pid: str) -> None:
        ctx.emit("unknown_dungeon_entered")
        if not self.hidden(ctx.state, "yellow"):
            ctx.say(Msg("Unknown Dungeon: every legendary Pokémon has been caught; the card is "
                        "discarded."))
            self.end_turn(ctx)
            return
        ctx.say(Msg("Unknown Dungeon: fly there, pick one of the face-down legendary chips and "
                    "try to catch it."))
        self.ask_reveal(ctx, "yellow")

    def chance_candidates(self, state: State) -> list[str]:
        """Chips a Chance Card may take: any of the landed colour on the board, or if none is
        left, any chip on the board except yellow."""
        up, down = self.on_board(state, state.landed_colour)
        if up or down:
            return up + down
        out: list[str] = []
        for colour in COLOURS:
            u, d = self.on_board(state, colour)
            out += u + d
        return out

    @declare("event_card", "chance")
    def event_chance(self, ctx: Ctx[State], pid: str) -> None:
        if not self.chance_candidates(ctx.state):
            ctx.say(Msg("Chance: no chip is left on the board; the card is discarded."))
            self.end_turn(ctx)
            return
        ctx.ask(TAKE, (pid,), Msg("Chance: take any {chip} on the board (face up or face "
                                    "down), no roll needed. Tap it or choose it.",
                                    chip=CHIP_WORDS[ctx.state.landed_colour]))

    @cites("chance-card")
    @takes(ChipArgs)
    def cmd_take(self, ctx: Ctx[State], actor: str, args: ChipArgs) -> None:
        """``take [chip]``: the chip a Chance Card lets you take (none: a random face-down one)."""
        allowed = self.chance_candidates(ctx.state)
        raw = args.chip
        if raw in (None, ""):
            down = [c for c in allowed if c not in ctx.state.face_up]
            if not down:
                raise IllegalCommand(Msg("Name the face-up chip you take."))
            chip = down[ctx.draw(len(down))]
        else:
            chip = chip_arg(raw, data_of(ctx.state))
            if chip not in allowed:
                raise IllegalCommand(Msg(
                    "Chance takes a chip of the colour you landed on from the board (any colour "
                    "but yellow when none of that colour is left)."))
        ctx.clear_prompt()
        self.give_chip(ctx, actor, chip,
                       Msg("Chance: {player} takes {pokemon} without a roll",
                           player=self.pname(ctx.state, actor),
                           pokemon=self.chip(ctx.state, chip).name))
        self.end_turn(ctx)
