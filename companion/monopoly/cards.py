"""Card decks and the card vocabulary.

A card's ``effect`` is a small dict from this vocabulary; editions add their own words with
``effect_<do>`` methods. A card nothing here can express uses ``{do = "banker"}``: the banker
resolves it by hand (with a transfer) and the game goes on.

- ``collect {amount}`` / ``pay {amount}`` (to the Bank, or ``to = "pot"``)
- ``collect_from_each {amount}`` / ``pay_each {amount}``
- ``move_to {space, salary = true}``: advance to a space (collect salary when passing GO)
- ``move_by {steps}``: forward or (negative) back, no salary going back
- ``go_to_jail``
- ``keep {use = "jail"}``: keep the card (Get Out of Jail Free)
- ``banker``: the banker applies the card by hand
"""

from __future__ import annotations

from typing import Any

from companion.engine.registry import effect, need, space_kind
from companion.engine.rules import Ctx
from companion.engine.state import Task
from companion.monopoly.board import Card, Space
from companion.monopoly.host import MonopolyHost
from companion.monopoly.state import MonopolyState

C = Ctx[MonopolyState]


class MonopolyCards(MonopolyHost):
    """Drawing cards and applying their effects. Mixed into MonopolyRules."""

    @space_kind("card")
    def land_card(self, ctx: C, pid: str, space: Space) -> None:
        self.draw_card(ctx, pid, space.deck)

    def draw_card(self, ctx: C, pid: str, deck: str) -> None:
        cards = ctx.state.decks[deck]
        if not cards:
            ctx.say(f"The {ctx.state.b.deck_titles[deck]} deck is empty.")
            return
        card = ctx.state.b.card(cards[0])
        rest = cards[1:] if card.keep else (*cards[1:], card.id)
        ctx.emit("deck_changed", f"{ctx.state.name(pid)} draws {ctx.state.b.deck_titles[deck]}: "
                 f"\u201c{card.text}\u201d", deck=deck, cards=list(rest), card=card.id,
                 player=pid)
        self.apply_card(ctx, pid, card)

    def apply_card(self, ctx: C, pid: str, card: Card) -> None:
        effect = dict(card.effect)
        word = effect.pop("do")
        need(self, "effect", word)(ctx, pid, card, **effect)

    @effect("collect")
    def effect_collect(self, ctx: C, pid: str, card: Card, amount: int) -> None:
        self.receive(ctx, pid, amount, f"Card: {ctx.state.name(pid)} collects "
                     f"{ctx.state.fmt(amount)}.")

    @effect("pay")
    def effect_pay(self, ctx: C, pid: str, card: Card, amount: int, to: str = "bank") -> None:
        self.pay(ctx, pid, to, amount, f"Card: {ctx.state.name(pid)} pays {ctx.state.fmt(amount)}")

    @effect("collect_from_each")
    def effect_collect_from_each(self, ctx: C, pid: str, card: Card, amount: int) -> None:
        for p in ctx.state.active:
            if p.id != pid:
                self.pay(ctx, p.id, pid, amount, f"Card: {p.name} pays {ctx.state.name(pid)} "
                         f"{ctx.state.fmt(amount)}")

    @effect("pay_each")
    def effect_pay_each(self, ctx: C, pid: str, card: Card, amount: int) -> None:
        for p in ctx.state.active:
            if p.id != pid:
                self.pay(ctx, pid, p.id, amount, f"Card: {ctx.state.name(pid)} pays {p.name} "
                         f"{ctx.state.fmt(amount)}")

    @effect("move_to")
    def effect_move_to(self, ctx: C, pid: str, card: Card, space: str, salary: bool = True) -> None:
        target = ctx.state.b.find(space).index
        self.move_to(ctx, pid, target, salary)
        ctx.then(Task("land", {"player": pid}))

    @effect("move_by")
    def effect_move_by(self, ctx: C, pid: str, card: Card, steps: int) -> None:
        if steps >= 0:
            ctx.then(Task("move", {"player": pid, "steps": steps}), Task("land", {"player": pid}))
            return
        n = len(ctx.state.b.spaces)
        target = (ctx.state.player(pid).position + steps) % n
        self.move_to(ctx, pid, target, salary=False,
                     why=f"{ctx.state.name(pid)} goes back {-steps} to "
                     f"{ctx.state.b.spaces[target].name}.")
        ctx.then(Task("land", {"player": pid}))

    @effect("go_to_jail")
    def effect_go_to_jail(self, ctx: C, pid: str, card: Card) -> None:
        self.send_to_jail(ctx, pid, f"Card: {ctx.state.name(pid)} goes straight to Jail.")

    @effect("keep")
    def effect_keep(self, ctx: C, pid: str, card: Card, use: str = "jail") -> None:
        ctx.emit("card_kept", f"{ctx.state.name(pid)} keeps the card for later.", player=pid,
                 card=card.id, keep=True)

    @effect("banker")
    def effect_banker(self, ctx: C, pid: str, card: Card, **_: Any) -> None:
        ctx.say("The banker applies this card by hand.")

    def is_jail_card(self, state: MonopolyState, card_id: str) -> bool:
        return bool(state.b.card(card_id).effect.get("use", "jail") == "jail")

    def return_card(self, ctx: C, pid: str, card_id: str) -> None:
        """A used keep-card goes back under its deck."""
        card = ctx.state.b.card(card_id)
        ctx.emit("card_kept", player=pid, card=card_id, keep=False)
        ctx.emit("deck_changed", deck=card.deck, cards=[*ctx.state.decks[card.deck], card_id])
