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

from companion.engine.context import Ctx, cites
from companion.engine.events import ForceDieRolled
from companion.engine.registry import declare, effect, need, space_kind, task
from companion.monopoly.board import Card, Space
from companion.monopoly.host import MonopolyHost
from companion.monopoly.state import MonopolyState

C = Ctx[MonopolyState]

POWERS = {
    1: "Mind Trick: swap one of your properties with another player's",
    2: "Force Stealth: move to any unowned property and take it for free",
    3: "Force Levitate: swap places with any other ship; your turn ends",
    4: "Force Pull: move a player onto one of your properties and collect rent",
    5: "Mind Trick: take ₥50 from each player",
    6: "Force Dash: move to GO and collect ₥200",
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
    def effect_use_the_force(self, ctx: C, pid: str, card: Card) -> None:
        self.use_the_force(ctx, pid)

    def use_the_force(self, ctx: C, pid: str) -> None:
        self.ask_roll(ctx, "force", pid, f"Use the Force! {ctx.state.name(pid)}: roll one die",
                      1, "force_rolled", label="Roll for the Force", player=pid)

    @task("force_rolled")
    @cites("force")
    def task_force_rolled(self, ctx: C, player: str, dice: list[int]) -> None:
        face = dice[0]
        ctx.emit("force_die_rolled",
                 f"The Force: {ctx.state.name(player)} rolled {face}, {POWERS[face]}.",
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
            missing = f"{state.name(pid)} owns no property" if not mine else \
                "no other player owns a property"
            ctx.say(f"Mind Trick: {missing} to swap, no effect.")
            return
        self.ask_choice(ctx, "force_swap_mine", pid, f"{state.name(pid)}: which of your "
                        "properties do you give away?",
                        [(state.b.spaces[i].id, state.b.spaces[i].name) for i in sorted(mine)],
                        "force_swap_take", player=pid)

    @task("force_swap_take")
    def task_force_swap_take(self, ctx: C, player: str, option: str) -> None:
        state = ctx.state
        theirs = sorted(i for p in state.active if p.id != player for i in state.owned_by(p.id))
        self.ask_choice(ctx, "force_swap_theirs", player, f"{state.name(player)}: which property "
                        f"do you take in exchange for {state.b.find(option).name}?",
                        [(state.b.spaces[i].id,
                          f"{state.b.spaces[i].name} ({state.name(state.owner(i) or '')})")
                         for i in theirs],
                        "force_swap", player=player, give=option)

    @task("force_swap")
    @cites("force-mind-trick-swap")
    def task_force_swap(self, ctx: C, player: str, give: str, option: str) -> None:
        state = ctx.state
        mine, theirs = state.b.find(give).index, state.b.find(option).index
        other = state.owner(theirs)
        if other is None or other == player or state.owner(mine) != player:
            ctx.say("Mind Trick: those properties changed hands meanwhile, no effect.")
            return
        self.take_deed(ctx, mine, other, "")
        self.take_deed(ctx, theirs, player, f"Mind Trick: {state.name(player)} swaps "
                       f"{state.b.spaces[mine].name} for {state.name(other)}'s "
                       f"{state.b.spaces[theirs].name}.")
        self.after_gain(ctx, other, mine)
        self.after_gain(ctx, player, theirs)

    # -- 2 Force Stealth ----------------------------------------------------------------
    @declare("force", "2")
    @cites("force-stealth")
    def force_2(self, ctx: C, pid: str) -> None:
        state = ctx.state
        free = [i for i in state.b.ownable if state.owner(i) is None]
        if not free:
            ctx.say("Force Stealth: every property is owned, no effect.")
            return
        if not self.markers_left(state, pid):
            ctx.say(f"Force Stealth: {state.name(pid)} has no property marker left, no effect.")
            return
        self.ask_choice(ctx, "force_stealth", pid, f"{state.name(pid)}: Force Stealth to which "
                        "unowned property?",
                        [(state.b.spaces[i].id, state.b.spaces[i].name) for i in free],
                        "force_stealth", player=pid)

    @task("force_stealth")
    @cites("force-stealth")
    def task_force_stealth(self, ctx: C, player: str, option: str) -> None:
        space = ctx.state.b.find(option)
        self.move_to(ctx, player, space.index, salary=False,
                     why=f"Force Stealth: {ctx.state.name(player)} moves to {space.name} "
                     "(no GO salary).")
        self.take_deed(ctx, space.index, player, f"{ctx.state.name(player)} takes "
                       f"{space.name} for free.")
        self.after_gain(ctx, player, space.index)

    # -- 3 Force Levitate ---------------------------------------------------------------
    @declare("force", "3")
    @cites("force-levitate")
    def force_3(self, ctx: C, pid: str) -> None:
        state = ctx.state
        ships = [p for p in state.active if p.id != pid]
        if not ships:
            ctx.say("Force Levitate: no other ship is on the board, no effect.")
            return
        self.ask_choice(ctx, "force_levitate", pid, f"{state.name(pid)}: swap places with which "
                        "ship?",
                        [(p.id, f"{p.name} on {state.b.spaces[p.position].name}") for p in ships],
                        "force_levitate", player=pid)

    @task("force_levitate")
    @cites("force-levitate")
    def task_force_levitate(self, ctx: C, player: str, option: str) -> None:
        state = ctx.state
        me, other = state.player(player), state.player(option)
        ctx.emit("moved_to", f"Force Levitate: {me.name} and {other.name} swap places "
                 "(no GO salary).", player=me.id, to=other.position)
        ctx.emit("moved_to", player=other.id, to=me.position)
        if me.in_jail != other.in_jail:
            out, into = (other, me) if other.in_jail else (me, other)
            ctx.emit("jail_changed", f"{out.name} leaves Jail; {into.name} is now In Jail.",
                     player=out.id, in_jail=False, tries=0)
            ctx.emit("jail_changed", player=into.id, in_jail=True, tries=0)
        if ctx.state.turn_player.id == player:
            ctx.emit("doubles_counted", f"{me.name}'s turn ends.", count=0, again=False)

    # -- 4 Force Pull -------------------------------------------------------------------
    @declare("force", "4")
    @cites("force-pull")
    def force_4(self, ctx: C, pid: str) -> None:
        state = ctx.state
        mine = state.owned_by(pid)
        others = [p for p in state.active if p.id != pid]
        if not mine or not others:
            ctx.say(f"Force Pull: {state.name(pid)} owns no property to pull anyone onto, "
                    "no effect.")
            return
        self.ask_choice(ctx, "force_pull_who", pid, f"{state.name(pid)}: pull which player?",
                        [(p.id, p.name) for p in others], "force_pull_where", player=pid)

    @task("force_pull_where")
    def task_force_pull_where(self, ctx: C, player: str, option: str) -> None:
        state = ctx.state
        self.ask_choice(ctx, "force_pull_where", player, f"{state.name(player)}: pull "
                        f"{state.name(option)} onto which of your properties?",
                        [(state.b.spaces[i].id, state.b.spaces[i].name)
                         for i in sorted(state.owned_by(player))],
                        "force_pull", player=player, victim=option)

    @task("force_pull")
    @cites("force-pull")
    def task_force_pull(self, ctx: C, player: str, victim: str, option: str) -> None:
        space = ctx.state.b.find(option)
        if ctx.state.owner(space.index) != player:
            ctx.say("Force Pull: the property changed hands meanwhile, no effect.")
            return
        ctx.emit("moved_to", f"Force Pull: {ctx.state.name(player)} pulls {ctx.state.name(victim)} "
                 f"onto {space.name} (no GO salary).", player=victim, to=space.index)
        if ctx.state.player(victim).in_jail:
            ctx.emit("jail_changed", f"{ctx.state.name(victim)} is pulled out of Jail.",
                     player=victim, in_jail=False, tries=0)
        self.charge_rent(ctx, victim, player, space)

    # -- 5 Mind Trick: ₥50 from each ----------------------------------------------------
    @declare("force", "5")
    @cites("force-mind-trick-money")
    def force_5(self, ctx: C, pid: str) -> None:
        amount = self.force_steal
        for p in ctx.state.active:
            if p.id != pid:
                self.pay(ctx, p.id, pid, amount, f"Mind Trick: {p.name} gives "
                         f"{ctx.state.name(pid)} {ctx.state.fmt(amount)}")

    # -- 6 Force Dash -------------------------------------------------------------------
    @declare("force", "6")
    @cites("force-dash")
    def force_6(self, ctx: C, pid: str) -> None:
        self.move_to(ctx, pid, 0, salary=True, why=f"Force Dash: {ctx.state.name(pid)} "
                     "moves directly to GO.")
