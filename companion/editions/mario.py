"""Monopoly: The Super Mario Bros. Movie Edition: Bowser, GAME OVER, team battles.

Everything else (buying, auctions, rent, jail, cards, trades, debt) is the shared family.
Bowser moves first on the black die (the second die of each roll), harms players he passes,
puts locations he lands on in GAME OVER, and fights the players he meets (never on Go to Jail:
"immediately put your token into the Jail section"). Readings the banker may choose at setup
(Bowser's rest, rent asked for, early-end ranking, Free Parking pot): docs/readings/mario.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, NotRequired, TypedDict

from companion.editions import readings
from companion.editions.table_settings import TableSettings
from companion.engine.commands import Index, takes
from companion.engine.context import Ctx, cites
from companion.engine.event_format import EventData, fact
from companion.engine.events import WentBankrupt
from companion.engine.registry import effect, space_kind, task
from companion.engine.state import Task, evolve
from companion.engine.types import Action, Command, IllegalCommand
from companion.i18n import Msg, Msgs
from companion.monopoly.board import Card, Space
from companion.monopoly.debts import SpaceArgs
from companion.monopoly.rules import MonopolyRules
from companion.monopoly.state import EditionValues, MonopolyState, values_of

C = Ctx[MonopolyState]


class Bowser(TypedDict):
    """Where Bowser is and whether he moves (kept as the event stores it)."""

    position: int
    """His space index."""
    active: bool
    wake: list[str]
    """Players still to finish a turn before he is active again."""
    since: NotRequired[int]
    """The turn he was knocked back in (reading ``bowser_rest = next_turn``)."""


class RentClaim(TypedDict):
    """A rent an owner may still ask for (reading ``rent_collection = ask``)."""

    payer: str
    owner: str
    space: int
    amount: int
    rule: str
    turn: int
    """The turn it arose in; the next player's roll loses it."""


# -- Mario's events (applied by the ``on_`` handlers of MarioRules) ---------------------------
@fact("game_over_marked")
class GameOverMarked(EventData):
    """Bowser's GAME OVER card lies on (or is lifted from) a location."""

    space: int
    game_over: bool


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


@fact("rent_became_due")
class RentBecameDue(EventData):
    """An owner may ask ``payer`` for a rent until the next player rolls (reading
    ``rent_collection = ask``)."""

    payer: str
    owner: str
    space: int
    amount: int
    rule: str
    turn: int


@fact("rent_asked")
class RentAsked(EventData):
    """The owner asked for the rent standing as number ``claim``."""

    claim: int


@fact("unasked_rent_lost")
class UnaskedRentLost(EventData):
    """The next player rolled: rents that arose before turn ``turn`` are lost."""

    turn: int


@dataclass(frozen=True)
class AskRentArgs:
    """Ask for a rent owed to you (reading ``rent_collection = ask``)."""

    claim: Index | None = None
    """Which rent: its number in the action offered (``args.claim``)."""


class BowserView(TypedDict):
    position: int
    space: str
    active: bool
    waiting_for: list[str]
    """The names of the players still to finish a turn before he is active again."""


class MarioView(TypedDict):
    """Mario's values on the page (``view["extra"]``)."""

    bowser: BowserView


@dataclass(frozen=True)
class MarioValues(EditionValues):
    """Mario's own state."""

    bowser: Bowser
    """Bowser's ``position`` (space index), whether he is ``active``, and who he ``wake``s."""
    game_over: frozenset[int] = frozenset()
    """Locations whose card lies on its GAME OVER side (no rent until continued)."""
    rent_claims: Sequence[RentClaim] = ()
    """Rents an owner may still ask for (reading ``rent_collection = ask``)."""


