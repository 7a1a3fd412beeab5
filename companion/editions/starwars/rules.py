"""StarWarsRules: property markers, Hyperspace, Galactic Empire Tax, Bank auctions, the end."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from importlib import resources
from typing import TypedDict

from companion.editions.starwars.force import POWERS, StarWarsForce
from companion.editions.starwars.help import PROMPT_HELP
from companion.editions.starwars.page import PAGE
from companion.editions.table_settings import TableSettings
from companion.engine.commands import NoArgs, takes
from companion.engine.context import Ctx, cites
from companion.engine.event_format import EventData, fact
from companion.engine.i18n import N_, Msg, Msgs
from companion.engine.panels import Block, Panel
from companion.engine.registry import effect, prompt_kind, space_kind
from companion.engine.state import Task, evolve
from companion.engine.types import Action, Command, IllegalCommand
from companion.monopoly.board import Card, Space
from companion.monopoly.debts import DEBT, SpaceArgs
from companion.monopoly.help import FAMILY_HELP
from companion.monopoly.market import BUY, BidArgs
from companion.monopoly.rules import MonopolyRules
from companion.monopoly.state import EditionValues, MonopolyState, values_of
from companion.monopoly.totals import Totals
from companion.monopoly.trades import ProposeTradeArgs, TradeArgs

C = Ctx[MonopolyState]


@dataclass(frozen=True)
class StarWarsValues(EditionValues):
    """Star Wars' own state."""

    bank_auctions: tuple[int, ...] | list[int] = ()
    """Spaces of a ship bankrupt to the Bank still to be auctioned, in order."""


@fact("bank_auctions_queued")
class BankAuctionsQueued(EventData):
    """A ship went bankrupt owing the Bank: its properties ``spaces`` are auctioned at once,
    in this order."""

    spaces: list[int]


@fact("bank_auction_called")
class BankAuctionCalled(EventData):
    """The Bank called the auction of ``space``, the next property in its queue."""

    space: int


class StarWarsView(TypedDict):
    """Star Wars' values on the page (``view["extra"]``)."""

    markers_left: dict[str, int]
    properties_owned: dict[str, int]
    force_powers: dict[str, str]
    """The Force die's face -> its power."""
    bank_auctions: list[str]
    """A bankrupt ship's properties still to be auctioned by the Bank, in order."""


