"""Shared look-ups and every ``on_<event>`` handler: how each fact changes the table."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from companion.editions.master_trainer.data import (
    COLOURS,
    Chip,
    EditionData,
    evolution_bonuses,
    load,
)
from companion.editions.master_trainer.facts import (
    BattleChanged,
    ChipCaught,
    ChipRevealed,
    DecksShuffled,
    DiceRoundChanged,
    DieCounted,
    EventCardNamed,
    EventDrawn,
    ItemCardNamed,
    ItemsDrawn,
    ItemsHandedOver,
    ItemsReturned,
    ItemsTaken,
    KnockedOut,
    MoverPlaced,
    Revived,
    StarterDealt,
    Traded,
    TurnFlagsSet,
    TurnOrderSet,
    TurnStarted,
)
from companion.editions.master_trainer.page import PAGE
from companion.editions.master_trainer.state import (
    Battle,
    DiceRound,
    MasterTrainerState,
    Trainer,
)
from companion.engine.ending import BankerEnding
from companion.engine.i18n import Msg, Msgs
from companion.engine.prompts import CommandPrompt
from companion.engine.rules import Ctx, Rules
from companion.engine.state import evolve

DRAW_ITEMS = CommandPrompt("draw_items")
"""Name each Item Card drawn from the real pile."""

RIVAL_CARD = CommandPrompt("rival_card")
"""The Pokémon Master names the Rival Card drawn from the real pile (kept secret)."""

State = MasterTrainerState
LOG_SIZE = 12
GOAL = 20
_FLAGS = tuple(f.name for f in fields(TurnFlagsSet))


_by_setup: dict[int, tuple[object, EditionData]] = {}
"""Each game's edition data by its setup (a setup never changes), so it is loaded once."""


def data_of(state: State) -> EditionData:
    """The edition data with this game's settings applied (loaded once per setup)."""
    setup = state.setup
    hit = _by_setup.get(id(setup))
    if hit is None or hit[0] is not setup:
        if len(_by_setup) > 64:
            _by_setup.clear()
        hit = _by_setup[id(setup)] = (setup, load(setup.settings))
    return hit[1]


