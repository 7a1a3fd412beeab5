"""Card decks and the card vocabulary.

A card's ``effect`` is a small dict from this vocabulary; editions add their own words with
``effect_<do>`` methods. A card nothing here can express uses ``{do = "banker"}``: the banker
resolves it by hand (with a transfer) and the game goes on.

- ``collect {amount}`` / ``pay {amount}`` (to the Bank, or ``to = "pot"``)
- ``collect_from_each {amount}`` / ``pay_each {amount}``
- ``move_to {space, salary = true}``: advance to a space (collect salary when passing GO)
- ``move_to_nearest {kind, salary = true}``: advance to the nearest space of a kind ahead
- ``move_by {steps}``: forward or (negative) back, no salary going back
- ``go_to_jail``
- ``keep {use = "jail"}``: keep the card (Get Out of Jail Free)
- ``banker``: the banker applies the card by hand

With ``decks = "physical"`` (a setting) players draw from the real deck: the game asks which
card was drawn (a ``draw`` prompt listing the cards that can come now; answered by a ``draw``
command with ``card=<id>`` or by tapping the card's tag) and follows that card. Kept cards are
out of the pile; used cards go under it and come round only after the cards above them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from companion.engine.commands import NoArgs, Small, takes
from companion.engine.context import Ctx
from companion.engine.events import CardDrawn
from companion.engine.i18n import Msg
from companion.engine.prompts import CommandPrompt
from companion.engine.registry import effect, effect_args_type, need, prompt_kind, space_kind
from companion.engine.state import Task, evolve
from companion.engine.types import Action, IllegalCommand
from companion.monopoly.board import Card, Space
from companion.monopoly.host import MonopolyHost
from companion.monopoly.state import MonopolyState

C = Ctx[MonopolyState]

DRAW = CommandPrompt("draw")
"""Name the card drawn from the real deck (``draw``)."""


@dataclass(frozen=True)
class DrawArgs:
    """Name the card drawn from the real pile (physical decks)."""

    card: Small = None
    """The card's id."""


class DeckPolicy(Protocol):
    """Policy: how a deck is drawn from and where a used card goes, when an edition's decks
    differ from the family's (used cards go under the pile): Monopolino's discard pile."""

    def draw(self, rules: MonopolyCards, ctx: C, pid: str, deck: str) -> None:
        """``pid`` draws from ``deck`` (or is asked which real card they drew)."""

    def drew(self, rules: MonopolyCards, ctx: C, pid: str, deck: str, card_id: str) -> None:
        """``pid`` drew ``card_id`` from ``deck``: take it off the deck and follow it."""

    used_where: str
    """Where a used card lies, completing "“…” is ..." (a card asked for that cannot come up)."""


# -- the arguments of the card effects below (a card's ``effect`` keys besides ``do``) -------
@dataclass(frozen=True)
class AmountArgs:
    amount: int


@dataclass(frozen=True)
class PayArgs:
    amount: int
    to: str = "bank"


@dataclass(frozen=True)
class MoveToArgs:
    space: str
    salary: bool = True


@dataclass(frozen=True)
class NearestArgs:
    kind: str
    salary: bool = True


@dataclass(frozen=True)
class StepsArgs:
    steps: int


@dataclass(frozen=True)
class KeepArgs:
    use: str = "jail"


