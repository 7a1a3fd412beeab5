"""Monopolino: booths instead of deeds, one die, euro cents, a LOTTERY pot and RISK cards.

From the rulebook: landing on a free street, park or other coloured space makes you pay the
amount shown to the Bank and place one of your booths there (no choice, no auction); landing
on someone's booth pays them that amount, doubled when they have booths on both spaces of the
colour. Stations roll again. START pays €0.50 when passing or landing. Sweets and balloons put
€0.50 on the LOTTERY, which the next player landing there takes. GO TO SHOOTING GALLERY puts
€0.50 on the LOTTERY and moves to the SHOOTING GALLERY without passing START. RISK cards are
discarded face up; the discard pile is shuffled into a new deck when the deck is used up. The game
ends the moment a player has no money left: the richest player wins.

Choices where the rulebook says nothing (documented here, tested in tests/monopolino):

- A player with no booths left places nothing: a free street costs them nothing and stays free,
  and a BOOTH card is discarded without effect (no new card is drawn).
- A player who cannot pay the full price of a free street pays nothing and places no booth: the
  Bank does not sell on credit. (Paying exactly all their money is allowed and ends the game.)
- A payment a player cannot make in full (rent, sweets, balloons, a card) takes all their money;
  they then have no money left and the game ends at once.
- A BOOTH card is a "may": the player may also decline it.
- There are no trades, no selling to the Bank, no jail and no bankruptcy; those commands are
  refused with the reason. START money is paid automatically, so it is never claimed too late.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any, TypedDict

from companion.editions.monopolino.page import PAGE
from companion.engine import readings, rng
from companion.engine.context import Ctx, cites
from companion.engine.event_format import EventData, fact
from companion.engine.help import Help
from companion.engine.i18n import N_, Msg, Msgs
from companion.engine.panels import Line, Panel
from companion.engine.prompts import ChoicePrompt, RollPrompt
from companion.engine.registry import effect, space_kind, task
from companion.engine.state import Task, evolve
from companion.engine.types import SetupError
from companion.monopoly.board import Card, Space, load_board
from companion.monopoly.cards import DeckPolicy, MonopolyCards, physical_decks
from companion.monopoly.help import FAMILY_HELP
from companion.monopoly.rules import MonopolyRules
from companion.monopoly.state import EditionValues, MonopolyState, values_of
from companion.monopoly.totals import Totals
from companion.monopoly.view import BoardMarks, SpaceFlag

C = Ctx[MonopolyState]


@dataclass(frozen=True)
class PayAndGoArgs:
    """A RISK card: pay ``amount`` to ``to``, then go to ``space``."""

    amount: int
    space: str
    to: str = "pot"
    salary: bool = False


@dataclass(frozen=True)
class BoothArgs:
    """A booth card: a booth on a free space of colour group ``color``."""

    color: str

STATION = RollPrompt("station", then="station_roll")
"""On a station: roll again and move."""

BOOTH_CARD = ChoicePrompt("booth_card", then="booth_card")
"""A booth card: place a booth on a space of its colour, or not."""
NO_BOOTH = "none"
"""The ``choose`` option that declines a BOOTH card."""

WITHOUT = {
    "buying": "Monopolino has no buying choice: a free street gets your booth automatically.",
    "auctions": "Monopolino has no auctions.",
    "trades": "Monopolino has no trades.",
    "selling": "In Monopolino booths are never sold.",
    "bankruptcy": "Monopolino has no bankruptcy: the game ends when a player has no money.",
    "jail": "Monopolino has no jail.",
}


@dataclass(frozen=True)
class MonopolinoValues(EditionValues):
    """Monopolino's own state."""

    booths: Mapping[str, int]
    """Booths each player has left to place."""
    discard: Mapping[str, list[str]]
    """Each deck's discard pile (reshuffled when the deck runs out)."""


# -- Monopolino's events (applied by MonopolinoRules' ``on_`` handlers) ------------------------
@fact("booth_placed")
class BoothPlaced(EventData):
    """``player`` placed one of their booths (``deed_owned`` says where)."""

    player: str


