"""Exploring a location and the catching die: catch, or pay to re-roll, or stop.

A re-roll costs ``reroll_price`` (1 Poké Ball) paid to the Bank. By default a Trainer who
spends their last Poké Ball on a re-roll has run out and is out of the game before the roll
(their Pokémon are released); the settings ``last_ball_reroll`` and ``zero_balls`` choose the
other readings (docs/readings/pokemon.md). The odds shown are the real chance under them.
"""

from __future__ import annotations

from typing import Any

from companion.editions.pokemon import data
from companion.engine.commands import NoArgs
from companion.engine.context import Ctx, RollAsk, cites
from companion.engine.event_format import EventData, fact
from companion.engine.i18n import Msg
from companion.engine.prompts import CommandPrompt, RollPrompt
from companion.engine.registry import prompt_kind, task
from companion.engine.state import Task, evolve
from companion.engine.types import Action
from companion.monopoly.board import Space
from companion.monopoly.rules import MonopolyRules
from companion.monopoly.state import MonopolyState

C = Ctx[MonopolyState]

EXPLORE = CommandPrompt("explore")
"""Explore (catch) on the space, or battle its owner, or pass."""

CATCH = RollPrompt("catch", then="catch_rolled")
"""Roll the catching die."""

CATCH_MISS = CommandPrompt("catch_miss")
"""The roll missed: pay to re-roll, or stop."""


# -- the events of a catch (applied by the ``on_`` handlers below) -----------------------------
@fact("catch_odds_shown")
class CatchOddsShown(EventData):
    """``player`` is to roll the catching die at ``space`` for a wild Pokémon of type
    ``pokemon_type``, with ``odds``."""

    player: str
    space: int
    pokemon_type: str
    odds: data.Odds


@fact("catch_odds_changed")
class CatchOddsChanged(EventData):
    """The chance left to the Trainer rolling the catching die is now ``odds``."""

    odds: data.Odds


@fact("pokemon_caught")
class PokemonCaught(EventData):
    """Poké Ball: ``player`` caught the wild Pokémon ``chip``; the catch is over."""

    SIGNAL = "catch"

    player: str
    chip: str


@fact("catch_missed")
class CatchMissed(EventData):
    """X: ``player`` caught nothing; a re-roll would have ``odds``."""

    player: str
    odds: data.Odds


@fact("catching_ended")
class CatchingEnded(EventData):
    """``player`` stopped (or could not go on) catching."""

    player: str


def with_values(state: MonopolyState, **changes: Any) -> MonopolyState:
    """``state`` with Pokémon's own values changed."""
    return evolve(state, ext=data.values(state).updated(changes))


