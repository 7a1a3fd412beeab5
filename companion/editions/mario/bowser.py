"""Bowser: he moves first on the black die, harms players he passes, puts locations he
lands on in GAME OVER, and fights the players he meets in a team battle."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.editions.mario.game_over import MarioGameOver
from companion.editions.mario.values import Bowser, MarioValues
from companion.editions.table_settings import TableSettings
from companion.engine.context import Ctx, cites
from companion.engine.event_format import EventData, fact
from companion.engine.i18n import Msg, Msgs
from companion.engine.prompts import ChoicePrompt, RollPrompt
from companion.engine.registry import effect, task
from companion.engine.state import Task, evolve
from companion.monopoly.board import Card
from companion.monopoly.cards import StepsArgs
from companion.monopoly.state import MonopolyState, values_of

C = Ctx[MonopolyState]


@dataclass(frozen=True)
class BowserToArgs:
    """A card that sends Bowser to ``space`` (``"here"``: where the card was drawn)."""

    space: str

TEAMMATE = ChoicePrompt("teammate", then="battle_team")
"""A player meeting Bowser picks a teammate."""

BATTLE = RollPrompt("battle", then="battle_rolled")
"""The leader, then the teammate, roll one die against Bowser."""


# -- Bowser's events (applied by the ``on_`` handlers below) ------------------------------------
@fact("bowser_moved")
class BowserMoved(EventData):
    """Bowser moved (on the black die) or jumped (a card) to space ``to``."""

    to: int


@fact("bowser_beaten")
class BowserBeaten(EventData):
    """A team beat Bowser: knocked back beside GO, he rests until every player in ``wake``
    has finished a turn (after turn ``since``, reading ``bowser_rest = next_turn``)."""

    wake: list[str]
    since: int | None = None


@fact("bowser_rest_counted")
class BowserRestCounted(EventData):
    """A player finished a turn while Bowser rests: ``wake`` are those still to finish one."""

    wake: list[str]


@fact("bowser_woke")
class BowserWoke(EventData):
    """Every player has finished a turn: Bowser is active again on GO."""


class MarioBowser(TableSettings, MarioGameOver):
    """Bowser, his team battles and his cards. Mixed into MarioRules."""

    # -- Bowser -----------------------------------------------------------------------------
    @staticmethod
    def bowser(state: MonopolyState) -> Bowser:
        return values_of(state, MarioValues).bowser

    @staticmethod
    def with_bowser(state: MonopolyState, **changes: Any) -> MonopolyState:
        values = values_of(state, MarioValues)
        return evolve(state, ext=values.updated({"bowser": {**values.bowser, **changes}}))

    def on_bowser_moved(self, state: MonopolyState, e: BowserMoved) -> MonopolyState:
        return self.with_bowser(state, position=e.to)

    def on_bowser_beaten(self, state: MonopolyState, e: BowserBeaten) -> MonopolyState:
        since = {} if e.since is None else {"since": e.since}
        return self.with_bowser(state, position=0, active=False, wake=list(e.wake), **since)

    def on_bowser_rest_counted(self, state: MonopolyState,
                               e: BowserRestCounted) -> MonopolyState:
        return self.with_bowser(state, wake=list(e.wake))

    def on_bowser_woke(self, state: MonopolyState, e: BowserWoke) -> MonopolyState:
        return self.with_bowser(state, active=True, wake=[], position=0)

    def before_move(self, ctx: C, dice: list[int]) -> list[Task]:
        """Bowser moves first, on the black die, while he is active."""
        if not self.bowser(ctx.state)["active"]:
            ctx.say(Msg("Bowser rests beside GO and does not move."))
            return []
        return [Task("bowser_move", {"steps": dice[1],
                                     "why": Msg("black die {n}", n=dice[1])})]

    def exposed(self, state: MonopolyState, index: int) -> list[str]:
        """Players Bowser can harm on a space: not in Jail, not on Free Parking."""
        if state.b.spaces[index].kind == "free_parking":
            return []
        for p in state.players:  # a loop, not all(...): no generator per call
            if p.position == index:
                break
        else:
            return []
        order = [state.players[(state.current + k) % len(state.players)]
                 for k in range(len(state.players))]
        return [p.id for p in order if p.position == index and not p.in_jail and not p.bankrupt]

    @task("bowser_move")
    @cites("bowser-move")
    def task_bowser_move(self, ctx: C, steps: int, why: str) -> None:
        state = ctx.state
        n = len(state.b.spaces)
        start = self.bowser(state)["position"]
        passed = [(start + k) % n for k in range(1, steps)]
        target = (start + steps) % n
        ctx.emit("bowser_moved", Msgs("Bowser moves {n} ({why}) to {space}.",
                                      "Bowser moves {n} ({why}) to {space}.", steps, why=why,
                                      space=state.b.spaces[target].name), to=target)
        toll = state.b.rule("bowser_toll")
        occupied = {p.position for p in state.players}  # tolls move no token
        for index in passed:
            if index not in occupied:
                continue
            for pid in self.exposed(ctx.state, index):
                self.pay(ctx, pid, "bank", toll,
                         Msg("Bowser passed {player}: {player} pays {amount}",
                             player=state.name(pid), amount=state.cash(toll)),
                         cite="bowser-toll")
        ctx.then(Task("bowser_lands"))

    @task("bowser_lands")
    @cites("game-over")
    def task_bowser_lands(self, ctx: C) -> None:
        state = ctx.state
        index = self.bowser(state)["position"]
        space = state.b.spaces[index]
        if space.ownable:
            owner = state.deeds[index].owner
            if self.game_over_at(state, index):
                ctx.say(Msg("{space} is already GAME OVER.", space=space.name))
            elif owner is not None and state.has_set(owner, space.color):
                ctx.emit("noted", Msg("Bowser lands on {space}, but {owner}'s complete colour "
                                      "set protects it.", space=space.name,
                                      owner=state.name(owner)), cite="set-protects")
            else:
                ctx.emit("game_over_marked",
                         Msg("Bowser lands on {space}: GAME OVER, no rent until its owner "
                             "continues it.", space=space.name), space=index, game_over=True)
        for pid in self.exposed(ctx.state, index):
            ctx.then(Task("battle", {"leader": pid}))

    def move_bowser_to(self, ctx: C, target: int, why: str) -> None:
        """Bowser jumps to a space (a card): no toll on the way, the landing counts."""
        ctx.emit("bowser_moved", Msg("Bowser jumps to {space} ({why}).",
                                     space=ctx.state.b.spaces[target].name, why=why), to=target)
        ctx.then(Task("bowser_lands", {}))

    # -- team battles -------------------------------------------------------------------
    @task("battle")
    def task_battle(self, ctx: C, leader: str) -> None:
        state = ctx.state
        b = self.bowser(state)
        if not b["active"] or state.player(leader).bankrupt or state.player(leader).in_jail:
            return
        mates = [p for p in state.active if p.id != leader]
        if not mates:
            return
        self.ask_choice(ctx, TEAMMATE, leader,
                        Msg("{player} meets Bowser! Pick a teammate for the battle",
                            player=state.name(leader)),
                        [(p.id, Msg("Team up with {player}", player=p.name)) for p in mates],
                        leader=leader)

    @task("battle_team")
    def task_battle_team(self, ctx: C, leader: str, option: str) -> None:
        ctx.say(Msg("{player} and {other} team up against Bowser.",
                    player=ctx.state.name(leader), other=ctx.state.name(option)))
        self.ask_roll(ctx, BATTLE, leader, Msg("{player}: roll one die against Bowser",
                                                 player=ctx.state.name(leader)),
                      1, label=Msg("Roll against Bowser"), leader=leader,
                      mate=option, first=None)

    @task("battle_rolled")
    def task_battle_rolled(self, ctx: C, leader: str, mate: str, first: int | None,
                           dice: list[int]) -> None:
        state = ctx.state
        if first is None:
            self.ask_roll(ctx, BATTLE, mate, Msg("{player}: roll one die against Bowser "
                                                   "({other} rolled {n})",
                                                   player=state.name(mate),
                                                   other=state.name(leader), n=dice[0]),
                          1, label=Msg("Roll against Bowser"), leader=leader,
                          mate=mate, first=dice[0])
            return
        total = first + dice[0]
        need = state.b.rule("battle_win")
        if total >= need:
            reward = state.b.rule("battle_reward")
            for pid in (leader, mate):
                self.receive(ctx, pid, reward, Msg("The team rolled {n} ({need} or more) and "
                                                   "beats Bowser: {player} collects {amount}.",
                                                   n=total, need=need, player=state.name(pid),
                                                   amount=state.cash(reward)),
                             cite="battle-win")
            wake = [p.id for p in ctx.state.active]
            if self.reading(state, "bowser_rest") == "next_turn":
                ctx.emit("bowser_beaten", Msg("Bowser is knocked back beside GO and rests "
                                              "until every player has finished their next "
                                              "turn."), wake=wake, since=ctx.state.turn_no)
            else:
                ctx.emit("bowser_beaten", Msg("Bowser is knocked back beside GO and rests "
                                              "until every player has finished a turn."),
                         wake=wake)
        else:
            self.send_to_jail(ctx, leader, Msg("The team rolled only {n}: Bowser wins and "
                                               "{player}, the leader, goes to Jail.", n=total,
                                               player=state.name(leader)),
                              cite="battle-lose")

    def on_turn_end(self, ctx: C, pid: str) -> None:
        b = self.bowser(ctx.state)
        if b["active"] or b.get("since") == ctx.state.turn_no:
            return
        wake = [w for w in b["wake"] if w != pid and not ctx.state.player(w).bankrupt]
        if wake:
            ctx.emit("bowser_rest_counted", wake=wake)
        else:
            ctx.emit("bowser_woke", Msg("Every player has finished a turn: Bowser is active "
                                        "again on GO."))

    def before_landing(self, ctx: C, pid: str) -> list[Task]:
        """A player landing on Bowser fights him first (not on Free Parking, not in Jail, not
        on Go to Jail: "immediately put your token into the Jail section")."""
        b = self.bowser(ctx.state)
        p = ctx.state.player(pid)
        if ctx.state.b.spaces[p.position].kind == "go_to_jail":
            return []
        if b["active"] and b["position"] == p.position and pid in self.exposed(ctx.state,
                                                                                p.position):
            return [Task("battle", {"leader": pid})]
        return []

    # -- Bowser's cards ----------------------------------------------------------------
    @effect("move_bowser", StepsArgs)
    def effect_move_bowser(self, ctx: C, pid: str, card: Card, args: StepsArgs) -> None:
        steps = args.steps
        if not self.bowser(ctx.state)["active"]:
            ctx.say(Msg("Bowser is resting beside GO: the card has no effect."))
            return
        ctx.then(Task("bowser_move", {"steps": steps, "why": ctx.state.b.deck_titles.get(
            card.deck, card.deck)}))

    @effect("move_bowser_to", BowserToArgs)
    def effect_move_bowser_to(self, ctx: C, pid: str, card: Card, args: BowserToArgs) -> None:
        space = args.space
        if not self.bowser(ctx.state)["active"]:
            ctx.say(Msg("Bowser is resting beside GO: the card has no effect."))
            return
        target = ctx.state.player(pid).position if space == "here" else ctx.state.b.find(
            space).index
        self.move_bowser_to(ctx, target, Msg("card"))
