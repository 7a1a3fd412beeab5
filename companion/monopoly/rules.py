"""MonopolyRules: the shared Monopoly-family game, assembled from its parts.

Editions subclass it, declare their own space kinds, effects and tasks, and implement hooks
and set policies for what is their own (``before_move``, ``rent``, ``turn_actions``,
``ended``, ``short_payment``, ...: the list is :mod:`companion.monopoly.hooks`); they never
override another method of the family or the engine.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from typing import Any

from companion.engine import readings
from companion.engine.commands import Amount, Id, Text, takes
from companion.engine.context import Ctx, cites
from companion.engine.ending import BankerEnding
from companion.engine.i18n import N_, Msg, Msgs
from companion.engine.panels import Panel
from companion.engine.readings import DATA, shown
from companion.engine.registry import handler, prompt_kind
from companion.engine.seeds import SeedError
from companion.engine.state import Task
from companion.engine.story import Counter
from companion.engine.types import BANKER, Action, Command, GameSetup, IllegalCommand, SetupError
from companion.monopoly import board_edit, rng_setup
from companion.monopoly.board import (
    _raw,
    _words,
    check_card_effects,
    check_seed,
    load_board,
)
from companion.monopoly.cards import DRAW, DrawArgs, MonopolyCards
from companion.monopoly.debts import DEBT, MonopolyDebts
from companion.monopoly.effect_words import ARGS, KIND_WORDS, WORDS, effect_choices
from companion.monopoly.events import MonopolyEvents, fresh_deeds, new_player
from companion.monopoly.help import FAMILY_GLANCES, FAMILY_HELP
from companion.monopoly.market import AUCTION, BUY, MonopolyMarket
from companion.monopoly.moves import FAMILY_MOVES
from companion.monopoly.state import MonopolyState, Player
from companion.monopoly.story import STORY_COUNTERS
from companion.monopoly.totals import Totals
from companion.monopoly.trades import MonopolyTrades
from companion.monopoly.turns import TURN, MonopolyTurns
from companion.monopoly.view import NO_MARKS, BoardMarks, monopoly_view

C = Ctx[MonopolyState]


@dataclass(frozen=True)
class TransferArgs:
    """The banker moves money by hand (a correction), with a reason."""

    source: Id | None = None
    """Who pays: a player id or "bank"."""
    to: Id | None = None
    """Who receives: a player id or "bank"."""
    amount: Amount | None = None
    reason: Text | None = None


class MonopolyRules(
    MonopolyEvents, MonopolyTurns, MonopolyMarket, MonopolyDebts, MonopolyCards, MonopolyTrades,
    BankerEnding,
):
    """A Monopoly-family edition driven by its data file."""

    family = "monopoly"
    prompt_help = FAMILY_HELP
    move_words = FAMILY_MOVES
    glance_forms = FAMILY_GLANCES
    effect_words: Mapping[str, tuple[str, str]] = WORDS
    """Each card effect in words for the editors (companion/monopoly/effect_words.py)."""
    effect_arg_words: Mapping[str, tuple[str, str]] = ARGS
    """Each card effect's argument: (the kind of field, its label), for the editors."""
    kind_words: Mapping[str, str] = KIND_WORDS
    """Each kind of space on the board in words."""
    board_totals = Totals()
    """What the edition's rulebook prints about its board (a board correction and a box
    profile's board are checked against it: companion/monopoly/board_edit.py)."""
    min_players = 2
    max_players = 4
    after_end_commands = frozenset()

    apply_card = cites(lambda self, ctx, pid, card: card.deck)(MonopolyCards.apply_card)
    """A card's effects cite its deck's rule (the deck id is the citation id; cards.py's own
    ``apply_card``, decorated here so a card drawn or named from a physical pile cites it)."""

    FEATURES: dict[str, tuple[str, ...]] = {
        "buying": ("buy",),
        "auctions": ("auction", "bid", "pass", "close_auction"),
        "trades": ("propose_trade", "accept_trade", "decline_trade", "cancel_trade"),
        "selling": ("sell_to_bank",),
        "bankruptcy": ("declare_bankruptcy",),
        "jail": ("pay_jail_fine", "use_jail_card"),
    }
    """The family's optional features and the commands each one brings."""
    without: dict[str, str] = {}
    """Features the edition leaves out, with the reason a player is given (Monopolino)."""

    def absent(self, command: Command) -> str:
        return self._absent.get(command.type, "")

    @functools.cached_property
    def _absent(self) -> dict[str, str]:
        """Command type -> why the edition has no such command (``without``), built once."""
        out: dict[str, str] = {}
        for feature, why in self.without.items():
            for kind in self.FEATURES[feature]:
                out.setdefault(kind, why)
        return out

    quiet_kinds: frozenset[str] = frozenset({"go", "jail", "free_parking"})
    """Space kinds where landing does nothing by itself (no ``@space_kind`` handler)."""

    data_folder: Traversable
    """The folder of the edition's own package that holds its data file ``<name>.toml`` and
    the files beside it (``<name>.it.toml``, ...): ``importlib.resources.files(...)``."""

    def check(self) -> None:
        data = getattr(self, "data_folder", None)
        if data is None:
            raise SeedError(f"Edition {self.name!r} declares no data folder (data_folder = "
                            "importlib.resources.files(<its package>)).")
        if DATA.get(self.name) is not data:  # a name loaded again from elsewhere (a test's)
            DATA[self.name] = data
            _raw.cache_clear()
            _words.cache_clear()
        board_edit.KNOWN[self.name] = (board_edit.land_kinds(type(self)), self.board_totals)
        check_seed(self.name, self, self.quiet_kinds)
        self.citation_file = shown(self.name)
        self.check_citations()
        for deck in self.board_decks():
            if self.cite_as.get(deck, deck) not in self.citations():
                raise SeedError(f"{self.citation_file}: citations.{deck}: missing (the "
                                f"{deck} deck's cards cite it)")

    def board_decks(self) -> tuple[str, ...]:
        """The decks the data file deals (read raw: loading the board asks which kinds this
        edition handles, which would load this edition again while it is being checked)."""
        return tuple(sorted(str(d["id"]) for d in _raw(self.name).get("decks", [])))

    def citations(self) -> Mapping[str, Mapping[str, str]]:
        table: Mapping[str, Mapping[str, str]] | None = self.__dict__.get("_citations")
        if table is None:
            table = readings.citations(self.name)
            self.__dict__["_citations"] = table
        return table

    def reading_topic(self, reading: str) -> str:
        return next((r["topic"] for r in readings.readings(self.name) if r["id"] == reading),
                    reading)

    # -- setup ----------------------------------------------------------------------------
    def initial_state(self, setup: GameSetup) -> MonopolyState:
        n = len(setup.players)
        if not self.min_players <= n <= self.max_players:
            raise SetupError(f"{self.title} is for {self.min_players} to {self.max_players} "
                             f"players, not {n}.")
        settings = dict(setup.settings)
        unknown = set(settings) - {"board", "order", "decks", *self.setting_names}
        if unknown:
            raise SetupError(f"Unknown setting(s) for {self.title}: {', '.join(sorted(unknown))}.")
        if settings.get("decks", "virtual") not in ("physical", "virtual"):
            raise SetupError("'decks' is 'physical' (players draw the real cards and name them) "
                             "or 'virtual' (the companion shuffles and draws).")
        if settings.get("order", "roll") not in ("roll", "seated"):
            raise SetupError("'order' is 'roll' (a starting roll) or 'seated' (as listed).")
        board = load_board(self.name, settings.get("board"))
        check_card_effects(board, settings.get("board"), self)
        start = board.rule("start_money")
        players = tuple(new_player(s.id, s.name, s.token, start) for s in setup.players)
        decks, rng = rng_setup.shuffle_decks(setup.seed, board)
        supply = board.rule("bank_supply", 10**6)
        state = MonopolyState(
            setup=setup, rng=rng, board=board, players=players,
            deeds=fresh_deeds(board.ownable), bank=supply - start * n, decks=decks,
        )
        return self.edition_setup(state)

    own_settings: tuple[dict[str, Any], ...] = ()
    """The edition's settings beyond its data file's readings (a reading with a ``setting``
    is offered by itself): ``{name, label, type (int, choice or text), min?, max?, choices?,
    default?}``; a missing default is the data file's rule."""

    @property
    def settings_info(self) -> tuple[dict[str, Any], ...]:
        """Every setting the setup form offers: the edition's own, then its readings' (read
        from its own data, so an edition installed from outside offers its readings too)."""
        return (*self.own_settings, *readings.settings_info(self.name))

    @property
    def setting_names(self) -> tuple[str, ...]:
        return tuple(s["name"] for s in self.settings_info)
    board_fields: tuple[str, ...] = ("name", "price", "rent")
    """What the banker may correct on an ownable space."""

    def setup_info(self) -> dict[str, Any]:
        """The setup form's data: dice order, the edition's settings, tokens, and the board
        data the banker may correct (prices, rents, tax amounts, card texts)."""
        board = load_board(self.name)
        settings: list[dict[str, Any]] = [{
            "name": "order", "label": N_("Who starts"), "type": "choice", "default": "roll",
            "choices": [{"value": "roll", "label": N_("Highest starting roll")},
                        {"value": "seated", "label": N_("As listed")}]}]
        for info in self.settings_info:
            settings.append({"default": board.rule(info["name"]), **info})
        if board.decks:
            settings.append({
                "name": "decks", "label": N_("Cards"), "type": "choice", "default": "physical",
                "choices": [{"value": "physical", "label": N_("Real deck (name each card drawn)")},
                            {"value": "virtual", "label": N_("Companion draws")}]})
        # the fields of the board's unverified facts ("spaces.<id>.price", "cards.<id>.text")
        unverified = sorted({fact.split(".")[2] for fact in board.data["unverified_facts"]
                             if fact.split(".")[0] in ("spaces", "cards")})
        return {
            "settings": settings,
            "tokens": list(board.tokens),
            "language": board.language,  # the box's language unless the banker chooses
            "unverified": list(board.unverified),
            "board": {
                "fields": list(self.board_fields),
                "unverified": unverified,
                "currency": board.currency.to_json(),
                "spaces": [{"id": s.id, "name": s.name, "color": s.color,
                            "color_name": board.color_names.get(s.color, s.color),
                            "price": s.price, "rent": s.rent}
                           for s in board.spaces if s.ownable],
                "taxes": [{"id": s.id, "name": s.name, "amount": s.amount}
                          for s in board.spaces if not s.ownable and s.amount > 0],
                "cards": [{"id": c.id, "deck": deck, "deck_title": board.deck_titles[deck],
                           "text": c.text, "effect": dict(c.effect)}
                          for deck, cards in board.decks.items() for c in cards],
                **effect_choices(type(self), board),
            },
        }

    def edition_setup(self, state: MonopolyState) -> MonopolyState:
        """Edition hook: add the edition's own starting values."""
        return state

    def start(self, ctx: C) -> None:
        if ctx.state.setup.settings.get("order", "roll") == "seated":
            ctx.then(Task("begin_turn"))
        else:
            ctx.then(Task("order_roll", {"among": [p.id for p in ctx.state.players]}))

    # -- what may be done now -------------------------------------------------------------
    def actions(self, state: MonopolyState) -> list[Action]:
        return self.asked_actions(state) + self.free_actions(state)

    def action_groups(self, state: MonopolyState) -> Iterator[list[Action]]:
        yield self.asked_actions(state)
        yield self.free_actions(state)

    def asked_actions(self, state: MonopolyState) -> list[Action]:
        """The answers to the current prompt (a roll names its dice by the engine's
        ``dice_names`` policy: Mario's red and black)."""
        out = self.prompt_actions(state)
        prompt = state.prompt
        if prompt is not None:
            kind_actions = handler(self, "prompt", prompt.kind)
            if kind_actions is not None:
                out += kind_actions(state)
        return out

    @prompt_kind(TURN)
    def actions_turn(self, state: MonopolyState) -> list[Action]:
        p = state.turn_player
        out = []
        if p.in_jail:
            fine = state.b.rule("jail_fine", 0)
            if p.money >= fine:
                out.append(Action(p.id, "pay_jail_fine", Msg("Pay {amount} to leave Jail",
                                                             amount=state.cash(fine))))
            if any(self.is_jail_card(state, c) for c in p.cards):
                out.append(Action(p.id, "use_jail_card", Msg("Use Get Out of Jail Free")))
        return out + self.turn_actions(state)

    def turn_actions(self, state: MonopolyState) -> list[Action]:
        """Edition hook: extra things the player may do before rolling."""
        return []

    @prompt_kind(BUY)
    def actions_buy(self, state: MonopolyState) -> list[Action]:
        assert state.prompt is not None
        pid = state.prompt.to[0]
        price = state.prompt.data["price"]
        out = []
        if state.player(pid).money >= price and self.may_take_space(state, pid):
            out.append(Action(pid, "buy", Msg("Buy for {amount}", amount=state.cash(price))))
        out.append(Action(pid, "auction", Msg("Auction")))
        return out

    @prompt_kind(AUCTION)
    def actions_auction(self, state: MonopolyState) -> list[Action]:
        return self.auction_actions(state)

    @prompt_kind(DEBT)
    def actions_debt(self, state: MonopolyState) -> list[Action]:
        d = state.debt
        assert d is not None
        out = [
            Action(d.player, "sell_to_bank",
                   Msg("Sell {space} for {amount}", space=state.b.spaces[i].name,
                       amount=state.cash(self.bank_price(state, i))),
                   {"space": i})
            for i in state.owned_by(d.player)
        ]
        out.append(Action(d.player, "declare_bankruptcy", Msg("Declare bankruptcy")))
        return out

    def free_actions(self, state: MonopolyState) -> list[Action]:
        """Actions open at any time: the edition's standing actions, trades, and the banker's
        corrections (the family's part is the same for every state with the same players still
        in and no trade open, so it is remembered for those)."""
        out = self.standing_actions(state)
        if state.trades:
            return out + self._free_actions(state)
        last = self._last_free  # the same players tuple as last time: no key to build
        if last is not None and last[0] is state.players:
            return out + list(last[1])
        key = tuple([p.id for p in state.players if not p.bankrupt])
        known: dict[tuple[str, ...], tuple[Action, ...]] = self.__dict__.setdefault(
            "_free_actions_by_players", {})
        found = known.get(key)
        if found is None:
            found = known[key] = tuple(self._free_actions(state))
        self._last_free = (state.players, found)
        return out + list(found)

    _last_free: tuple[tuple[Player, ...], tuple[Action, ...]] | None = None

    def _free_actions(self, state: MonopolyState) -> list[Action]:
        out = []
        active = state.active
        if len(active) > 1 and "trades" not in self.without:
            for p in active:
                out.append(Action(p.id, "propose_trade", Msg("Propose a trade"), {},
                                  {"kind": "trade"}))
        for t in state.trades:
            out.append(Action(t.to, "accept_trade", Msg("Accept the trade"), {"trade": t.id}))
            out.append(Action(t.to, "decline_trade", Msg("Decline the trade"), {"trade": t.id}))
            out.append(Action(t.proposer, "cancel_trade", Msg("Withdraw the offer"),
                              {"trade": t.id}))
        out.append(Action(BANKER, "transfer", Msg("Move money (with a reason)"), {},
                          {"kind": "transfer"}))
        out.append(self.end_game_action())
        return out

    def standing_actions(self, state: MonopolyState) -> list[Action]:
        """Edition hook: the edition's own actions open at any time, listed first (Mario:
        rent an owner may still ask for)."""
        return []

    # -- the banker -----------------------------------------------------------------------
    @cites("banker-transfer")
    @takes(TransferArgs)
    def cmd_transfer(self, ctx: C, actor: str, args: TransferArgs) -> None:
        """The banker moves money by hand: ``source``, ``to`` (player, bank or pot),
        ``amount`` and a ``reason`` everyone sees."""
        state = ctx.state
        accounts = {"bank", "pot", *(p.id for p in state.active)}
        src, to = args.source, args.to
        amount, reason = args.amount, args.reason
        if src not in accounts or to not in accounts or src == to:
            raise IllegalCommand(Msg("Choose two different accounts: a player, the bank or "
                                     "the pot."))
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise IllegalCommand(Msg("The amount is a whole number above zero."))
        if not isinstance(reason, str) or not reason.strip() or len(reason) > 100:
            raise IllegalCommand(Msg("Give a reason (up to 100 characters) for a manual "
                                     "transfer."))
        have = state.pot if src == "pot" else None if src == "bank" else state.player(src).money
        if have is not None and have < amount:
            raise IllegalCommand(Msg("{player} has only {amount}.", player=state.name(src),
                                     amount=state.cash(have)))
        ctx.emit("money_paid", Msg("Banker: {amount} from {source} to {to} ({reason}).",
                                   amount=state.cash(amount), source=state.name(src),
                                   to=state.name(to), reason=reason.strip()),
                 source=src, to=to, amount=amount)
        self.settle_debt(ctx)

    def end_rule(self, state: MonopolyState) -> str:
        return readings.early_end_words(self.name, state.setup.settings)

    def final_ranking(self, state: MonopolyState) -> tuple[list[str], str]:
        """Winner when the game is stopped early: the most money plus the prices of spaces."""
        def worth(pid: str) -> int:
            return state.player(pid).money + sum(state.b.spaces[i].price
                                                 for i in state.owned_by(pid))
        best = max(worth(p.id) for p in state.active)
        winners = [p.id for p in state.active if worth(p.id) == best]
        return winners, Msgs("{players} is richest with {amount} in money and spaces.",
                             "{players} are richest with {amount} in money and spaces.",
                             len(winners), players=[state.name(w) for w in winners],
                             amount=state.cash(best))

    # -- the end --------------------------------------------------------------------------
    def after_step(self, ctx: C) -> None:
        if ctx.state.finished:
            return
        result = self.ended(ctx.state)
        if result is not None:
            winners, why = result
            ctx.emit("finished", why, winners=winners, reason=why, cite=self.end_cite(ctx.state))

    def end_cite(self, state: MonopolyState) -> str:
        """The citation id of the rule that just ended the game."""
        return "end-last-standing"

    def story_counters(self) -> Sequence[Counter]:
        """The family's story lines (companion/monopoly/story.py); an edition with lines of
        its own declares them in its package."""
        return STORY_COUNTERS

    def ended(self, state: MonopolyState) -> tuple[list[str], str] | None:
        """The winners and why, once the game is over; None while it goes on."""
        left = None  # checked after every step: stop at the second player still in
        for p in state.players:
            if not p.bankrupt:
                if left is not None:
                    return None
                left = p
        if left is not None:
            return [left.id], Msg("{player} is the last player standing and wins!",
                                  player=left.name)
        return None

    # -- front ends -----------------------------------------------------------------------
    view_per_viewer = False
    """Every viewer sees the same view (no hidden hands): one view per version serves all."""

    def view(self, state: MonopolyState, viewer: str | None = None) -> dict[str, Any]:
        out = monopoly_view(self, state)
        out["extra"] = self.extra_view(state)
        out["panels"] = self.panels(state)
        return out

    pot_label: str | None = None
    """The edition's name for the pot in the middle of the board (a message id): when set,
    the page always shows the pot under it; else as "Pot", once there is money in it."""

    def board_marks(self, state: MonopolyState) -> BoardMarks:
        """Edition hook: its words on the board's spaces, its pieces that are no player's and
        its lines for the middle of the board (none by default)."""
        return NO_MARKS

    def panels(self, state: MonopolyState) -> list[Panel]:
        """Edition hook: its own sections of the table, in its words (none by default)."""
        return []

    def extra_view(self, state: MonopolyState) -> Mapping[str, object]:
        """Edition hook: the edition's own values for the page (``view["extra"]``; each
        edition types them with a TypedDict)."""
        return {}

    def interpret_tap(self, state: MonopolyState, obj: str, role: str) -> Command:
        """A token answers for its player (roll, or be picked as teammate); a location card
        buys, continues or sells that location when that is on offer; a deck card's tag names
        the card drawn from a physical deck. A tap is a claim the rules check, never money on
        its own."""
        kind, _, name = obj.partition(":")
        legal = self.actions(state)
        if kind == "token":
            player = next((p for p in state.active if p.token == name), None)
            if player is None:
                raise IllegalCommand(f"No player in this game has the {name} token.")
            for a in legal:
                if a.type == "choose" and a.args.get("option") == player.id:
                    return Command(a.actor, "choose", dict(a.args))
            for a in legal:
                if a.actor == player.id and a.type == "roll":
                    if state.setup.dice == "physical":
                        raise IllegalCommand("This game uses physical dice: enter the values "
                                             "on the page or with the buttons.")
                    return Command(player.id, "roll", {})
            raise IllegalCommand(f"{player.name}: nothing to do for you now. "
                                 f"{self.waiting_for(state)}")
        if kind == "location":
            try:
                space = state.b.find(name)
            except KeyError:
                raise IllegalCommand("That card is not on this board.") from None
            for a in legal:
                if a.type == "buy" and state.prompt and state.prompt.data.get("space") == (
                        space.index):
                    return Command(a.actor, "buy", {})
                if a.type in ("continue_location", "sell_to_bank") and a.args.get(
                        "space") == space.index:
                    return Command(a.actor, a.type, dict(a.args))
            owner = state.owner(space.index)
            who = state.name(owner) if owner else "the Bank"
            raise IllegalCommand(f"{space.name} belongs to {who}; nothing to do with it now.")
        if kind == "card":
            for a in legal:
                if a.type == "draw" and a.args.get("card") == name:
                    return Command(a.actor, "draw", dict(a.args))
            if state.prompt is not None and state.prompt.kind == DRAW.kind:
                why = self.refuse_draw(state, state.prompt.to[0], DrawArgs(name))
                raise IllegalCommand(why or "That card cannot be drawn now.")
            raise IllegalCommand("No card is to be drawn now; tap a card when the game asks.")
        return super().interpret_tap(state, obj, role)

    def tag_objects(self) -> list[tuple[str, str]]:
        """Objects that can carry an NFC tag: tokens, location cards, deck cards."""
        board = load_board(self.name)
        out: list[tuple[str, str]] = [(f"token:{t}", Msg("the {token} token", token=t))
                                      for t in board.tokens]
        out += [(f"location:{s.id}", Msg("the card of {space}", space=s.name))
                for s in board.spaces if s.ownable]
        for deck, cards in board.decks.items():
            out += [(f"card:{c.id}", Msg("the {deck} card \u201c{text}\u201d",
                                         deck=board.deck_titles[deck], text=c.text))
                    for c in cards]
        return out