@fact("booth_returned")
class BoothReturned(EventData):
    """A booth went back to ``player`` (another player's booth took its space)."""

    player: str


@fact("card_discarded")
class CardDiscarded(EventData):
    """A drawn ``card`` went face up onto ``deck``'s discard pile."""

    deck: str
    card: str


@fact("discard_pile_reshuffled")
class DiscardPileReshuffled(EventData):
    """``deck`` was used up: its discard pile, shuffled, is the new deck ``cards``."""

    deck: str
    cards: list[str]


class DeckView(TypedDict):
    deck: int
    discard: int


class MonopolinoView(TypedDict):
    """Monopolino's values on the page (``view["extra"]``)."""

    booths: dict[str, int]
    """Booths each player has left to place."""
    risk: DeckView
    """Cards left in the RISK deck and on its discard pile."""


def discards(state: MonopolyState, deck: str) -> list[str]:
    """``deck``'s discard pile."""
    return list(values_of(state, MonopolinoValues).discard[deck])


class DiscardPile(DeckPolicy):
    """RISK cards are discarded face up; the discard pile is shuffled into a new deck when the
    deck is used up (the family's cards go under the pile instead)."""

    used_where = ("on the face-up discard pile: it comes back only when the discard pile is "
                  "shuffled into a new deck")

    def draw(self, rules: MonopolyCards, ctx: C, pid: str, deck: str) -> None:
        """Draw the top card, put it face up on the discard pile, follow it."""
        if not ctx.state.decks[deck]:
            self.reshuffle(ctx, deck)
        cards = ctx.state.decks[deck]
        title = ctx.state.b.deck_titles[deck]
        if not cards:
            ctx.say(Msg("There are no {deck} cards left.", deck=title))
            return
        if physical_decks(ctx.state):
            rules.ask_draw(ctx, pid, deck, list(cards))
            return
        self.drew(rules, ctx, pid, deck, cards[0])

    def drew(self, rules: MonopolyCards, ctx: C, pid: str, deck: str, card_id: str) -> None:
        """The card leaves the deck face up onto the discard pile (any card of the deck can
        be the one drawn from the real pile)."""
        title = ctx.state.b.deck_titles[deck]
        card = ctx.state.b.card(card_id)
        rest = [c for c in ctx.state.decks[deck] if c != card_id]
        ctx.emit("deck_card_drawn", Msg("{player} draws {deck}: \u201c{card}\u201d",
                                        player=ctx.state.name(pid), deck=title, card=card.text),
                 deck=deck, cards=rest, card=card.id, player=pid)
        ctx.emit("card_discarded", deck=deck, card=card.id)
        rules.apply_card(ctx, pid, card)

    def reshuffle(self, ctx: C, deck: str) -> None:
        """The deck is used up: shuffle the discard pile into a new deck."""
        order, nxt = rng.shuffled(ctx.state.rng, tuple(discards(ctx.state, deck)))
        ctx.emit("rng_advanced", rng=nxt)
        ctx.emit("discard_pile_reshuffled",
                 Msg("The {deck} cards are used up: the discard pile is shuffled into a new "
                     "deck.", deck=ctx.state.b.deck_titles[deck]), deck=deck, cards=list(order))


