"""Use the Force: roll one die and use the power it names (the board's centre table).

1 Mind Trick (swap properties), 2 Force Stealth (take any unowned property free), 3 Force
Levitate (swap places with a ship, the turn ends), 4 Force Pull (pull a player onto your property
for rent), 5 Mind Trick (take ₥50 from each player), 6 Force Dash (to GO, collect ₥200).

Table decisions the rulebook leaves open (documented in tests/starwars):
- a power that cannot be used (no property to swap, nothing unowned, no ship to swap with) is
  lost, and the companion says what was missing: the turn goes on;
- a ship in Jail is "on the board": Force Levitate swaps with it (the ships swap places and
  Jail status: the levitating ship is then In Jail), Force Pull pulls it out of Jail onto the
  property to pay rent (docs/readings/starwars.md);
- a token moved by a power never collects GO salary, except Force Dash (it lands on GO);
- Force Stealth needs a free property marker, like buying.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands import NoArgs
from companion.engine.context import Ctx, cites
from companion.engine.event_format import UPCASTERS, EventData, fact, split
from companion.engine.i18n import Msg
from companion.engine.prompts import ChoicePrompt, RollPrompt
from companion.engine.registry import declare, effect, need, space_kind, task
from companion.monopoly.board import Card, Space
from companion.monopoly.host import MonopolyHost
from companion.monopoly.state import MonopolyState

C = Ctx[MonopolyState]

FORCE = RollPrompt("force", then="force_rolled")
"""Use the Force: roll one die."""

FORCE_SWAP_MINE = ChoicePrompt("force_swap_mine", then="force_swap_take")
"""Force Swap: the property given away."""

FORCE_SWAP_THEIRS = ChoicePrompt("force_swap_theirs", then="force_swap")
"""Force Swap: the property taken in exchange."""

FORCE_STEALTH = ChoicePrompt("force_stealth", then="force_stealth")
"""Force Stealth: the unowned property to take."""

FORCE_LEVITATE = ChoicePrompt("force_levitate", then="force_levitate")
"""Force Levitate: the ship to swap places with."""

FORCE_PULL_WHO = ChoicePrompt("force_pull_who", then="force_pull_where")
"""Force Pull: the player pulled."""

FORCE_PULL_WHERE = ChoicePrompt("force_pull_where", then="force_pull")
"""Force Pull: the property they are pulled onto."""


@fact("force_die_rolled")
class ForceDieRolled(EventData):
    """The Force die shows ``face`` for ``player``."""

    face: int
    player: str


# The first format's ``note``: a Force die's face, or the family's note.
UPCASTERS["note"] = split("face", "force_die_rolled", "noted")


POWERS = {
    1: Msg("Mind Trick: swap one of your properties with another player's"),
    2: Msg("Force Stealth: move to any unowned property and take it for free"),
    3: Msg("Force Levitate: swap places with any other ship; your turn ends"),
    4: Msg("Force Pull: move a player onto one of your properties and collect rent"),
    5: Msg("Mind Trick: take ₥50 from each player"),
    6: Msg("Force Dash: move to GO and collect ₥200"),
}


class StarWarsForce(MonopolyHost):
    """The Use the Force space. Mixed into StarWarsRules (needs MonopolyRules' helpers)."""

    if TYPE_CHECKING:
        def markers_left(self, state: MonopolyState, pid: str) -> int: ...  # rules.py

    force_steal = 50

    @space_kind("force")
    def land_force(self, ctx: C, pid: str, space: Space) -> None:
        self.use_the_force(ctx, pid)

    @effect("use_the_force")
    def effect_use_the_force(self, ctx: C, pid: str, card: Card, args: NoArgs) -> None:
        self.use_the_force(ctx, pid)

    def use_the_force(self, ctx: C, pid: str) -> None:
        self.ask_roll(ctx, FORCE, pid, Msg("Use the Force! {player}: roll one die",
                                                     player=ctx.state.name(pid)),
                      1, label=Msg("Roll for the Force"), player=pid)

    @task("force_rolled")
    @cites("force")
    def task_force_rolled(self, ctx: C, player: str, dice: list[int]) -> None:
        face = dice[0]
        ctx.emit("force_die_rolled",
                 Msg("The Force: {player} rolled {n}, {power}.", player=ctx.state.name(player),
                     n=face, power=POWERS[face]),
                 face=face, player=player)
        need(self, "force", str(face))(ctx, player)

    def on_force_die_rolled(self, state: MonopolyState, e: ForceDieRolled) -> MonopolyState:
        return state

    # -- 1 Mind Trick: swap -------------------------------------------------------------
    @declare("force", "1")
    @cites("force-mind-trick-swap")
    def force_1(self, ctx: C, pid: str) -> None:
        state = ctx.state
        mine = state.owned_by(pid)
        theirs = [i for p in state.active if p.id != pid for i in state.owned_by(p.id)]
        if not mine or not theirs:
            ctx.say(Msg("Mind Trick: {player} owns no property to swap, no effect.",
                        player=state.name(pid)) if not mine else
                    Msg("Mind Trick: no other player owns a property to swap, no effect."))
            return
        self.ask_choice(ctx, FORCE_SWAP_MINE, pid,
                        Msg("{player}: which of your properties do you give away?",
                            player=state.name(pid)),
                        [(state.b.spaces[i].id, state.b.spaces[i].name) for i in sorted(mine)],
                        player=pid)

    @task("force_swap_take")
    def task_force_swap_take(self, ctx: C, player: str, option: str) -> None:
        state = ctx.state
        theirs = sorted(i for p in state.active if p.id != player for i in state.owned_by(p.id))
        self.ask_choice(ctx, FORCE_SWAP_THEIRS, player,
                        Msg("{player}: which property do you take in exchange for {space}?",
                            player=state.name(player), space=state.b.find(option).name),
                        [(state.b.spaces[i].id,
                          Msg("{space} ({player})", space=state.b.spaces[i].name,
                              player=state.name(state.owner(i) or "")))
                         for i in theirs],
                        player=player, give=option)

    @task("force_swap")
    @cites("force-mind-trick-swap")
    def task_force_swap(self, ctx: C, player: str, give: str, option: str) -> None:
        state = ctx.state
        mine, theirs = state.b.find(give).index, state.b.find(option).index
        other = state.owner(theirs)
        if other is None or other == player or state.owner(mine) != player:
            ctx.say(Msg("Mind Trick: those properties changed hands meanwhile, no effect."))
            return
        self.take_deed(ctx, mine, other, "")
        self.take_deed(ctx, theirs, player, Msg("Mind Trick: {player} swaps {space} for {other}'s "
                                                   "{theirs}.", player=state.name(player),
                                                   space=state.b.spaces[mine].name,
                                                   other=state.name(other),
                                                   theirs=state.b.spaces[theirs].name))
        self.after_gain(ctx, other, mine)
        self.after_gain(ctx, player, theirs)

    # -- 2 Force Stealth ----------------------------------------------------------------
    @declare("force", "2")
    @cites("force-stealth")
    def force_2(self, ctx: C, pid: str) -> None:
        state = ctx.state
        free = [i for i in state.b.ownable if state.owner(i) is None]
        if not free:
            ctx.say(Msg("Force Stealth: every property is owned, no effect."))
            return
        if not self.markers_left(state, pid):
            ctx.say(Msg("Force Stealth: {player} has no property marker left, no effect.",
                        player=state.name(pid)))
            return
        self.ask_choice(ctx, FORCE_STEALTH, pid, Msg("{player}: Force Stealth to which unowned "
                                                        "property?", player=state.name(pid)),
                        [(state.b.spaces[i].id, state.b.spaces[i].name) for i in free],
                        player=pid)

    @task("force_stealth")
    @cites("force-stealth")
    def task_force_stealth(self, ctx: C, player: str, option: str) -> None:
        space = ctx.state.b.find(option)
        self.move_to(ctx, player, space.index, salary=False,
                     why=Msg("Force Stealth: {player} moves to {space} (no GO salary).",
                             player=ctx.state.name(player), space=space.name))
        self.take_deed(ctx, space.index, player, Msg("{player} takes {space} for free.",
                                                     player=ctx.state.name(player),
                                                     space=space.name))
        self.after_gain(ctx, player, space.index)

    # -- 3 Force Levitate ---------------------------------------------------------------
    @declare("force", "3")
    @cites("force-levitate")
    def force_3(self, ctx: C, pid: str) -> None:
        state = ctx.state
        ships = [p for p in state.active if p.id != pid]
        if not ships:
            ctx.say(Msg("Force Levitate: no other ship is on the board, no effect."))
            return
        self.ask_choice(ctx, FORCE_LEVITATE, pid, Msg("{player}: swap places with which ship?",
                                                          player=state.name(pid)),
                        [(p.id, Msg("{player} on {space}", player=p.name,
                                    space=state.b.spaces[p.position].name)) for p in ships],
                        player=pid)

    @task("force_levitate")
    @cites("force-levitate")
    def task_force_levitate(self, ctx: C, player: str, option: str) -> None:
        state = ctx.state
        me, other = state.player(player), state.player(option)
        ctx.emit("moved_to", Msg("Force Levitate: {player} and {other} swap places "
                                 "(no GO salary).", player=me.name, other=other.name),
                 player=me.id, to=other.position)
        ctx.emit("moved_to", player=other.id, to=me.position)
        if me.in_jail != other.in_jail:
            out, into = (other, me) if other.in_jail else (me, other)
            ctx.emit("left_jail", Msg("{player} leaves Jail; {other} is now In Jail.",
                                      player=out.name, other=into.name), player=out.id)
            ctx.emit("went_to_jail", player=into.id)
        if ctx.state.turn_player.id == player:
            ctx.emit("doubles_counted", Msg("{player}'s turn ends.", player=me.name), count=0,
                     again=False)

    # -- 4 Force Pull -------------------------------------------------------------------
    @declare("force", "4")
    @cites("force-pull")
    def force_4(self, ctx: C, pid: str) -> None:
        state = ctx.state
        mine = state.owned_by(pid)
        others = [p for p in state.active if p.id != pid]
        if not mine or not others:
            ctx.say(Msg("Force Pull: {player} owns no property to pull anyone onto, no effect.",
                        player=state.name(pid)))
            return
        self.ask_choice(ctx, FORCE_PULL_WHO, pid, Msg("{player}: pull which player?",
                                                          player=state.name(pid)),
                        [(p.id, p.name) for p in others], player=pid)

    @task("force_pull_where")
    def task_force_pull_where(self, ctx: C, player: str, option: str) -> None:
        state = ctx.state
        self.ask_choice(ctx, FORCE_PULL_WHERE, player,
                        Msg("{player}: pull {other} onto which of your properties?",
                            player=state.name(player), other=state.name(option)),
                        [(state.b.spaces[i].id, state.b.spaces[i].name)
                         for i in sorted(state.owned_by(player))],
                        player=player, victim=option)

    @task("force_pull")
    @cites("force-pull")
    def task_force_pull(self, ctx: C, player: str, victim: str, option: str) -> None:
        space = ctx.state.b.find(option)
        if ctx.state.owner(space.index) != player:
            ctx.say(Msg("Force Pull: the property changed hands meanwhile, no effect."))
            return
        ctx.emit("moved_to", Msg("Force Pull: {player} pulls {other} onto {space} (no GO salary).",
                                 player=ctx.state.name(player), other=ctx.state.name(victim),
                                 space=space.name), player=victim, to=space.index)
        if ctx.state.player(victim).in_jail:
            ctx.emit("left_jail", Msg("{player} is pulled out of Jail.",
                                      player=ctx.state.name(victim)), player=victim)
        self.charge_rent(ctx, victim, player, space)

    # -- 5 Mind Trick: ₥50 from each ----------------------------------------------------
    @declare("force", "5")
    @cites("force-mind-trick-money")
    def force_5(self, ctx: C, pid: str) -> None:
        amount = self.force_steal
        for p in ctx.state.active:
            if p.id != pid:
                self.pay(ctx, p.id, pid, amount, Msg("Mind Trick: {player} gives {other} {amount}",
                                                       player=p.name, other=ctx.state.name(pid),
                                                       amount=ctx.state.cash(amount)))

    # -- 6 Force Dash -------------------------------------------------------------------
    @declare("force", "6")
    @cites("force-dash")
    def force_6(self, ctx: C, pid: str) -> None:
        self.move_to(ctx, pid, 0, salary=True, why=Msg("Force Dash: {player} moves directly to GO.",
                                                       player=ctx.state.name(pid)))