def without(items: tuple[str, ...], remove: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """``items`` minus one copy of each of ``remove``."""
    out = list(items)
    for card in remove:
        out.remove(card)
    return tuple(out)


class MasterTrainerBase(BankerEnding, Rules[MasterTrainerState]):
    """Look-ups every part of the rules uses, and the pure event handlers."""

    name = "master-trainer"
    title = "Pokémon Master Trainer"
    page = PAGE
    family = "master-trainer"

    # -- look-ups ---------------------------------------------------------------------------
    def chip(self, state: State, slug: str) -> Chip:
        return data_of(state).chips[slug]

    pname = Rules.actor_name
    """A player's name: the engine's ``actor_name`` itself (called a few times a command)."""

    def power(self, state: State, pid: str) -> int:
        """Power Points of the player's revived Pokémon (knocked-out ones do not count)."""
        t = state.trainer(pid)
        return sum(self.chip(state, c).power for c in t.team if c not in t.knocked_out)

    def able(self, state: State, pid: str) -> list[str]:
        """Team members that can fight (not knocked out)."""
        t = state.trainer(pid)
        return [c for c in t.team if c not in t.knocked_out]

    def tradeable(self, state: State, pid: str) -> list[str]:
        """Team members that may be traded: every one except the starter."""
        t = state.trainer(pid)
        return [c for c in t.team if c != t.starter]

    def strength(self, state: State, pid: str, slug: str) -> int:
        """Attack Strength with the Evolution Bonus the player's team earns."""
        bonus = evolution_bonuses(state.trainer(pid).team, data_of(state)).get(slug, 0)
        return self.chip(state, slug).strength + bonus

    def hidden(self, state: State, colour: str) -> list[str]:
        """Chips of ``colour`` lying face down (on the board or in the tray / the dungeon)."""
        owned = {c for t in state.trainers for c in t.team}
        return [
            c.slug for c in data_of(state).of_colour(colour)
            if c.slug not in owned and c.slug not in state.face_up
        ]

    def tray(self, state: State, colour: str) -> int:
        """Chips of ``colour`` still in the storage tray."""
        return len(self.hidden(state, colour)) - state.board_down.get(colour, 0)

    def on_board(self, state: State, colour: str) -> tuple[list[str], list[str]]:
        """(face-up chips, face-down candidates) of ``colour`` that a player may find on the
        board; face-down ones are any hidden chip, as long as one lies on the board."""
        up = [c for c in state.face_up if self.chip(state, c).colour == colour]
        down = self.hidden(state, colour) if state.board_down.get(colour, 0) > 0 else []
        return up, down

    def holders(self, state: State, card: str) -> list[str]:
        return [t.id for t in state.trainers if card in t.items]

    def next_player(self, state: State) -> str:
        assert state.current is not None
        i = state.order.index(state.current)
        return state.order[(i + 1) % len(state.order)]

    def item_name(self, state: State, card: str) -> str:
        return data_of(state).item_names[card]

    # -- emitting helpers ------------------------------------------------------------------
    def physical_decks(self, state: State) -> bool:
        return bool(state.setup.settings.get("decks", "virtual") == "physical")

    def draw_items(self, ctx: Ctx[State], pid: str, count: int, why: str, cite: str) -> None:
        """``pid`` draws ``count`` Item Cards from the top of the deck, as rule ``cite`` says
        (``why``: the message naming the reason, "City or town").
        With the real pile (``decks=physical``) this asks which cards were drawn
        (``draw_items`` prompt, one ``draw card=<kind>`` each; the prompt keeps ``cite``);
        the caller's next steps must be on the to-do list."""
        count = min(count, len(ctx.state.items_deck))
        name = self.pname(ctx.state, pid)
        if count == 0:
            ctx.emit("noted", Msg("{why}: the Item Card deck is empty, so {player} draws "
                                  "nothing.", why=why, player=name), cite=cite)
            return
        if self.physical_decks(ctx.state):
            self.ask_item_draw(ctx, pid, count, why, cite)
            return
        say = Msg("{why}: {player} draws an Item Card.", why=why, player=name) if count == 1 \
            else Msgs("{why}: {player} draws {n} Item Card.", "{why}: {player} draws {n} Item "
                      "Cards.", count, why=why, player=name)
        ctx.emit("items_drawn", say, player=pid, count=count, cite=cite)

    @staticmethod
    def items_above(state: State) -> tuple[str, ...]:
        """Item Cards that can come off the real pile now: those above the used ones put
        under it since the pile last came round."""
        top = state.items_top
        return state.items_deck[:top] if top else state.items_deck

    def ask_item_draw(self, ctx: Ctx[State], pid: str, count: int, why: str,
                      cite: str) -> None:
        above = set(self.items_above(ctx.state))
        cards = [k for k in data_of(ctx.state).item_names if k in above]
        name = self.pname(ctx.state, pid)
        text = Msg("{why}: {player} draws an Item Card from the real pile: tap each or pick "
                   "it.", why=why, player=name) if count == 1 else \
            Msgs("{why}: {player} draws {n} Item Card from the real pile: tap each or pick it.",
                 "{why}: {player} draws {n} Item Cards from the real pile: tap each or pick it.",
                 count, why=why, player=name)
        ctx.ask(DRAW_ITEMS, (pid,), text, cards=cards, count=count, why=why, cite=cite)

    def return_items(self, ctx: Ctx[State], pid: str, cards: list[str], say: str) -> None:
        """Used or discarded Item Cards go face down under the deck."""
        ctx.emit("items_returned", say, player=pid, cards=list(cards))

    # -- applying events -------------------------------------------------------------------
    def note_said(self, state: State, say: str) -> State:
        return evolve(state, log=(*state.log, say)[-LOG_SIZE:])

    def on_decks_shuffled(self, state: State, e: DecksShuffled) -> State:
        return evolve(
            state, items_deck=tuple(e.items), events_deck=tuple(e.events),
            rng=e.rng, board_down=dict(e.board_down),
        )

    def on_starter_dealt(self, state: State, e: StarterDealt) -> State:
        t = state.trainer(e.player)
        return state.with_trainer(evolve(t, starter=e.chip, team=(e.chip,)))

    def on_turn_order_set(self, state: State, e: TurnOrderSet) -> State:
        return evolve(state, order=tuple(e.order))

    def on_turn_started(self, state: State, e: TurnStarted) -> State:
        return evolve(
            state, current=e.player, moved=False, flew=False, passed=False,
            landed_colour="", chip_at_stake="", battle=None, offer=None,
        )

    def on_turn_flags_set(self, state: State, e: TurnFlagsSet) -> State:  # legacy
        return evolve(state, **{k: v for k in _FLAGS if (v := getattr(e, k)) is not None})

    def on_dice_round_changed(self, state: State, e: DiceRoundChanged) -> State:  # legacy
        raw = e.round
        if raw is None:
            return evolve(state, dice=None)
        return evolve(
            state,
            dice=DiceRound(
                raw["purpose"], tuple(raw["waiting"]), dict(raw["rolls"]), raw["then"],
                dict(raw["args"]), raw["window"],
            ),
        )

    def on_die_counted(self, state: State, e: DieCounted) -> State:
        assert state.dice is not None
        who = e.player
        return evolve(
            state,
            dice=evolve(
                state.dice,
                waiting=tuple(w for w in state.dice.waiting if w != who),
                rolls={**state.dice.rolls, who: e.value},
            ),
        )

    def on_items_drawn(self, state: State, e: ItemsDrawn) -> State:
        n = e.count
        t = state.trainer(e.player)
        new = state.with_trainer(evolve(t, items=t.items + state.items_deck[:n]))
        return evolve(new, items_deck=state.items_deck[n:])

    def on_items_returned(self, state: State, e: ItemsReturned) -> State:
        t = state.trainer(e.player)
        new = state.with_trainer(evolve(t, items=without(t.items, e.cards)))
        return evolve(new, items_deck=state.items_deck + tuple(e.cards))

    def on_items_taken(self, state: State, e: ItemsTaken) -> State:
        loser, winner = state.trainer(e.loser), state.trainer(e.winner)
        state = state.with_trainer(evolve(loser, items=without(loser.items, e.cards)))
        winner = state.trainer(e.winner)
        return state.with_trainer(evolve(winner, items=winner.items + tuple(e.cards)))

    def on_event_drawn(self, state: State, e: EventDrawn) -> State:
        deck = state.events_deck
        return evolve(state, events_deck=deck[1:] + deck[:1])

    def on_item_card_named(self, state: State, e: ItemCardNamed) -> State:
        t = state.trainer(e.player)
        new = state.with_trainer(evolve(t, items=(*t.items, e.card)))
        return evolve(new, items_deck=tuple(e.deck), items_top=e.top)

    def on_event_card_named(self, state: State, e: EventCardNamed) -> State:
        return evolve(state, events_deck=tuple(e.deck), events_top=e.top)

    def on_chip_revealed(self, state: State, e: ChipRevealed) -> State:
        chip = e.chip
        colour = self.chip(state, chip).colour
        if colour not in COLOURS:
            return evolve(state, chip_at_stake=chip)
        down = {**state.board_down, colour: state.board_down.get(colour, 0) - 1}
        return evolve(state, board_down=down, face_up=(*state.face_up, chip), chip_at_stake=chip)

    def on_chip_caught(self, state: State, e: ChipCaught) -> State:
        chip = e.chip
        colour = self.chip(state, chip).colour
        down = dict(state.board_down)
        if e.face_down:
            down[colour] -= 1
        if e.refill:
            down[colour] += 1
        t = state.trainer(e.player)
        state = state.with_trainer(evolve(t, team=(*t.team, chip)))
        return evolve(
            state, board_down=down, face_up=tuple(c for c in state.face_up if c != chip)
        )

    def on_knocked_out(self, state: State, e: KnockedOut) -> State:
        t = state.trainer(e.player)
        return state.with_trainer(evolve(t, knocked_out=(*t.knocked_out, e.chip)))

    def on_revived(self, state: State, e: Revived) -> State:
        t = state.trainer(e.player)
        back = set(e.chips)
        return state.with_trainer(
            evolve(t, knocked_out=tuple(c for c in t.knocked_out if c not in back))
        )

    def on_traded(self, state: State, e: Traded) -> State:
        a, b = state.trainer(e.a), state.trainer(e.b)
        give, take = e.give, e.take
        a2 = evolve(
            a,
            team=tuple(take if c == give else c for c in a.team),
            knocked_out=tuple(c for c in a.knocked_out if c != give)
            + ((take,) if take in b.knocked_out else ()),
        )
        b2 = evolve(
            b,
            team=tuple(give if c == take else c for c in b.team),
            knocked_out=tuple(c for c in b.knocked_out if c != take)
            + ((give,) if give in a.knocked_out else ()),
        )
        return state.with_trainer(a2).with_trainer(b2)

    def on_mover_placed(self, state: State, e: MoverPlaced) -> State:
        t = state.trainer(e.player)
        return state.with_trainer(evolve(t, place=e.place, on_plateau=e.on_plateau))

    def on_battle_changed(self, state: State, e: BattleChanged) -> State:  # legacy
        raw = e.battle
        if raw is None:
            return evolve(state, battle=None)
        return evolve(
            state,
            battle=Battle(
                raw["kind"], raw["challenger"], raw["defender"], dict(raw["fighters"]),
                {k: tuple(v) for k, v in raw["bonus"].items()}, raw["rival"], raw["revealed"],
            ),
        )

    def on_items_handed_over(self, state: State, e: ItemsHandedOver) -> State:
        giver = state.trainer(e.giver)
        state = state.with_trainer(evolve(giver, items=without(giver.items, e.cards)))
        taker = state.trainer(e.to)
        return state.with_trainer(evolve(taker, items=taker.items + tuple(e.cards)))


def battle_json(b: Battle) -> dict[str, Any]:
    return {
        "kind": b.kind, "challenger": b.challenger, "defender": b.defender,
        "fighters": dict(b.fighters), "bonus": {k: list(v) for k, v in b.bonus.items()},
        "rival": b.rival, "revealed": b.revealed,
    }


def round_json(r: DiceRound) -> dict[str, Any]:
    return {
        "purpose": r.purpose, "waiting": list(r.waiting), "rolls": dict(r.rolls),
        "then": r.then, "args": dict(r.args), "window": r.window,
    }


def initial_trainers(ids: list[str]) -> tuple[Trainer, ...]:
    return tuple(Trainer(pid) for pid in ids)