class PokemonCatching(MonopolyRules):
    """Explore prompts, the catching die and the re-roll. Mixed into PokemonRules."""

    def on_catch_odds_shown(self, state: MonopolyState, e: CatchOddsShown) -> MonopolyState:
        catch: data.Catch = {"player": e.player, "space": e.space, "type": e.pokemon_type,
                             "odds": e.odds}
        return with_values(state, catch=catch)

    def on_catch_odds_changed(self, state: MonopolyState, e: CatchOddsChanged) -> MonopolyState:
        return with_values(state, catch={**data.catch(state), "odds": e.odds})

    def on_pokemon_caught(self, state: MonopolyState, e: PokemonCaught) -> MonopolyState:
        wild = {t: [c for c in chips if c != e.chip] for t, chips in data.wild(state).items()}
        caught = {**data.all_caught(state), e.player: [*data.caught(state, e.player), e.chip]}
        return with_values(state, wild=wild, caught=caught, catch=None)

    def on_catch_missed(self, state: MonopolyState, e: CatchMissed) -> MonopolyState:
        return with_values(state, catch={**data.catch(state), "odds": e.odds,
                                         "after_reroll": True})

    def on_catching_ended(self, state: MonopolyState, e: CatchingEnded) -> MonopolyState:
        return with_values(state, catch=None)

    def offer_explore(self, ctx: C, pid: str, index: int) -> None:
        """Ask whether to explore (own location) or explore/battle (a rival's)."""
        state = ctx.state
        space = state.b.spaces[index]
        if state.owner(index) == pid and not data.wild_left(state, space.color):
            ctx.emit("noted", Msg("No wild {type}-type Pokémon are left: nothing to catch at "
                                  "{space}.", type=data.type_name(state.b, space.color),
                                  space=space.name), cite="catch-empty")
            return
        text, details = self.explore_question(state, pid, index)
        ctx.ask(EXPLORE, (pid,), text, **details)

    def explore_question(self, state: MonopolyState, pid: str, index: int
                         ) -> tuple[str, dict[str, Any]]:
        """The explore prompt's words and data, from ``state`` (the odds are its real chance)."""
        space = state.b.spaces[index]
        owner = state.owner(index)
        if owner is None or owner == pid:
            odds = data.odds_for(state, pid)
            if not data.wild_left(state, space.color):
                odds = data.no_catch(odds)
            return (Msg("{player}: explore {space} for free? ({odds})", player=state.name(pid),
                        space=space.name, odds=data.odds_text(odds)),
                    {"space": index, "owner": pid, "cost": 0, "odds": odds})
        cost = space.rent
        odds = data.catch_odds(data.values(state).ball_faces, int(state.b.rule("die_faces")),
                               max(0, state.player(pid).money - cost),
                               int(state.b.rule("reroll_price")), data.counts_last(state))
        words = {"player": state.name(pid), "owner": state.name(owner), "space": space.name,
                 "amount": state.cash(cost)}
        if not data.wild_left(state, space.color):
            odds = data.no_catch(odds)
            text = Msg("{player} is on {owner}'s {space}: pay {amount} to explore ({odds}), or "
                       "battle {owner}", odds=data.odds_text(odds), **words)
        else:
            text = Msg("{player} is on {owner}'s {space}: pay {amount} to explore ({odds} after "
                       "paying), or battle {owner}", odds=data.odds_text(odds), **words)
        return text, {"space": index, "owner": owner, "cost": cost, "odds": odds}

    live_prompts = frozenset({EXPLORE.kind, CATCH.kind, CATCH_MISS.kind})
    """Prompts that show the odds: worked out again from the state after any other command
    (a trade or a banker's transfer changes the Poké Balls they count)."""

    def refresh_prompt(self, ctx: C) -> None:
        """The standing explore or catching prompt asked again from the state as it is now,
        so the odds it shows are the real chance (docs/readings/pokemon.md)."""
        prompt = ctx.state.prompt
        assert prompt is not None
        pid, index = prompt.to[0], prompt.data["space"]
        if prompt.kind == EXPLORE.kind:
            text, details = self.explore_question(ctx.state, pid, index)
            ctx.ask(EXPLORE, (pid,), text, **details)
        elif prompt.kind == CATCH.kind:
            self.ask_catch(ctx, pid, index)
        else:
            self.ask_reroll(ctx, pid, index)

    @task("explore_offer")
    def task_explore_offer(self, ctx: C, player: str, space: int) -> None:
        if not ctx.state.player(player).bankrupt and ctx.state.owner(space) == player:
            self.offer_explore(ctx, player, space)

    @prompt_kind(EXPLORE)
    def actions_explore(self, state: MonopolyState) -> list[Action]:
        assert state.prompt is not None
        pid = state.prompt.to[0]
        d = state.prompt.data
        owner = state.owner(d["space"])  # a trade may have changed hands since the prompt
        if owner is None or owner == pid:
            return [Action(pid, "explore", Msg("Explore for free")),
                    Action(pid, "stop", Msg("Do not explore"))]
        return [Action(pid, "explore", Msg("Pay {amount} to explore",
                                           amount=state.cash(d["cost"]))),
                Action(pid, "battle", Msg("Battle {player}", player=state.name(owner)))]

    @cites("explore-cost")
    def cmd_explore(self, ctx: C, actor: str, args: NoArgs) -> None:
        """Explore the location: free on your own, the exploration cost to a rival's owner."""
        assert ctx.state.prompt is not None
        d = ctx.state.prompt.data
        pid, index = actor, d["space"]
        owner = ctx.state.owner(index)  # a trade may have changed hands since the prompt
        ctx.clear_prompt()
        name = ctx.state.b.spaces[index].name
        if owner is not None and owner != pid:
            self.pay(ctx, pid, owner, d["cost"],
                     Msg("{player} pays {owner} {amount} to explore {space} (exploration cost)",
                         player=ctx.state.name(pid), owner=ctx.state.name(owner),
                         amount=ctx.state.cash(d["cost"]), space=name))
        ctx.then(Task("catch_start", {"player": pid, "space": index}))

    @task("catch_start")
    def task_catch_start(self, ctx: C, player: str, space: int) -> None:
        state = ctx.state
        if state.player(player).bankrupt:
            return
        s = state.b.spaces[space]
        if not data.wild_left(state, s.color):
            ctx.emit("noted", Msg("No wild {type}-type Pokémon are left at {space}: nothing to "
                                  "catch.", type=data.type_name(state.b, s.color), space=s.name),
                     cite="catch-empty")
            return
        self.ask_catch(ctx, player, space)

    def ask_catch(self, ctx: C, pid: str, index: int) -> None:
        """Ask for the catching roll, showing the exact odds before it."""
        state = ctx.state
        s: Space = state.b.spaces[index]
        odds = data.odds_for(state, pid)
        k, n = odds["ball_faces"], odds["faces"]
        faces = ["ball"] * k + ["x"] * (n - k)
        catch: data.Catch = {"player": pid, "space": index, "type": s.color, "odds": odds}
        if data.values(state).catch != catch:
            ctx.emit("catch_odds_shown", player=pid, space=index, pokemon_type=s.color,
                     odds=odds)
        hint = Msg("1-{n} Poké Ball", n=k) if k > 1 else Msg("1 Poké Ball")
        if k < n:
            hint = Msg("{balls}, {x}", balls=hint, x=Msg("{first}-{n} X", first=k + 1, n=n)
                       if k + 1 < n else Msg("{n} X", n=n))
        roll = RollAsk(pid, 1, CATCH.then, {"player": pid, "space": index},
                       Msg("Roll the catching die"))
        ctx.ask(CATCH, (pid,), Msg("{player}: roll the catching die at {space} ({odds}; faces "
                                   "{faces})", player=state.name(pid), space=s.name,
                                   odds=data.odds_text(odds), faces=hint),
                roll, odds=odds, faces=faces, space=index, type=s.color)

    @task("catch_rolled")
    @cites("catch")
    def task_catch_rolled(self, ctx: C, player: str, space: int, dice: list[int]) -> None:
        state = ctx.state
        s = state.b.spaces[space]
        kind = data.type_name(state.b, s.color)
        if dice[0] <= data.values(state).ball_faces:
            chip = data.values(state).wild[s.color][0]
            words = {"player": state.name(player), "type": kind, "chip": chip}
            said = Msg("Poké Ball! {player} catches a wild {type}-type Pokémon ({chip}) and "
                       "puts it beside the mat.", **words) \
                if s.color in data.mat_types(state, player) else \
                Msg("Poké Ball! {player} catches a wild {type}-type Pokémon ({chip}) and "
                    "puts it on the mat.", **words)
            ctx.emit("pokemon_caught", said, player=player, chip=chip)
            return
        price = int(state.b.rule("reroll_price"))
        if state.player(player).money < price:
            ctx.emit("catching_ended",
                     Msg("X: {player} catches nothing and has no Poké Ball left to re-roll.",
                         player=state.name(player)), player=player, cite="catch-miss")
            return
        ctx.emit("catch_missed", Msg("X: {player} catches nothing.", player=state.name(player)),
                 player=player, odds=self.reroll_odds(state, player), cite="catch-miss")
        self.ask_reroll(ctx, player, space)

    def reroll_odds(self, state: MonopolyState, player: str) -> data.Odds:
        """The chance left to a Trainer whose roll missed (each re-roll still to pay)."""
        return data.catch_odds(data.values(state).ball_faces, int(state.b.rule("die_faces")),
                               state.player(player).money, int(state.b.rule("reroll_price")),
                               data.counts_last(state), paid=False)

    def ask_reroll(self, ctx: C, player: str, space: int) -> None:
        """Ask whether to pay for a re-roll, showing the chance that is left."""
        state = ctx.state
        price = int(state.b.rule("reroll_price"))
        money = state.player(player).money
        odds = self.reroll_odds(state, player)
        shown = data.values(state).catch
        if shown is not None and shown.get("odds") != odds:
            ctx.emit("catch_odds_changed", odds=odds)
        if money <= price and not self.may_spend_last(state):
            ctx.ask(CATCH_MISS, (player,), Msg("{player}: stop (your last Poké Ball cannot be "
                                                 "spent on a re-roll)", player=state.name(player)),
                    space=space, price=price, odds=odds)
            return
        words = {"player": state.name(player), "amount": state.cash(price),
                 "odds": data.odds_text(odds)}
        if money <= price and self.out_at_zero(state):
            text = Msg("{player}: stop, or pay {amount} to re-roll (your last: you would run out "
                       "and be out of the game before the roll, so this re-roll cannot catch) "
                       "({odds})", **words)
        elif money <= price:
            text = Msg("{player}: stop, or pay {amount} to re-roll (your last Poké Ball) "
                       "({odds})", **words)
        else:
            text = Msg("{player}: stop, or pay {amount} to re-roll ({odds})", **words)
        ctx.ask(CATCH_MISS, (player,), text, space=space, price=price, odds=odds)

    def may_spend_last(self, state: MonopolyState) -> bool:
        return data.reading(state, "last_ball_reroll") == "yes"

    def out_at_zero(self, state: MonopolyState) -> bool:
        return data.reading(state, "zero_balls") == "reroll"

    @prompt_kind(CATCH_MISS)
    def actions_catch_miss(self, state: MonopolyState) -> list[Action]:
        assert state.prompt is not None
        pid = state.prompt.to[0]
        price = state.prompt.data["price"]
        out = [Action(pid, "stop", Msg("Stop: end the turn"))]
        money = state.player(pid).money
        if money > price or (money == price and self.may_spend_last(state)):
            ends = Msg("This is your last Poké Ball: paying it puts you out of the game before "
                       "the roll, and your Pokémon are released.") \
                if money == price and self.out_at_zero(state) else ""
            out.insert(0, Action(pid, "reroll", Msg("Pay {amount} and re-roll",
                                                    amount=state.cash(price)), ends=ends))
        return out

    def refuse_reroll(self, state: MonopolyState, actor: str, args: NoArgs) -> str | None:
        p = state.prompt
        if p is not None and p.kind == CATCH_MISS.kind and actor in p.to:
            money = state.player(actor).money
            if money < p.data["price"]:
                return Msg("A re-roll costs 1 Poké Ball and you have none left.")
            if money == p.data["price"] and not self.may_spend_last(state):
                return Msg("Your last Poké Ball cannot be spent on a re-roll (a setting of this "
                           "game).")
        return None

    @cites("reroll")
    def cmd_reroll(self, ctx: C, actor: str, args: NoArgs) -> None:
        """Pay the re-roll price to the Bank and roll the catching die again."""
        assert ctx.state.prompt is not None
        d = ctx.state.prompt.data
        pid = actor
        ctx.clear_prompt()
        ctx.emit("money_paid",
                 Msg("{player} pays {amount} to re-roll.", player=ctx.state.name(pid),
                     amount=ctx.state.cash(d["price"])),
                 source=pid, to="bank", amount=d["price"])
        if ctx.state.player(pid).money <= 0 and self.out_at_zero(ctx.state):
            ctx.emit("catching_ended",
                     Msg("{player} has run out of Poké Balls and is out of the game.",
                         player=ctx.state.name(pid)), player=pid, cite="out-of-balls")
            self.go_bankrupt(ctx, pid, "bank")
            return
        self.ask_catch(ctx, pid, d["space"])

    def cmd_stop(self, ctx: C, actor: str, args: NoArgs) -> None:
        """Do not explore, or stop re-rolling: the turn goes on to its end."""
        ctx.clear_prompt()
        ctx.emit("catching_ended", Msg("{player} stops.", player=ctx.state.name(actor)),
                 player=actor)