class MonopolyCards(MonopolyHost):
    """Drawing cards and applying their effects. Mixed into MonopolyRules."""

    deck_policy: DeckPolicy | None = None
    """The edition's :class:`DeckPolicy`; None: the family's (used cards go under the pile)."""

    @space_kind("card")
    def land_card(self, ctx: C, pid: str, space: Space) -> None:
        self.draw_card(ctx, pid, space.deck)

    def draw_card(self, ctx: C, pid: str, deck: str) -> None:
        if self.deck_policy is not None:
            self.deck_policy.draw(self, ctx, pid, deck)
            return
        if physical_decks(ctx.state):
            self.ask_draw(ctx, pid, deck, self.drawable(ctx.state, deck))
            return
        cards = ctx.state.decks[deck]
        if not cards:
            ctx.say(Msg("The {deck} deck is empty.", deck=ctx.state.b.deck_titles[deck]))
            return
        card = ctx.state.b.card(cards[0])
        rest = cards[1:] if card.keep else (*cards[1:], card.id)
        ctx.emit("deck_card_drawn", Msg("{player} draws {deck}: \u201c{card}\u201d",
                                        player=ctx.state.name(pid),
                                        deck=ctx.state.b.deck_titles[deck], card=card.text),
                 deck=deck, cards=list(rest), card=card.id, player=pid, cite=deck)
        self.apply_card(ctx, pid, card)

    # -- physical decks -----------------------------------------------------------------------
    def drawable(self, state: MonopolyState, deck: str) -> list[str]:
        """The cards that can come off the top of a physical pile now (not held, not under)."""
        pile = state.decks[deck]
        top = state.deck_tops.get(deck)
        return list(pile[:top] if top else pile)

    def ask_draw(self, ctx: C, pid: str, deck: str, cards: list[str]) -> None:
        """Ask ``pid`` which card of ``cards`` they drew from the real ``deck``."""
        title = ctx.state.b.deck_titles[deck]
        if not cards:
            ctx.say(Msg("The {deck} deck is empty.", deck=title))
            return
        printed = [c.id for c in ctx.state.b.decks[deck] if c.id in cards]
        ctx.ask(DRAW, (pid,), Msg("{player}: draw a {deck} card, then tap it or pick it",
                                  player=ctx.state.name(pid), deck=title),
                deck=deck, cards=printed)

    @prompt_kind(DRAW)
    def actions_draw(self, state: MonopolyState) -> list[Action]:
        assert state.prompt is not None
        pid = state.prompt.to[0]
        return [Action(pid, "draw", Msg("\u201c{card}\u201d", card=state.b.card(c).text),
                       {"card": c})
                for c in state.prompt.data["cards"]]

    def refuse_draw(self, state: MonopolyState, actor: str, args: DrawArgs) -> str | None:
        if state.prompt is None or state.prompt.kind != DRAW.kind:
            return None
        card = args.card
        if card in state.prompt.data["cards"]:
            return None
        try:
            known = state.b.card(str(card))
        except KeyError:
            return Msg("There is no card {card} in this game.", card=repr(card))
        if known.deck != state.prompt.data["deck"]:
            return Msg("\u201c{card}\u201d is a {deck} card, not {other}.", card=known.text,
                       deck=state.b.deck_titles[known.deck],
                       other=state.b.deck_titles[state.prompt.data["deck"]])
        if any(card in p.cards for p in state.players):
            return Msg("\u201c{card}\u201d is held by a player; it cannot be drawn.",
                       card=known.text)
        where = self.deck_policy.used_where if self.deck_policy is not None else \
            "under the pile: it cannot come up yet"
        return f"\u201c{known.text}\u201d is {where}."

    @takes(DrawArgs)
    def cmd_draw(self, ctx: C, actor: str, args: DrawArgs) -> None:
        """The player names the card they drew from the real deck."""
        prompt = ctx.state.prompt
        if prompt is None or prompt.kind != DRAW.kind:
            raise IllegalCommand("No card is to be drawn now.")
        ctx.clear_prompt()
        self.drew_card(ctx, prompt.to[0], prompt.data["deck"], str(args.card))

    def drew_card(self, ctx: C, pid: str, deck: str, card_id: str) -> None:
        """Follow the physical card ``card_id``; it goes under the pile unless it is kept."""
        if self.deck_policy is not None:
            self.deck_policy.drew(self, ctx, pid, deck, card_id)
            return
        state = ctx.state
        pile = state.decks[deck]
        top = state.deck_tops.get(deck) or len(pile)
        card = state.b.card(card_id)
        above = [c for c in pile[:top] if c != card_id]
        under = [*pile[top:], *([] if card.keep else [card_id])]
        ctx.emit("card_drawn", Msg("{player} draws {deck}: \u201c{card}\u201d",
                                  player=state.name(pid), deck=state.b.deck_titles[deck],
                                  card=card.text), player=pid, deck=deck, card=card_id,
                 cards=above + under, top=len(above), cite=deck)  # the deck's rule, as applied
        self.apply_card(ctx, pid, card)

    def on_card_drawn(self, state: MonopolyState, e: CardDrawn) -> MonopolyState:
        return evolve(state, decks={**state.decks, e.deck: tuple(e.cards)},
                      deck_tops={**state.deck_tops, e.deck: e.top})

    def apply_card(self, ctx: C, pid: str, card: Card) -> None:
        effect = dict(card.effect)
        word = effect.pop("do")
        rule = need(self, "effect", word)
        rule(ctx, pid, card, effect_args_type(rule)(**effect))

    @effect("collect", AmountArgs)
    def effect_collect(self, ctx: C, pid: str, card: Card, args: AmountArgs) -> None:
        amount = args.amount
        self.receive(ctx, pid, amount, Msg("Card: {player} collects {amount}.",
                                                 player=ctx.state.name(pid),
                                                 amount=ctx.state.cash(amount)))

    @effect("pay", PayArgs)
    def effect_pay(self, ctx: C, pid: str, card: Card, args: PayArgs) -> None:
        amount = args.amount
        self.pay(ctx, pid, args.to, amount, Msg("Card: {player} pays {amount}",
                                                 player=ctx.state.name(pid),
                                                 amount=ctx.state.cash(amount)))

    @effect("collect_from_each", AmountArgs)
    def effect_collect_from_each(self, ctx: C, pid: str, card: Card, args: AmountArgs) -> None:
        amount = args.amount
        for p in ctx.state.active:
            if p.id != pid:
                self.pay(ctx, p.id, pid, amount, Msg("Card: {player} pays {other} {amount}",
                                                       player=p.name, other=ctx.state.name(pid),
                                                       amount=ctx.state.cash(amount)))

    @effect("pay_each", AmountArgs)
    def effect_pay_each(self, ctx: C, pid: str, card: Card, args: AmountArgs) -> None:
        amount = args.amount
        for p in ctx.state.active:
            if p.id != pid:
                self.pay(ctx, pid, p.id, amount, Msg("Card: {player} pays {other} {amount}",
                                                       player=ctx.state.name(pid), other=p.name,
                                                       amount=ctx.state.cash(amount)))

    @effect("move_to", MoveToArgs)
    def effect_move_to(self, ctx: C, pid: str, card: Card, args: MoveToArgs) -> None:
        target = ctx.state.b.find(args.space).index
        self.move_to(ctx, pid, target, args.salary)
        ctx.then(Task("land", {"player": pid}))

    @effect("move_to_nearest", NearestArgs)
    def effect_move_to_nearest(self, ctx: C, pid: str, card: Card, args: NearestArgs) -> None:
        """Advance to the nearest space ahead of ``kind`` (``station``, ``card``, ...)."""
        kind, salary = args.kind, args.salary
        spaces = ctx.state.b.spaces
        here = ctx.state.player(pid).position
        ahead = [spaces[(here + k) % len(spaces)] for k in range(1, len(spaces) + 1)]
        target = next((s for s in ahead if s.kind == kind), None)
        if target is None:
            ctx.say(f"There is no {kind} space on this board: the card does nothing.")
            return
        self.move_to(ctx, pid, target.index, salary)
        ctx.then(Task("land", {"player": pid}))

    @effect("move_by", StepsArgs)
    def effect_move_by(self, ctx: C, pid: str, card: Card, args: StepsArgs) -> None:
        steps = args.steps
        if steps >= 0:
            ctx.then(Task("move", {"player": pid, "steps": steps}), Task("land", {"player": pid}))
            return
        n = len(ctx.state.b.spaces)
        target = (ctx.state.player(pid).position + steps) % n
        self.move_to(ctx, pid, target, salary=False,
                     why=Msg("{player} goes back {n} to {space}.", player=ctx.state.name(pid),
                             n=-steps, space=ctx.state.b.spaces[target].name))
        ctx.then(Task("land", {"player": pid}))

    @effect("go_to_jail")
    def effect_go_to_jail(self, ctx: C, pid: str, card: Card, args: NoArgs) -> None:
        self.send_to_jail(ctx, pid, Msg("Card: {player} goes straight to Jail.",
                                            player=ctx.state.name(pid)))

    @effect("keep", KeepArgs)
    def effect_keep(self, ctx: C, pid: str, card: Card, args: KeepArgs) -> None:
        ctx.emit("card_kept",
                 Msg("{player} keeps the card for later.", player=ctx.state.name(pid)), player=pid,
                 card=card.id, keep=True)

    @effect("banker")
    def effect_banker(self, ctx: C, pid: str, card: Card, args: NoArgs) -> None:
        ctx.say(Msg("The banker applies this card by hand."))

    def is_jail_card(self, state: MonopolyState, card_id: str) -> bool:
        return bool(state.b.card(card_id).effect.get("use", "jail") == "jail")

    def return_card(self, ctx: C, pid: str, card_id: str) -> None:
        """A used keep-card goes back under its deck."""
        card = ctx.state.b.card(card_id)
        ctx.emit("card_kept", player=pid, card=card_id, keep=False)
        ctx.emit("card_put_under", deck=card.deck, card=card_id)


def physical_decks(state: MonopolyState) -> bool:
    """Whether this game's cards are drawn from the real deck (setting ``decks``)."""
    return bool(state.setup.settings.get("decks", "virtual") == "physical")
