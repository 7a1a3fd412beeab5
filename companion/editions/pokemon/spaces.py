"""Landing: uncontrolled and controlled locations, Lapras, Jail on one die, keep-cards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.engine.context import Ctx, cites
from companion.engine.i18n import Msg
from companion.engine.prompts import ChoicePrompt
from companion.engine.registry import effect, prompt_kind, space_kind, task
from companion.engine.state import Task
from companion.engine.types import Action
from companion.monopoly.board import Card, Space
from companion.monopoly.cards import KeepArgs
from companion.monopoly.market import BUY
from companion.monopoly.rules import MonopolyRules
from companion.monopoly.state import MonopolyState, Player

C = Ctx[MonopolyState]


@dataclass(frozen=True)
class PokemonKeepArgs(KeepArgs):
    """A kept card: for Jail (``use = "jail"``) or a battle, adding ``bonus`` to the roll."""

    bonus: int = 0

LAPRAS = ChoicePrompt("lapras", then="lapras_move")
"""Lapras: ride to a space up to the next Lapras, or stay."""


class PokemonSpaces(MonopolyRules):
    """Locations, Lapras and Jail. Mixed into PokemonRules."""

    if TYPE_CHECKING:
        def offer_explore(self, ctx: C, pid: str, index: int) -> None: ...  # catching.py

    # -- locations ------------------------------------------------------------------------
    @space_kind("location")
    def land_location(self, ctx: C, pid: str, space: Space) -> None:
        """Uncontrolled: take control by paying its cost, or auction it if the Trainer cannot
        afford it. Controlled: explore (or battle the owner)."""
        state = ctx.state
        owner = state.owner(space.index)
        if owner is None:
            p = state.player(pid)
            if p.money >= space.price:
                ctx.ask(BUY, (pid,), Msg("{player}: take control of {space} for {amount}",
                                           player=p.name, space=space.name,
                                           amount=state.cash(space.price)),
                        space=space.index, price=space.price)
            else:
                ctx.say(Msg("{player} cannot afford {space} ({amount}): the Banker auctions it.",
                            player=p.name, space=space.name, amount=state.cash(space.price)))
                self.start_auction(ctx, space.index)
            return
        self.offer_explore(ctx, pid, space.index)

    @prompt_kind(BUY)
    def actions_buy(self, state: MonopolyState) -> list[Action]:
        assert state.prompt is not None
        pid = state.prompt.to[0]
        price = state.prompt.data["price"]
        if state.player(pid).money >= price:
            return [Action(pid, "buy", Msg("Take control for {amount}",
                                           amount=state.cash(price)))]
        return [Action(pid, "auction", Msg("Auction it (you cannot afford it)"))]

    def after_buy(self, ctx: C, pid: str, index: int) -> None:
        """Having taken control of the location, the Trainer may explore it."""
        ctx.then(Task("explore_offer", {"player": pid, "space": index}))

    def rent(self, state: MonopolyState, space: Space, owner: str) -> tuple[int, str]:
        return space.rent, Msg("battle fee (no more for a colour set)")

    # -- Lapras ---------------------------------------------------------------------------
    def lapras_targets(self, state: MonopolyState, index: int) -> list[int]:
        """The spaces after this Lapras, up to and including the next one."""
        n = len(state.b.spaces)
        out = []
        for k in range(1, n):
            i = (index + k) % n
            out.append(i)
            if state.b.spaces[i].kind == "lapras":
                break
        return out

    @space_kind("lapras")
    def land_lapras(self, ctx: C, pid: str, space: Space) -> None:
        state = ctx.state
        options: list[tuple[str, str]] = [("stay", Msg("Stay here"))]
        for i in self.lapras_targets(state, space.index):
            s = state.b.spaces[i]
            options.append((s.id, Msg("Ride to {space} (passing GO)", space=s.name)
                            if i <= space.index else Msg("Ride to {space}", space=s.name)))
        self.ask_choice(ctx, LAPRAS, pid, Msg("Lapras! {player}: ride to any space up to the "
                                                "next Lapras, or stay", player=state.name(pid)),
                        options, player=pid)

    @task("lapras_move")
    @cites("lapras")
    def task_lapras_move(self, ctx: C, player: str, option: str) -> None:
        if option == "stay":
            ctx.say(Msg("{player} stays on Lapras.", player=ctx.state.name(player)))
            return
        target = ctx.state.b.find(option)
        self.move_to(ctx, player, target.index, salary=True,
                     why=Msg("{player} rides Lapras to {space}.",
                             player=ctx.state.name(player), space=target.name))
        if target.kind != "lapras":
            ctx.then(Task("land", {"player": player}))

    # -- Jail on one die ------------------------------------------------------------------
    jail_exit_lands = False
    """A 6 frees the Trainer; that move does not follow the space it ends on."""

    def jail_exit_msg(self, name: str) -> Msg:
        return Msg("{player} rolled a 6 and leaves Jail; the space moved to is not followed "
                   "this time.", player=name)

    def jail_stay_msg(self, name: str, tries: int, allowed: int) -> Msg:
        return Msg("No 6: {player} stays in Jail (try {n} of {tries}).", player=name, n=tries,
                   tries=allowed)

    def rolls_out_of_jail(self, dice: list[int]) -> bool:
        return dice[0] == 6

    def turn_prompt(self, state: MonopolyState, p: Player) -> tuple[str, str]:
        if not p.in_jail:
            return Msg("{player}'s turn: roll the die", player=p.name), Msg("Roll")
        return (Msg("{player} is in Jail (try {n} of 3): pay {amount}, use a Get Out of Jail "
                    "Free card, or roll for a 6", player=p.name, n=p.jail_tries + 1,
                    amount=state.cash(state.b.rule("jail_fine"))), Msg("Roll for a 6"))

    # -- cards ----------------------------------------------------------------------------
    @effect("keep", PokemonKeepArgs)
    def effect_keep(self, ctx: C, pid: str, card: Card, args: KeepArgs) -> None:
        said = (Msg("{player} keeps the card for a battle.", player=ctx.state.name(pid))
                if args.use == "battle" else
                Msg("{player} keeps the card for later.", player=ctx.state.name(pid)))
        ctx.emit("card_kept", said, player=pid, card=card.id, keep=True)