class StarWarsRules(TableSettings, StarWarsForce, MonopolyRules):
    """Monopoly: Star Wars (ship tokens, Use the Force, the most properties wins)."""
    data_folder = resources.files("seeds")  # seeds/<name>.toml and the files beside it
    locales = resources.files("companion.editions.starwars") / "locales"  # its own words

    name = "starwars"
    title = "Monopoly: Star Wars"
    page = PAGE
    max_players = 4
    prompt_help = {**FAMILY_HELP, **PROMPT_HELP}
    move_words = {**MonopolyRules.move_words,
                  "sell_to_creditor": N_("{player}'s sale to a creditor"),
                  }
    effect_words = {
        **MonopolyRules.effect_words,
        "hyperspace": (N_("Jump through hyperspace"), N_("Jump through hyperspace")),
        "use_the_force": (N_("Use the Force"), N_("Use the Force")),
    }
    kind_words = {**MonopolyRules.kind_words, "force": N_("Force"),
                  "hyperspace": N_("Hyperspace")}
    board_totals = Totals(group_size=(2, 4), group_exact={"endor": 3}, fixed=("go",))
    """What the rulebook prints about the board. It gives no count of properties: "16 for
    each ship" limits what one ship may own (the ``markers`` rule, checked when buying), not
    the board (docs/readings/starwars.md)."""
    order_dice = 1
    """Each player rolls one die; the highest roller starts."""
    """Readings offered to the banker (seeds/starwars.toml [[readings]])."""

    # -- property markers -------------------------------------------------------------------
    def edition_setup(self, state: MonopolyState) -> MonopolyState:
        return replace(super().edition_setup(state), ext=StarWarsValues())

    def markers_left(self, state: MonopolyState, pid: str) -> int:
        """Property markers a ship still has in front of it (16 minus properties owned)."""
        return int(state.b.rule("markers", 16)) - len(state.owned_by(pid))

    def no_marker(self, state: MonopolyState, pid: str) -> str:
        return Msg("All {n} of {player}'s property markers are on the board: no more "
                   "properties for that ship.", n=int(state.b.rule("markers", 16)),
                   player=state.name(pid))

    def may_take_space(self, state: MonopolyState, pid: str) -> bool:
        """A ship needs a free property marker to buy, bid or take a property."""
        return self.markers_left(state, pid) > 0

    def refuse_buy(self, state: MonopolyState, actor: str, args: NoArgs) -> str | None:
        if state.prompt is not None and state.prompt.kind == BUY.kind and \
                actor == state.prompt.to[0] and not self.markers_left(state, actor):
            return self.no_marker(state, actor) + " Auction it instead."
        return None

    def refuse_bid(self, state: MonopolyState, actor: str, args: BidArgs) -> str | None:
        if state.auction is not None and actor in {p.id for p in state.active} and \
                not self.markers_left(state, actor):
            return self.no_marker(state, actor)
        return None

    def refuse_propose_trade(self, state: MonopolyState,
                             actor: str, args: ProposeTradeArgs) -> str | None:
        give, take = args.give, args.take
        to = args.to
        if not isinstance(to, str) or to not in {p.id for p in state.active}:
            return None
        return self.trade_markers(state, actor, to, give, take)

    def refuse_accept_trade(self, state: MonopolyState, actor: str, args: TradeArgs) -> str | None:
        for t in state.trades:
            if t.id == args.trade:
                return self.trade_markers(state, t.proposer, t.to, t.give.to_json(),
                                          t.take.to_json())
        return None

    def trade_markers(self, state: MonopolyState, proposer: str, to: str, give: object,
                      take: object) -> str | None:
        """Refuse a trade that would leave a ship with more properties than markers."""
        gives, takes = _count_spaces(give), _count_spaces(take)
        for pid, gain in ((proposer, takes - gives), (to, gives - takes)):
            if gain > self.markers_left(state, pid):
                return self.no_marker(state, pid)
        return None

    # -- spaces -----------------------------------------------------------------------------
    @space_kind("tax")
    @cites("tax")
    def land_tax(self, ctx: C, pid: str, space: Space) -> None:
        self.pay(ctx, pid, "bank", space.amount,
                 Msg("Galactic Empire Tax: {player} pays {amount} to the Bank",
                     player=ctx.state.name(pid), amount=ctx.state.cash(space.amount)))

    @space_kind("hyperspace")
    def land_hyperspace(self, ctx: C, pid: str, space: Space) -> None:
        self.hyperspace(ctx, pid)

    @effect("hyperspace")
    def effect_hyperspace(self, ctx: C, pid: str, card: Card, args: NoArgs) -> None:
        self.hyperspace(ctx, pid)

    @cites("hyperspace")
    def hyperspace(self, ctx: C, pid: str) -> None:
        """Move at once to the next unowned property (GO salary if the jump passes GO)."""
        state = ctx.state
        n = len(state.b.spaces)
        here = state.player(pid).position
        for k in range(1, n):
            space = state.b.spaces[(here + k) % n]
            if space.ownable and state.owner(space.index) is None:
                self.move_to(ctx, pid, space.index, salary=True,
                             why=Msg("Hyperspace: {player} jumps to {space}, the next unowned "
                                     "property.", player=state.name(pid), space=space.name))
                ctx.then(Task("land", {"player": pid}))
                return
        ctx.say(Msg("Hyperspace: no property is unowned, the ship stays."))

    # -- owing a player: sell them your properties at half price ----------------------------
    @prompt_kind(DEBT)
    def actions_debt(self, state: MonopolyState) -> list[Action]:
        """Owing a player: "Sell them your properties to pay off the debt" (not to the Bank)."""
        d = state.debt
        assert d is not None
        if d.creditor in ("bank", "pot"):
            out = super().actions_debt(state)
        else:
            out = []
            if self.markers_left(state, d.creditor) > 0:
                out = [Action(d.player, "sell_to_creditor",
                              Msg("Sell {space} to {player} for {amount}",
                                  space=state.b.spaces[i].name, player=state.name(d.creditor),
                                  amount=state.cash(self.bank_price(state, i))), {"space": i})
                       for i in state.owned_by(d.player)]
            out.append(Action(d.player, "declare_bankruptcy", Msg("Declare bankruptcy")))
        if self.sale_would_pay(state):
            out = [a for a in out if a.type != "declare_bankruptcy"]
        return out

    def sale_would_pay(self, state: MonopolyState) -> str | None:
        """"If you still cannot pay": while selling properties (to the player owed, or to the
        Bank) could pay the debt, the reason bankruptcy is refused; else None. Counted: the
        properties that can be sold now (the creditor's free markers, the change it can pay)."""
        d = state.debt
        if d is None:
            return None
        values = sorted(((self.bank_price(state, i), i) for i in state.owned_by(d.player)),
                        reverse=True)
        if d.creditor not in ("bank", "pot"):
            change = state.player(d.creditor).money
            values = [(v, i) for v, i in values if v - d.amount <= change]
            values = values[:max(self.markers_left(state, d.creditor), 0)]
        if not values or state.player(d.player).money + sum(v for v, _ in values) < d.amount:
            return None
        spaces = [state.b.spaces[i].name for _, i in values]
        if d.creditor in ("bank", "pot"):
            return Msg("{player} must sell first: selling {spaces} to the Bank can pay the "
                       "{amount} owed.", player=state.name(d.player), spaces=spaces,
                       amount=state.cash(d.amount))
        return Msg("{player} must sell first: selling {spaces} to {creditor} can pay the "
                   "{amount} owed.", player=state.name(d.player), spaces=spaces,
                   creditor=state.name(d.creditor), amount=state.cash(d.amount))

    def refuse_declare_bankruptcy(self, state: MonopolyState,
                                  actor: str, args: NoArgs) -> str | None:
        return self.sale_would_pay(state)

    def refuse_sell_to_bank(self, state: MonopolyState, actor: str, args: SpaceArgs) -> str | None:
        d = state.debt
        if d is not None and d.player == actor and d.creditor not in ("bank", "pot"):
            return Msg("Owing {player}: sell them to {player} at half price (or trade), not "
                       "to the Bank.", player=state.name(d.creditor))
        return None

    def refuse_sell_to_creditor(self, state: MonopolyState,
                                actor: str, args: SpaceArgs) -> str | None:
        d = state.debt
        if d is None or d.player != actor or d.creditor in ("bank", "pot"):
            return Msg("Selling to a player is only for paying a debt to that player.")
        if state.owner(args.space) != actor:  # type: ignore[arg-type]
            return Msg("You can only sell a property you own.")
        if not self.markers_left(state, d.creditor):
            return Msg("{why} Propose a trade instead.", why=self.no_marker(state, d.creditor))
        return None

    @cites("sell-to-creditor")
    @takes(SpaceArgs)
    def cmd_sell_to_creditor(self, ctx: C, actor: str, args: SpaceArgs) -> None:
        """Sell one of your properties to the player you owe at half its purchase value; the
        value counts against the debt (the creditor pays any change)."""
        state = ctx.state
        d = state.debt
        space = args.space
        if d is None or not isinstance(space, int) or state.owner(space) != actor:
            raise IllegalCommand(Msg("You can only sell a property you own to the player you "
                                     "owe."))
        value = self.bank_price(state, space)
        left = d.amount - value
        if left < 0 and state.player(d.creditor).money < -left:
            raise IllegalCommand(Msg("{player} cannot pay the {amount} change: propose a "
                                     "trade instead.", player=state.name(d.creditor),
                                     amount=state.cash(-left)))
        self.take_deed(ctx, space, d.creditor, Msg(
            "{player} sells {space} to {other} for {amount} (half its price), counted against "
            "the debt.", player=state.name(d.player), space=state.b.spaces[space].name,
            other=state.name(d.creditor), amount=state.cash(value)))
        self.after_gain(ctx, d.creditor, space)
        if left > 0:
            ctx.emit("debt_owed", player=d.player, creditor=d.creditor, amount=left,
                     reason=d.reason)
            self.settle_debt(ctx)
            return
        ctx.clear_prompt()
        ctx.emit("debt_settled", Msg("{why}: paid.", why=d.reason))
        if left < 0:
            ctx.emit("money_paid", Msg("{player} pays {other} the {amount} difference.",
                                       player=state.name(d.creditor), other=state.name(d.player),
                                       amount=state.cash(-left)), source=d.creditor, to=d.player,
                     amount=-left)

    def interpret_tap(self, state: MonopolyState, obj: str, role: str) -> Command:
        """A location card tapped while owing a player sells it to them."""
        kind, _, name = obj.partition(":")
        if kind == "location":
            for a in self.actions(state):
                if a.type == "sell_to_creditor" and state.b.spaces[a.args["space"]].id == name:
                    return Command(a.actor, a.type, dict(a.args))
        return super().interpret_tap(state, obj, role)

    # -- owing the Bank: properties auctioned at once among the others ----------------------
    def after_bank_bankruptcy(self, ctx: C, pid: str, spaces: tuple[int, ...]) -> None:
        if spaces and len(ctx.state.active) > 1:
            ctx.emit("bank_auctions_queued",
                     Msg("The Bank auctions the bankrupt ship's properties at once."),
                     spaces=sorted(spaces))
            self.next_bank_auction(ctx)

    def next_bank_auction(self, ctx: C) -> None:
        queue = list(values_of(ctx.state, StarWarsValues).bank_auctions)
        if not queue or ctx.state.auction is not None:
            return
        ctx.emit("bank_auction_called", space=queue[0])
        self.start_auction(ctx, queue[0])

    def on_bank_auctions_queued(self, state: MonopolyState,
                                e: BankAuctionsQueued) -> MonopolyState:
        values = values_of(state, StarWarsValues)
        return evolve(state, ext=values.updated({"bank_auctions": list(e.spaces)}))

    def on_bank_auction_called(self, state: MonopolyState, e: BankAuctionCalled) -> MonopolyState:
        values = values_of(state, StarWarsValues)
        return evolve(state, ext=values.updated({"bank_auctions": list(values.bank_auctions)[1:]}))

    def after_auction(self, ctx: C) -> None:
        self.next_bank_auction(ctx)

    # -- the end ----------------------------------------------------------------------------
    def ranking(self, state: MonopolyState) -> tuple[list[str], str]:
        """Most properties wins; money breaks a tie (a tie in both is shared)."""
        def key(pid: str) -> tuple[int, int]:
            return len(state.owned_by(pid)), state.player(pid).money
        best = max(key(p.id) for p in state.active)
        winners = [p.id for p in state.active if key(p.id) == best]
        names = [state.name(w) for w in winners]
        tied = [p.id for p in state.active if key(p.id)[0] == best[0]]
        if len(tied) <= 1:  # the English keeps "properties" after 1, as it always said
            return winners, Msgs("{players} wins with {n} properties.",
                                 "{players} wins with {n} properties.", best[0], players=names)
        money = state.fmt(best[1])  # as the recorded endings write it (₥1959, no grouping)
        if len(winners) == 1:
            return winners, Msgs("{players} wins with {n} properties and {amount} (money breaks "
                                 "the tie).", "{players} wins with {n} properties and {amount} "
                                 "(money breaks the tie).", best[0], players=names, amount=money)
        return winners, Msgs("{players} win with {n} properties and {amount} (money breaks the "
                             "tie).", "{players} win with {n} properties and {amount} (money "
                             "breaks the tie).", best[0], players=names, amount=money)

    def end_cite(self, state: MonopolyState) -> str:
        if all(state.owner(i) is not None for i in state.b.ownable):
            return "end-all-owned"
        return "end-last-ship"

    def ended(self, state: MonopolyState) -> tuple[list[str], str] | None:
        if all(state.owner(i) is not None for i in state.b.ownable):
            winners, why = self.ranking(state)
            return winners, Msg("Every property is owned: the game ends. {why}", why=why)
        return super().ended(state)

    def final_ranking(self, state: MonopolyState) -> tuple[list[str], str]:
        if self.reading(state, "early_end") == "worth":
            return super().final_ranking(state)
        return self.ranking(state)

    # -- front ends -------------------------------------------------------------------------
    def panels(self, state: MonopolyState) -> list[Panel]:
        """Use the Force: the die's powers, each ship's markers and properties, and what the
        Bank still auctions of a bankrupt ship."""
        extra = self.extra_view(state)
        blocks: list[Block] = [
            {"lines": [{"die": face, "text": power} for face, power in POWERS.items()],
             "ordered": True},
            {"heading": Msg("Markers and properties")},
            {"lines": [{"player": p.id, "text": Msg(
                "{player}: {markers}, {properties}", player=p.name,
                markers=Msgs("{n} marker left", "{n} markers left", extra["markers_left"][p.id]),
                properties=Msgs("{n} property", "{n} properties",
                                extra["properties_owned"][p.id]))} for p in state.players]}]
        if extra["bank_auctions"]:
            blocks.append({"text": Msg("The Bank auctions: {spaces}",
                                       spaces=extra["bank_auctions"])})
        return [{"title": Msg("Use the Force"), "blocks": blocks}]

    def extra_view(self, state: MonopolyState) -> StarWarsView:
        return {
            "markers_left": {p.id: self.markers_left(state, p.id) for p in state.players},
            "properties_owned": {p.id: len(state.owned_by(p.id)) for p in state.players},
            "force_powers": {str(k): v for k, v in POWERS.items()},
            "bank_auctions": [state.b.spaces[i].name
                              for i in values_of(state, StarWarsValues).bank_auctions],
        }


def _count_spaces(side: object) -> int:
    if not isinstance(side, Mapping):
        return 0
    spaces = side.get("spaces", [])
    return len(spaces) if isinstance(spaces, list) else 0
