"""The reading ``rent_collection = ask``: "When someone else lands on your location that you
own, you ask them to pay"; a rent not asked for before the next player rolls is lost."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.editions.mario.values import MarioValues, RentClaim
from companion.editions.table_settings import TableSettings
from companion.engine.commands import Index, takes
from companion.engine.context import Ctx, cites
from companion.engine.event_format import EventData, fact
from companion.engine.i18n import Msg
from companion.engine.registry import prompts, task
from companion.engine.state import Task, evolve
from companion.engine.types import Action, IllegalCommand
from companion.monopoly.board import Space
from companion.monopoly.rules import MonopolyRules
from companion.monopoly.state import MonopolyState, values_of

C = Ctx[MonopolyState]


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


class MarioRentAsked(TableSettings, MonopolyRules):
    """Rents the owner must ask for. Mixed into MarioRules."""

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
    def cmd_ask_rent(self, ctx: C, actor: str, args: AskRentArgs) -> None:
        """Ask for the rent of a landing on your location (before the next player rolls)."""
        claims = self.rent_claims(ctx.state)
        n = args.claim
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
        ctx.ask_again(prompts(type(self))[kind], to, text, data)

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