class MarioRules(TableSettings, MonopolyRules):
    """The Super Mario Bros. Movie Edition."""

    name = "mario"
    title = "Monopoly: The Super Mario Bros. Movie Edition"
    max_players = 6
    setting_names = readings.setting_names("mario")
    settings_info = readings.settings_info("mario")
    """Readings offered to the banker (seeds/mario.toml [[readings]], docs/readings/mario.md)."""

    dice_names = ("red", "black")
    """The two dice as the rulebook names them (two-dice inputs name them); Bowser moves on
    the black."""

    def edition_setup(self, state: MonopolyState) -> MonopolyState:
        state = super().edition_setup(state)
        start = state.b.find(state.b.rule("bowser_start")).index
        bowser: Bowser = {"position": start, "active": True, "wake": []}
        return replace(state, ext=MarioValues(bowser=bowser))

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
        self.run_next(ctx, "bowser_lands")

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
        self.ask_choice(ctx, "teammate", leader,
                        Msg("{player} meets Bowser! Pick a teammate for the battle",
                            player=state.name(leader)),
                        [(p.id, Msg("Team up with {player}", player=p.name)) for p in mates],
                        "battle_team", leader=leader)

    @task("battle_team")
    def task_battle_team(self, ctx: C, leader: str, option: str) -> None:
        ctx.say(Msg("{player} and {other} team up against Bowser.",
                    player=ctx.state.name(leader), other=ctx.state.name(option)))
        self.ask_roll(ctx, "battle", leader, Msg("{player}: roll one die against Bowser",
                                                 player=ctx.state.name(leader)),
                      1, "battle_rolled", label=Msg("Roll against Bowser"), leader=leader,
                      mate=option, first=None)

    @task("battle_rolled")
    def task_battle_rolled(self, ctx: C, leader: str, mate: str, first: int | None,
                           dice: list[int]) -> None:
        state = ctx.state
        if first is None:
            self.ask_roll(ctx, "battle", mate, Msg("{player}: roll one die against Bowser "
                                                   "({other} rolled {n})",
                                                   player=state.name(mate),
                                                   other=state.name(leader), n=dice[0]),
                          1, "battle_rolled", label=Msg("Roll against Bowser"), leader=leader,
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

    # -- GAME OVER and continues ---------------------------------------------------------
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

    def refuse_continue_location(self, state: MonopolyState, command: Command) -> str | None:
        space = command.args.get("space")
        if not isinstance(space, int) or state.owner(space) != command.actor:
            return Msg("You can only continue a location you own.")
        if not self.game_over_at(state, space):
            return Msg("{space} is not in GAME OVER.", space=state.b.spaces[space].name)
        if state.turn_player.id != command.actor:
            return Msg("Continue your locations at the start of your own turn.")
        return None

    @cites("continue")
    @takes(SpaceArgs)
    def cmd_continue_location(self, ctx: C, command: Command) -> None:
        """Before rolling, pay 1 coin to bring one of your GAME OVER locations back."""
        index = command.args["space"]
        price = ctx.state.b.rule("continue_price")
        ctx.emit("money_paid", source=command.actor, to="bank", amount=price)
        ctx.emit("game_over_marked",
                 Msg("{player} pays {amount} to continue {space}: it collects rent again.",
                     player=ctx.state.name(command.actor), amount=ctx.state.cash(price),
                     space=ctx.state.b.spaces[index].name),
                 space=index, game_over=False)

    # -- reading: rent the owner must ask for -------------------------------------------
    @staticmethod
    def rent_claims(state: MonopolyState) -> list[RentClaim]:
        return list(values_of(state, MarioValues).rent_claims)

    def rent_claimed_later(self, ctx: C, pid: str, owner: str, space: Space, amount: int,
                           rule: str) -> bool:
        """"When someone else lands on your location that you own, you ask them to pay": with
        the setting ``rent_collection = ask`` the owner asks (``ask_rent``) before the next
        player rolls, or the rent is lost."""
        if self.reading(ctx.state, "rent_collection") != "ask":
            return False
        ctx.emit("rent_became_due", Msg("{owner} may ask {player} for {amount} for {space} "
                                        "before the next player rolls.",
                                        owner=ctx.state.name(owner), player=ctx.state.name(pid),
                                        amount=ctx.state.cash(amount), space=space.name),
                 payer=pid, owner=owner, space=space.index, amount=amount,
                 rule=str.__str__(rule),  # the rule's English, a message id (shown as Msg)
                 turn=ctx.state.turn_no)
        return True

    def on_rent_became_due(self, state: MonopolyState, e: RentBecameDue) -> MonopolyState:
        claim: RentClaim = {"payer": e.payer, "owner": e.owner, "space": e.space,
                            "amount": e.amount, "rule": e.rule, "turn": e.turn}
        return self.with_claims(state, [*self.rent_claims(state), claim])

    def on_rent_asked(self, state: MonopolyState, e: RentAsked) -> MonopolyState:
        claims = self.rent_claims(state)
        del claims[e.claim]
        return self.with_claims(state, claims)

    def on_unasked_rent_lost(self, state: MonopolyState, e: UnaskedRentLost) -> MonopolyState:
        return self.with_claims(state, [c for c in self.rent_claims(state)
                                        if c["turn"] == e.turn])

    @staticmethod
    def with_claims(state: MonopolyState, claims: list[RentClaim]) -> MonopolyState:
        return evolve(state, ext=values_of(state, MarioValues).updated({"rent_claims": claims}))

    def standing_actions(self, state: MonopolyState) -> list[Action]:
        """The rents owners may ask for, the latest first."""
        if not values_of(state, MarioValues).rent_claims:
            return []
        return [Action(c["owner"], "ask_rent",
                       Msg("Ask {player} for {amount} ({space})", player=state.name(c["payer"]),
                           amount=state.cash(c["amount"]),
                           space=state.b.spaces[c["space"]].name), {"claim": n})
                for n, c in reversed(list(enumerate(self.rent_claims(state))))]

    @cites("rent")
    @takes(AskRentArgs)
    def cmd_ask_rent(self, ctx: C, command: Command) -> None:
        """Ask for the rent of a landing on your location (before the next player rolls)."""
        claims = self.rent_claims(ctx.state)
        n = command.args.get("claim")
        if not isinstance(n, int) or not 0 <= n < len(claims):
            raise IllegalCommand(Msg("There is no such rent to ask for."))
        c = claims[n]
        state = ctx.state
        ctx.emit("rent_asked", claim=n)
        why = Msg("{owner} asks: {player} pays {owner} {amount} for {space} ({rule})",
                  owner=state.name(c["owner"]), player=state.name(c["payer"]),
                  amount=state.cash(c["amount"]), space=state.b.spaces[c["space"]].name,
                  rule=Msg(c["rule"]))
        if state.player(c["payer"]).money >= c["amount"] or state.prompt is None:
            self.task_charge(ctx, c["payer"], c["owner"], c["amount"], why)
            return
        prompt = state.prompt  # the debt is settled first, then the same question again
        ctx.clear_prompt()
        ctx.set_todo([Task("charge", {"payer": c["payer"], "payee": c["owner"],
                                      "amount": c["amount"], "why": why, "cite": "rent"}),
                      Task("ask_again", prompt.to_json()), *ctx.todo])

    @task("ask_again")
    def task_ask_again(self, ctx: C, kind: str, to: list[str], text: str,
                       data: dict[str, Any]) -> None:
        ctx.ask(kind, to, text, **data)

    def turn_rolled(self, ctx: C, dice: list[int]) -> None:
        """The next player rolls: rent not asked for is lost."""
        if not values_of(ctx.state, MarioValues).rent_claims:
            return
        claims = self.rent_claims(ctx.state)
        lost = [c for c in claims if c["turn"] != ctx.state.turn_no]
        if lost:
            owed = [Msg("{player} {amount}", player=ctx.state.name(c["owner"]),
                        amount=ctx.state.cash(c["amount"])) for c in lost]
            ctx.emit("unasked_rent_lost", Msg("Rent not asked for before this roll is lost: "
                                              "{rents}.", rents=owed), turn=ctx.state.turn_no)

    def final_ranking(self, state: MonopolyState) -> tuple[list[str], str]:
        if self.reading(state, "early_end") == "money":
            return self.money_ranking(state)
        return super().final_ranking(state)

    # -- spaces and cards ---------------------------------------------------------------
    @space_kind("super_star")
    def land_super_star(self, ctx: C, pid: str, space: Space) -> None:
        self.ask_roll(ctx, "super_star", pid, Msg("Super Star! {player}: roll one die and "
                                                  "collect that many coins",
                                                  player=ctx.state.name(pid)),
                      1, "super_star", label=Msg("Roll"), player=pid)

    @task("super_star")
    @cites("super-star")
    def task_super_star(self, ctx: C, player: str, dice: list[int]) -> None:
        self.receive(ctx, player, dice[0], Msg("Super Star: {player} rolled {n} and collects "
                                               "{amount}.", player=ctx.state.name(player),
                                               n=dice[0], amount=ctx.state.cash(dice[0])))

    @space_kind("piranha_plant")
    def land_piranha_plant(self, ctx: C, pid: str, space: Space) -> None:
        self.ask_roll(ctx, "piranha_plant", pid, Msg("Piranha Plant! {player}: roll one die "
                                                     "and lose that many coins",
                                                     player=ctx.state.name(pid)),
                      1, "piranha_plant", label=Msg("Roll"), player=pid)

    @task("piranha_plant")
    @cites("piranha-plant")
    def task_piranha_plant(self, ctx: C, player: str, dice: list[int]) -> None:
        self.pay(ctx, player, "bank", dice[0], Msg("Piranha Plant: {player} rolled {n} and "
                                                   "pays {amount}", player=ctx.state.name(player),
                                                   n=dice[0], amount=ctx.state.cash(dice[0])))

    @effect("move_bowser")
    def effect_move_bowser(self, ctx: C, pid: str, card: Card, steps: int) -> None:
        if not self.bowser(ctx.state)["active"]:
            ctx.say(Msg("Bowser is resting beside GO: the card has no effect."))
            return
        ctx.then(Task("bowser_move", {"steps": steps, "why": ctx.state.b.deck_titles.get(
            card.deck, card.deck)}))

    @effect("move_bowser_to")
    def effect_move_bowser_to(self, ctx: C, pid: str, card: Card, space: str) -> None:
        if not self.bowser(ctx.state)["active"]:
            ctx.say(Msg("Bowser is resting beside GO: the card has no effect."))
            return
        target = ctx.state.player(pid).position if space == "here" else ctx.state.b.find(
            space).index
        self.move_bowser_to(ctx, target, Msg("card"))

    @effect("continue_all")
    def effect_continue_all(self, ctx: C, pid: str, card: Card) -> None:
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

    def extra_view(self, state: MonopolyState) -> MarioView:
        b = self.bowser(state)
        return {"bowser": {"position": b["position"], "space": state.b.spaces[b["position"]].name,
                           "active": b["active"],
                           "waiting_for": [state.name(w) for w in b["wake"]]}}