class MonopolinoRules(MonopolyRules):
    """Monopolino (Editrice Giochi), for 2 to 4 players."""
    data_folder = resources.files("seeds")  # seeds/<name>.toml and the files beside it
    locales = resources.files(__name__) / "locales"  # its own words in every language

    name = "monopolino"
    title = "Monopolino"
    page = PAGE
    max_players = 4
    effect_words = {
        **MonopolyRules.effect_words,
        "pay_and_go": (N_("Pay, then go to a space"),
                       N_("Pay {amount} to {to}, then go to {space}{salary}")),
        "booth": (N_("Place a booth"), N_("Place a booth on a {color} space")),
    }
    kind_words = {
        **MonopolyRules.kind_words, "train": N_("Train"), "lottery": N_("Lottery"),
        "shooting_gallery": N_("Shooting Gallery"),
        "go_to_shooting_gallery": N_("Go to Shooting Gallery"), "balloons": N_("Balloons"),
        "sweets": N_("Sweets"),
    }
    glance_forms = {**MonopolyRules.glance_forms,
                    "booth_card": (N_("{player}: a booth on {colour}?"),)}
    board_totals = Totals(spaces=32, locations=16, group_size=(2, 2), fixed=("go",))
    prompt_help = {
        **FAMILY_HELP,
        "turn": Help(N_("Your turn: roll the die and move your token clockwise that many "
                     "spaces."), "move"),
        "draw": Help(N_("A RISK space: draw the top RISK card, then tap it on the reader or pick "
                     "it here: the companion follows its instructions."), "risk"),
        "station": Help(N_("A station: roll the die again and move on that many spaces."),
                        "station"),
        "booth_card": Help(N_("A BOOTH card: without moving, you may place one of your booths on "
                           "a space of the colour shown on the card."), "booth-card"),
    }
    dice_count = 1
    quiet_kinds = frozenset({"go", "shooting_gallery"})
    without = WITHOUT
    short_payment = "pay_all"
    """A payment a player cannot make in full takes all their money (the game then ends)."""
    deck_policy = DiscardPile()
    cite_as = {"salary": "start"}
    never_cites = {
        "buy": WITHOUT["buying"], "auction": WITHOUT["auctions"], "trade": WITHOUT["trades"],
        "sell-to-bank": WITHOUT["selling"], "bankrupt-bank": WITHOUT["bankruptcy"],
        "bankrupt-player": WITHOUT["bankruptcy"], "jail-fine": WITHOUT["jail"],
        "go-to-jail": WITHOUT["jail"], "jail-third-miss": WITHOUT["jail"],
        "three-doubles": "Monopolino is played with one die: no doubles.",
        "end-last-standing": "Monopolino ends when a player has no money (citation end)."}
    board_fields = ("name", "price")
    """The amount shown is both price and rent: the banker corrects the price only."""
    """Readings offered to the banker (seeds/monopolino.toml [[readings]])."""

    # -- setup ------------------------------------------------------------------------------
    def edition_setup(self, state: MonopolyState) -> MonopolyState:
        """Booths per player (10, or 14 with two players); the rent is the amount shown."""
        readings.check(self.name, state.setup.settings)
        corrections = state.setup.settings.get("board") or {}
        for sid, change in dict(corrections.get("spaces", {})).items():
            if isinstance(change, Mapping) and "rent" in change:
                raise SetupError(f"In Monopolino the amount shown is both price and rent: "
                                 f"correct the price of {sid}, not its rent.")
        b = state.b
        spaces = tuple(replace(s, rent=s.price) if s.ownable else s for s in b.spaces)
        per = b.rule("booths_two_players") if len(state.players) == 2 else b.rule("booths")
        ext = MonopolinoValues(booths={p.id: per for p in state.players},
                               discard={deck: [] for deck in b.decks})
        return replace(state, board=replace(b, spaces=spaces), ext=ext)

    # -- booths -----------------------------------------------------------------------------
    @staticmethod
    def booths_left(state: MonopolyState, pid: str) -> int:
        return int(values_of(state, MonopolinoValues).booths[pid])

    @staticmethod
    def with_values(state: MonopolyState, **changes: Any) -> MonopolyState:
        return evolve(state, ext=values_of(state, MonopolinoValues).updated(changes))

    def on_booth_placed(self, state: MonopolyState, e: BoothPlaced) -> MonopolyState:
        booths = values_of(state, MonopolinoValues).booths
        return self.with_values(state, booths={**booths, e.player: booths[e.player] - 1})

    def on_booth_returned(self, state: MonopolyState, e: BoothReturned) -> MonopolyState:
        booths = values_of(state, MonopolinoValues).booths
        return self.with_values(state, booths={**booths, e.player: booths[e.player] + 1})

    def on_card_discarded(self, state: MonopolyState, e: CardDiscarded) -> MonopolyState:
        discard = values_of(state, MonopolinoValues).discard
        return self.with_values(state, discard={**discard,
                                                e.deck: [*discards(state, e.deck), e.card]})

    def on_discard_pile_reshuffled(self, state: MonopolyState,
                                   e: DiscardPileReshuffled) -> MonopolyState:
        discard = values_of(state, MonopolinoValues).discard
        state = evolve(state, decks={**state.decks, e.deck: tuple(e.cards)})
        return self.with_values(state, discard={**discard, e.deck: []})

    def place_booth(self, ctx: C, pid: str, index: int, why: str) -> None:
        """Put one of ``pid``'s booths on a space, sending any booth there back to its owner."""
        old = ctx.state.owner(index)
        ctx.emit("deed_owned", why, space=index, owner=pid)
        if old is not None:
            ctx.emit("booth_returned", player=old)
        ctx.emit("booth_placed", player=pid)

    @space_kind("location")
    def land_location(self, ctx: C, pid: str, space: Space) -> None:
        owner = ctx.state.owner(space.index)
        if owner is None:
            self.build(ctx, pid, space)
        elif owner != pid:
            self.charge_rent(ctx, pid, owner, space)
        else:
            ctx.say(Msg("{space} has {player}'s own booth.", space=space.name,
                        player=ctx.state.name(pid)))

    @cites("booth")
    def build(self, ctx: C, pid: str, space: Space) -> None:
        """A free space: pay its price to the Bank and place a booth (no choice)."""
        state = ctx.state
        p = state.player(pid)
        if self.booths_left(state, pid) == 0:
            ctx.say(Msg("{space} is free, but {player} has no booths left: nothing happens.",
                        space=space.name, player=p.name))
            return
        if p.money < space.price:
            ctx.say(Msg("{player} cannot pay {amount} for {space}: no booth is placed.",
                        player=p.name, amount=state.cash(space.price), space=space.name))
            return
        ctx.emit("money_paid",
                 Msg("{player} pays {amount} to the Bank for {space}.", player=p.name,
                     amount=state.cash(space.price), space=space.name),
                 source=pid, to="bank", amount=space.price)
        self.place_booth(ctx, pid, space.index, Msg("{player} places a booth on {space}.",
                                                    player=p.name, space=space.name))

    def rent(self, state: MonopolyState, space: Space, owner: str) -> tuple[int, str]:
        if state.has_set(owner, space.color):
            return space.price * 2, Msg("booths on both spaces of the colour: double")
        return space.price, Msg("booth")

    # -- turns and spaces -------------------------------------------------------------------
    @space_kind("train")
    def land_train(self, ctx: C, pid: str, space: Space) -> None:
        self.ask_roll(ctx, STATION, pid, Msg("{player} is on {space}: roll again and move",
                                               player=ctx.state.name(pid), space=space.name),
                      1, label=Msg("Roll again"), player=pid)

    @task("station_roll")
    @cites("station")
    def task_station_roll(self, ctx: C, player: str, dice: list[int]) -> None:
        ctx.then(Task("move", {"player": player, "steps": dice[0]}),
                 Task("land", {"player": player}))

    @space_kind("sweets")
    @space_kind("balloons")
    @cites("sweets")
    def land_sweets(self, ctx: C, pid: str, space: Space) -> None:
        fee = ctx.state.b.rule("lottery_fee")
        self.pay(ctx, pid, "pot", fee, Msg("{player} lands on {space}: pays {amount} onto the "
                                           "LOTTERY", player=ctx.state.name(pid),
                                           space=space.name, amount=ctx.state.cash(fee)))

    @space_kind("lottery")
    @cites("lottery")
    def land_lottery(self, ctx: C, pid: str, space: Space) -> None:
        pot = ctx.state.pot
        if pot <= 0:
            ctx.say(Msg("The LOTTERY is empty: nothing happens."))
            return
        self.receive(ctx, pid, pot, Msg("{player} lands on the LOTTERY and takes {amount}.",
                                        player=ctx.state.name(pid), amount=ctx.state.cash(pot)),
                     source="pot")

    @space_kind("go_to_shooting_gallery")
    @cites("go-to-gallery")
    def land_go_to_shooting_gallery(self, ctx: C, pid: str, space: Space) -> None:
        fee = ctx.state.b.rule("lottery_fee")
        self.pay(ctx, pid, "pot", fee, Msg("{player} lands on {space}: puts {amount} on the "
                                           "LOTTERY", player=ctx.state.name(pid),
                                           space=space.name, amount=ctx.state.cash(fee)))
        gallery = ctx.state.b.first("shooting_gallery")
        self.move_to(ctx, pid, gallery.index, salary=False,
                     why=Msg("{player} goes to the {space} without passing START.",
                             player=ctx.state.name(pid), space=gallery.name))

    # -- RISK cards -------------------------------------------------------------------------
    @task("draw_card")
    def task_draw_card(self, ctx: C, player: str, deck: str) -> None:
        self.draw_card(ctx, player, deck)

    @effect("pay_and_go", PayAndGoArgs)
    @cites("risk-pay")
    def effect_pay_and_go(self, ctx: C, pid: str, card: Card, args: PayAndGoArgs) -> None:
        amount, space, to, salary = args.amount, args.space, args.to, args.salary
        if to == "pot" and readings.chosen(self.name, ctx.state.setup.settings,
                                           "pay_card_to") == "bank":
            to = "bank"
        if to == "pot":
            why = Msg("Card: {player} pays {amount} onto the LOTTERY",
                      player=ctx.state.name(pid), amount=ctx.state.cash(amount))
        else:
            why = Msg("Card: {player} pays {amount} to {to}", player=ctx.state.name(pid),
                      amount=ctx.state.cash(amount), to=ctx.state.name(to))
        self.pay(ctx, pid, to, amount, why)
        self.move_to(ctx, pid, ctx.state.b.find(space).index, salary)
        ctx.then(Task("land", {"player": pid}))

    @effect("booth", BoothArgs)
    @cites("booth-card")
    def effect_booth(self, ctx: C, pid: str, card: Card, args: BoothArgs) -> None:
        """Place a booth on a free space of ``color``; both taken by different players:
        replace an opponent's; both by one player: discard and draw again."""
        color = args.color
        state = ctx.state
        name = state.name(pid)
        cname = state.b.color_names.get(color, color)
        members = state.b.colors[color]
        owners = {state.owner(i) for i in members}
        spaces = [state.b.spaces[i] for i in members]
        if None not in owners and len(owners) == 1:
            owner = state.name(owners.pop() or "")
            ctx.say(Msg("Both {colour} spaces hold {owner}'s booths: nothing can be done, "
                        "{player} draws a new card.", colour=cname, owner=owner, player=name))
            ctx.then(Task("draw_card", {"player": pid, "deck": card.deck}))
            return
        if self.booths_left(state, pid) == 0:
            ctx.say(Msg("{player} has no booths left: the card is discarded.", player=name))
            return
        options: list[tuple[str, str]]
        if None in owners:
            options = [(s.id, Msg("Place a booth on {space}", space=s.name)) for s in spaces
                       if state.owner(s.index) is None]
        else:
            options = [(s.id, Msg("Replace {owner}'s booth on {space}",
                                  owner=state.name(state.owner(s.index) or ""), space=s.name))
                       for s in spaces if state.owner(s.index) != pid]
        options.append((NO_BOOTH, Msg("Place no booth")))
        self.ask_choice(ctx, BOOTH_CARD, pid,
                        Msg("{player}: place a booth on a {colour} space?", player=name,
                            colour=cname), options, player=pid)

    @task("booth_card")
    @cites("booth-card")
    def task_booth_card(self, ctx: C, player: str, option: str) -> None:
        name = ctx.state.name(player)
        if option == NO_BOOTH:
            ctx.say(Msg("{player} places no booth.", player=name))
            return
        space = ctx.state.b.find(option)
        old = ctx.state.owner(space.index)
        if old is None:
            why = Msg("Card: {player} places a booth on {space}.", player=name, space=space.name)
        else:
            why = Msg("Card: {player} places a booth on {space}, and {owner}'s booth goes back "
                      "to its owner.", player=name, space=space.name, owner=ctx.state.name(old))
        self.place_booth(ctx, player, space.index, why)

    # -- the end ----------------------------------------------------------------------------
    def richest(self, state: MonopolyState) -> tuple[list[str], str]:
        best = max(p.money for p in state.active)
        winners = [p.id for p in state.active if p.money == best]
        if len(winners) == 1:
            return winners, Msg("{player} is richest with {amount} and wins.",
                                player=state.name(winners[0]), amount=state.cash(best))
        return winners, Msg("{players} are richest with {amount} each and share the win.",
                            players=[state.name(w) for w in winners], amount=state.cash(best))

    def end_cite(self, state: MonopolyState) -> str:
        return "end"

    def ended(self, state: MonopolyState) -> tuple[list[str], str] | None:
        broke = [p.name for p in state.active if p.money <= 0]
        if not broke:
            return super().ended(state)
        winners, why = self.richest(state)
        return winners, Msg("{players} has no money left: the game ends. {why}", players=broke,
                            why=why)

    def final_ranking(self, state: MonopolyState) -> tuple[list[str], str]:
        """Stopped early, the richest player wins too (booths count for nothing)."""
        return self.richest(state)

    # -- front ends -------------------------------------------------------------------------
    def view(self, state: MonopolyState, viewer: str | None = None) -> dict[str, Any]:
        out = super().view(state, viewer)
        for p in out["players"]:
            p["booths_left"] = self.booths_left(state, p["id"])
        return out

    pot_label = N_("Lottery pot")

    def board_marks(self, state: MonopolyState) -> BoardMarks:
        """A booth on every street that has one (a street is owned by placing a booth)."""
        flag: SpaceFlag = {"kind": "booth", "text": Msg("booth"), "shown": False}
        return {"flags": {i: [flag] for i, d in state.deeds.items() if d.owner is not None},
                "pieces": [], "notes": []}

    def panels(self, state: MonopolyState) -> list[Panel]:
        """Booths and lottery: the pot, each player's booths left and where they stand, and
        the RISK pile."""
        left = values_of(state, MonopolinoValues).booths
        lines: list[Line] = []
        for p in state.players:
            booths = Msgs("{n} booth left", "{n} booths left", left.get(p.id, 0))
            streets = [state.b.spaces[i].name for i in state.owned_by(p.id)]
            lines.append({"player": p.id, "text": Msg(
                "{player}: {booths}; booths on {spaces}", player=p.name, booths=booths,
                spaces=streets) if streets else Msg("{player}: {booths}", player=p.name,
                                                    booths=booths)})
        return [{"title": Msg("Booths and lottery"), "blocks": [
            {"text": Msg("Lottery pot: {amount}", amount=state.cash(state.pot)),
             "tone": "strong"},
            {"lines": lines},
            {"text": Msg("RISK cards: {deck} in the pile, {played} played.",
                         deck=len(state.decks["risk"]), played=len(discards(state, "risk"))),
             "tone": "muted"}]}]

    def extra_view(self, state: MonopolyState) -> MonopolinoView:
        return {
            "booths": dict(values_of(state, MonopolinoValues).booths),
            "risk": {"deck": len(state.decks["risk"]),
                     "discard": len(discards(state, "risk"))},
        }

    def tag_objects(self) -> list[tuple[str, str]]:
        """Tokens and RISK cards (streets have no deed cards in Monopolino)."""
        board = load_board(self.name)
        out: list[tuple[str, str]] = [(f"token:{t}", Msg("the {token} token", token=t))
                                      for t in board.tokens]
        for deck, cards in board.decks.items():
            out += [(f"card:{c.id}", Msg("the {deck} card \u201c{text}\u201d",
                                         deck=board.deck_titles[deck], text=c.text))
                    for c in cards]
        return out
