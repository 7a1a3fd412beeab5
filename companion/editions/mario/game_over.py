"""GAME OVER: a location Bowser lands on collects no rent until its owner continues it."""

from __future__ import annotations

from companion.editions.mario.values import MarioValues
from companion.engine.commands import takes
from companion.engine.context import Ctx, cites
from companion.engine.event_format import UPCASTERS, EventData, fact, split
from companion.engine.i18n import Msg
from companion.engine.state import evolve
from companion.engine.types import Action
from companion.monopoly.board import Space
from companion.monopoly.debts import SpaceArgs
from companion.monopoly.rules import MonopolyRules
from companion.monopoly.state import MonopolyState, values_of

C = Ctx[MonopolyState]


@fact("game_over_marked")
class GameOverMarked(EventData):
    """Bowser's GAME OVER card lies on (or is lifted from) a location."""

    space: int
    game_over: bool


# The first format's ``deed``: a GAME OVER mark, or the family's owner of a deed.
UPCASTERS["deed"] = split("game_over", "game_over_marked", "deed_owned")



class MarioGameOver(MonopolyRules):
    """The GAME OVER marks and continuing a location. Mixed into MarioRules."""

    def game_over_at(self, state: MonopolyState, index: int) -> bool:
        return index in values_of(state, MarioValues).game_over

    def on_game_over_marked(self, state: MonopolyState, e: GameOverMarked) -> MonopolyState:
        values = values_of(state, MarioValues)
        marks = values.game_over | {e.space} if e.game_over else values.game_over - {e.space}
        return evolve(state, ext=values.updated({"game_over": marks}))

    NO_RENT = Msg("GAME OVER: no rent until it is continued")
    rent_cites = {NO_RENT: "rent-game-over"}

    def rent(self, state: MonopolyState, space: Space, owner: str) -> tuple[int, str]:
        if self.game_over_at(state, space.index):
            return 0, self.NO_RENT
        return super().rent(state, space, owner)

    def turn_actions(self, state: MonopolyState) -> list[Action]:
        """Continue a GAME OVER location (remembered per player for the last board, deeds and
        marks asked about: the same on most turns once a mark lies)."""
        marks = values_of(state, MarioValues).game_over
        if not marks:
            return []
        p = state.turn_player
        price = state.b.rule("continue_price")
        if p.money < price:
            return []
        known = self.__dict__.setdefault("_continues", {})
        last = known.get(p.id)
        if (last is not None and last[0] is state.deeds and last[1] is marks
                and last[2] is state.board):
            return list(last[3])
        out = [
            Action(p.id, "continue_location",
                   Msg("Continue {space} for {amount}", space=state.b.spaces[i].name,
                       amount=state.cash(price)), {"space": i})
            for i in state.owned_by(p.id) if i in marks
        ]
        if len(known) > 8:  # players of other games
            known.clear()
        known[p.id] = (state.deeds, marks, state.board, tuple(out))
        return out

    def refuse_continue_location(self, state: MonopolyState,
                                 actor: str, args: SpaceArgs) -> str | None:
        space = args.space
        if not isinstance(space, int) or state.owner(space) != actor:
            return Msg("You can only continue a location you own.")
        if not self.game_over_at(state, space):
            return Msg("{space} is not in GAME OVER.", space=state.b.spaces[space].name)
        if state.turn_player.id != actor:
            return Msg("Continue your locations at the start of your own turn.")
        return None

    @cites("continue")
    @takes(SpaceArgs)
    def cmd_continue_location(self, ctx: C, actor: str, args: SpaceArgs) -> None:
        """Before rolling, pay 1 coin to bring one of your GAME OVER locations back."""
        index = args.space
        assert isinstance(index, int)  # refuse_continue_location lets only a space through
        price = ctx.state.b.rule("continue_price")
        ctx.emit("money_paid", source=actor, to="bank", amount=price)
        ctx.emit("game_over_marked",
                 Msg("{player} pays {amount} to continue {space}: it collects rent again.",
                     player=ctx.state.name(actor), amount=ctx.state.cash(price),
                     space=ctx.state.b.spaces[index].name),
                 space=index, game_over=False)
