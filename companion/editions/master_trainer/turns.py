"""Setting up, taking turns, landing on spaces, using items and the end of a turn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.editions.master_trainer.base import GOAL, State, data_of
from companion.editions.master_trainer.data import EditionData, unverified_words
from companion.editions.master_trainer.dice import DiceRules
from companion.editions.master_trainer.spaces import SPACES, Space, land_options
from companion.engine import rng as rng_mod
from companion.engine.commands import Small, takes
from companion.engine.event_format import EventData, fact
from companion.engine.i18n import Msg
from companion.engine.prompts import CommandPrompt
from companion.engine.registry import task
from companion.engine.rules import Ctx
from companion.engine.state import Task, evolve
from companion.engine.types import IllegalCommand

STARTER = CommandPrompt("starter")
"""Each player turns over a starter chip."""

LAND = CommandPrompt("land")
"""Say the space the mover landed on (or stop beside a trainer passed)."""

DISCARD = CommandPrompt("discard")
"""Discard Item Cards down to the hand limit."""


def chip_arg(raw: Any, data: EditionData) -> str:
    """A chip named by slug (``pidgey``), number (16), ``16-pidgey``, name or its tag
    ``chip:16-pidgey``; IllegalCommand if none matches."""
    slug = data.chip_named(str(raw).strip().lower().removeprefix("chip:"))
    if slug is None:
        raise IllegalCommand(Msg("There is no Pokémon chip called {name}.", name=repr(raw)))
    return slug


def reason(exc: Exception) -> str:
    """The refusal ``exc`` carries: its message (every language), else its text."""
    said = exc.args[0] if exc.args else ""
    return said if isinstance(said, Msg) else str(exc)


POTION_USE = Msg("A Potion revives one of your own knocked-out Pokémon.")
FLY_USE = Msg("Fly takes you to a city or town on the road, not on or into Indigo Plateau.")


@dataclass(frozen=True)
class ChipArgs:
    """A Pokémon chip the command names."""

    chip: Small = None
    """The chip's slug (or its tag's ``chip:<number>-<slug>``)."""


@dataclass(frozen=True)
class LandArgs:
    """Where the mover landed."""

    space: Small = None
    """The kind of space (``space:<kind>`` from its tag, or the kind itself)."""


@dataclass(frozen=True)
class DiscardArgs:
    """An Item Card to discard down to the hand limit."""

    item: Small = None


@dataclass(frozen=True)
class UseArgs:
    """Use an Item Card from the hand, on a chip or a space where the card needs one."""

    item: Small = None
    chip: Small = None
    space: Small = None


# -- the events of a turn's moves (applied by TurnRules' ``on_`` handlers) ---------------------
@fact("mover_moved")
class MoverMoved(EventData):
    """The current player rolled and moves their mover (they may stop beside one passed)."""


@fact("trainer_flew")
class TrainerFlew(EventData):
    """The current player played Fly instead of rolling."""


@fact("passed_mover_left")
class PassedMoverLeft(EventData):
    """The current player goes on to the space they rolled, past the mover beside them."""


@fact("landed_on_colour")
class LandedOnColour(EventData):
    """The current player's mover landed on a space of ``colour``."""

    colour: str


@fact("unknown_dungeon_entered")
class UnknownDungeonEntered(EventData):
    """Unknown Dungeon: the current player catches as on a yellow space."""


@fact("face_up_chip_at_stake")
class FaceUpChipAtStake(EventData):
    """The face-up ``chip`` on the current player's space is the one to catch."""

    chip: str


class TurnRules(DiceRules):
    """``starter``, ``land``, ``use``, ``discard`` and the turn cycle."""

    def on_mover_moved(self, state: State, e: MoverMoved) -> State:
        return evolve(state, moved=True, passed=True)

    def on_trainer_flew(self, state: State, e: TrainerFlew) -> State:
        return evolve(state, moved=True, flew=True, passed=False)

    def on_passed_mover_left(self, state: State, e: PassedMoverLeft) -> State:
        return evolve(state, passed=False)

    def on_landed_on_colour(self, state: State, e: LandedOnColour) -> State:
        return evolve(state, passed=False, landed_colour=e.colour)

    def on_unknown_dungeon_entered(self, state: State, e: UnknownDungeonEntered) -> State:
        return evolve(state, landed_colour="yellow")

    def on_face_up_chip_at_stake(self, state: State, e: FaceUpChipAtStake) -> State:
        return evolve(state, chip_at_stake=e.chip)


    # -- setting up -------------------------------------------------------------------------
    def start(self, ctx: Ctx[State]) -> None:
        data = data_of(ctx.state)
        items = tuple(k for k, n in data.item_deck.items() for _ in range(n))
        events = tuple(k for k, n in data.event_deck.items() for _ in range(n))
        items, nxt = rng_mod.shuffled(ctx.state.rng, items)
        events, nxt = rng_mod.shuffled(nxt, events)
        board = {c: min(n, len(data.of_colour(c))) for c, n in data.board_spaces.items()}
        ctx.emit(
            "decks_shuffled",
            Msg("The Item and Event Cards are shuffled; chips lie face down on the board's "
                "Catch'em spaces and the 4 legendary chips in the Unknown Dungeon."),
            items=list(items), events=list(events), rng=nxt, board_down=board,
        )
        if data.unverified:
            words = unverified_words(data)
            listed = words[-1]
            for word in reversed(words[:-1]):  # "a; b; c": each part may hold a comma
                listed = Msg("{first}; {rest}", first=word, rest=listed)
            ctx.say(Msg("Not printed in the rulebook, so guessed until the banker sets them: "
                        "{guesses}.", guesses=listed))
        for note in data.deck_notes:
            ctx.say(note)
        ctx.then(Task("deal_starters"))

    def free_starters(self, state: State) -> list[str]:
        taken = {t.starter for t in state.trainers}
        return [c.slug for c in data_of(state).of_colour("starter") if c.slug not in taken]

    @task("deal_starters")
    def task_deal_starters(self, ctx: Ctx[State]) -> None:
        waiting = [t.id for t in ctx.state.trainers if not t.starter]
        if not waiting:
            self.decide_order(ctx)
            return
        ctx.ask(STARTER, waiting,
                Msg("Each player picks a face-down starter chip and turns it over: tap it or "
                    "choose it."))

    @takes(ChipArgs)
    def cmd_starter(self, ctx: Ctx[State], actor: str, args: ChipArgs) -> None:
        """``starter [chip]``: the starter you turned over (or none: the companion draws one
        of the remaining starters at random)."""
        free = self.free_starters(ctx.state)
        raw = args.chip
        if raw in (None, ""):
            chip = free[ctx.draw(len(free))]
        else:
            chip = chip_arg(raw, data_of(ctx.state))
            if chip not in free:
                raise IllegalCommand(Msg(
                    "Each player gets one of the 6 starter chips still face down; {pokemon} is "
                    "not one of them.", pokemon=self.chip(ctx.state, chip).name))
        c = self.chip(ctx.state, chip)
        ctx.emit("starter_dealt",
                 Msg("{player}'s starter is {pokemon} ({power} Power Points, {attack} "
                     "{strength}).", player=self.pname(ctx.state, actor),
                     pokemon=c.name, power=c.power, attack=Msg(c.attack),
                     strength=c.strength),
                 player=actor, chip=chip)
        ctx.clear_prompt()
        ctx.then(Task("deal_starters"))

    def decide_order(self, ctx: Ctx[State], among: list[str] | None = None) -> None:
        state = ctx.state
        power = {t.id: self.chip(state, t.starter).power for t in state.trainers}
        weakest = min(power.values())
        tied = among or [pid for pid, p in power.items() if p == weakest]
        if len(tied) == 1:
            self.set_order(ctx, tied[0], Msg("{player} has the weakest starter and goes first; "
                                             "play passes to the left. Everyone starts in "
                                             "Pallet Town.", player=self.pname(state, tied[0])))
            return
        names = ", ".join(self.pname(state, p) for p in tied)
        ctx.say(Msg("{players} tie for the weakest starter: each rolls a die, the highest goes "
                    "first.", players=names))
        self.start_dice(ctx, "order", tied, "order_rolled")

    @task("order_rolled")
    def task_order_rolled(self, ctx: Ctx[State], rolls: dict[str, int]) -> None:
        best = max(rolls.values())
        top = [p for p, v in rolls.items() if v == best]
        if len(top) > 1:
            ctx.say(Msg("Tie for the highest roll: those players roll again."))
            self.start_dice(ctx, "order", top, "order_rolled")
            return
        self.set_order(ctx, top[0], Msg("{player} rolled highest of the weakest starters and "
                                        "goes first; play passes to the left. Everyone starts "
                                        "in Pallet Town.", player=self.pname(ctx.state, top[0])))

    def set_order(self, ctx: Ctx[State], first: str, say: str) -> None:
        seats = [p.id for p in ctx.state.setup.players]
        i = seats.index(first)
        order = seats[i:] + seats[:i]
        ctx.emit("turn_order_set", say, order=order)
        self.begin_turn(ctx, first)

    # -- a turn ------------------------------------------------------------------------------
    def begin_turn(self, ctx: Ctx[State], pid: str) -> None:
        ctx.emit("turn_started", Msg("{player}'s turn.", player=self.pname(ctx.state, pid)),
                 player=pid)
        self.start_dice(ctx, "move", [pid], "moved")

    @task("moved")
    def task_moved(self, ctx: Ctx[State], rolls: dict[str, int]) -> None:
        pid = ctx.state.current
        assert pid is not None
        ctx.emit("mover_moved")
        self.ask_land(ctx, Msg("{player} rolled {n}: move your mover, then say where it landed "
                               "(or stop beside a mover you passed).",
                               player=self.pname(ctx.state, pid), n=rolls[pid]))

    def ask_land(self, ctx: Ctx[State], text: str) -> None:
        assert ctx.state.current is not None
        ctx.ask(LAND, (ctx.state.current,), text)

    def must_enter_plateau(self, state: State, pid: str) -> bool:
        """On Cinnabar Island with 20 Power Points of revived Pokémon: on to the Plateau."""
        t = state.trainer(pid)
        return t.place == "cinnabar" and self.power(state, pid) >= GOAL

    def may_fly(self, state: State, pid: str) -> bool:
        """Fly is for the road: not on Indigo Plateau, nor when entering it."""
        return not state.trainer(pid).on_plateau and not self.must_enter_plateau(state, pid)

    def allowed_spaces(self, state: State) -> tuple[Space, ...]:
        assert state.current is not None
        t = state.trainer(state.current)
        return land_options(
            flew=state.flew, on_plateau=t.on_plateau,
            may_enter=self.must_enter_plateau(state, t.id),
        )

    @takes(LandArgs)
    def cmd_land(self, ctx: Ctx[State], actor: str, args: LandArgs) -> None:
        """``land <space>``: where your mover landed: town, town-no-draw, catch-<colour>,
        event-<colour>, cerulean, vermilion, cinnabar, plateau, plateau-catch-<colour>, final
        (or tap the space's tag)."""
        raw = ("" if args.space is None else str(args.space)).removeprefix("space:")
        allowed = self.allowed_spaces(ctx.state)
        space = SPACES.get(raw)
        if space is None:
            raise IllegalCommand(Msg("There is no space kind {kind}.", kind=repr(raw)))
        if not any(s is space for s in allowed):  # SPACES' own objects: no field compares
            raise IllegalCommand(self.why_not_space(ctx.state, space))
        ctx.clear_prompt()
        ctx.then(Task("landed", {"space": space.key}))

    def why_not_space(self, state: State, space: Space) -> str:
        assert state.current is not None
        t = state.trainer(state.current)
        if state.flew:
            return Msg("Fly takes you to a city or town only.")
        if t.on_plateau:
            return Msg("On Indigo Plateau you keep going around the track until ENTER Final "
                       "Battle.")
        if self.must_enter_plateau(state, t.id):
            return Msg("With 20 Power Points on Cinnabar Island, the mover goes on into Indigo "
                       "Plateau.")
        return Msg("Only a player with 20 Power Points of revived Pokémon who starts the turn on "
                   "Cinnabar Island may enter Indigo Plateau.")

    def end_turn(self, ctx: Ctx[State]) -> None:
        ctx.then(Task("turn_end"))

    @task("turn_end")
    def task_turn_end(self, ctx: Ctx[State]) -> None:
        pid = ctx.state.current
        assert pid is not None
        t = ctx.state.trainer(pid)
        power = self.power(ctx.state, pid)
        if power >= GOAL and not t.on_plateau and t.place != "cinnabar":
            ctx.emit("mover_placed",
                     Msg("{player} has {n} Power Points of revived Pokémon at the end of the "
                         "turn: straight to Cinnabar Island.", player=self.pname(ctx.state, pid),
                         n=power),
                     player=pid, place="cinnabar", on_plateau=False, cite="cinnabar")
            self.draw_items(ctx, pid, data_of(ctx.state).limits["cinnabar_items"],
                            Msg("Cinnabar Island"), "cinnabar-items")
            if ctx.state.prompt is not None:  # the real pile: the hand is checked after
                ctx.then(Task("hand_check"))
                return
        self.check_hand(ctx)

    @task("hand_check")
    def task_hand_check(self, ctx: Ctx[State]) -> None:
        self.check_hand(ctx)

    def check_hand(self, ctx: Ctx[State]) -> None:
        pid = ctx.state.current
        assert pid is not None
        limit = data_of(ctx.state).limits["hand_limit"]
        extra = len(ctx.state.trainer(pid).items) - limit
        if extra > 0:
            ctx.ask(DISCARD, (pid,),
                    Msg("{player} holds more than {limit} Item Cards at the end of the turn: "
                        "discard (or play) {n}.", player=self.pname(ctx.state, pid),
                        limit=limit, n=extra))
            return
        self.begin_turn(ctx, self.next_player(ctx.state))

    @takes(DiscardArgs)
    def cmd_discard(self, ctx: Ctx[State], actor: str, args: DiscardArgs) -> None:
        """``discard <item>``: put one Item Card under the deck (hand limit 7)."""
        card = self.held_card(ctx.state, actor, args.item)
        self.return_items(ctx, actor, [card],
                          Msg("{player} discards {card} (at most 7 Item Cards in hand).",
                              player=self.pname(ctx.state, actor),
                              card=self.item_name(ctx.state, card)))
        ctx.clear_prompt()
        self.check_hand(ctx)

    def held_card(self, state: State, pid: str, raw: Any) -> str:
        card = str(raw or "").strip().lower().replace(" ", "_").replace("-", "_")
        names = data_of(state).item_names
        if card not in names:
            raise IllegalCommand(Msg("There is no Item Card {card}: one of {cards}.",
                                     card=repr(raw), cards=", ".join(names)))
        if card not in state.trainer(pid).items:
            raise IllegalCommand(Msg("{player} holds no {card} card.",
                                     player=self.pname(state, pid), card=names[card]))
        return card

    # -- items played on your own turn -------------------------------------------------------
    def refuse_use(self, state: State, actor: str, args: UseArgs) -> str:
        """Why ``use`` cannot be played now, in the item's own words ("" when it may be, or
        when only the generic reason applies). Pure: nothing is tried on a scratch game."""
        pid = actor
        if pid not in {t.id for t in state.trainers}:
            return ""
        try:
            card = self.held_card(state, pid, args.item)
            if card == "potion":
                chip = chip_arg(args.chip, data_of(state))
                if chip not in state.trainer(pid).knocked_out:
                    return POTION_USE
        except IllegalCommand as exc:
            return reason(exc)
        if card == "fly" and state.current == pid and not self.may_fly(state, pid):
            return FLY_USE
        if card not in ("potion", "fly"):
            return self.not_played(state, card)
        return ""

    def not_played(self, state: State, card: str) -> str:
        return Msg("{card} is not played this way: Poké Balls when catching, Attack Bonus cards "
                   "in a battle, Time Machine right after a roll, Poké Doll when challenged or "
                   "forced to trade.", card=self.item_name(state, card))

    @takes(UseArgs)
    def cmd_use(self, ctx: Ctx[State], actor: str, args: UseArgs) -> None:
        """``use item=potion <chip>`` revives one of your knocked-out Pokémon;
        ``use item=fly`` instead of rolling: fly to any city or town."""
        state = ctx.state
        pid = actor
        card = self.held_card(state, pid, args.item)
        name = self.pname(state, pid)
        if card == "potion":
            chip = chip_arg(args.chip, data_of(state))
            if chip not in state.trainer(pid).knocked_out:
                raise IllegalCommand(POTION_USE)
            self.return_items(ctx, pid, [card], Msg("{player} plays a Potion.", player=name))
            ctx.emit("revived", Msg("{pokemon} is revived: it can fight and counts its Power "
                                    "Points again.", pokemon=self.chip(state, chip).name),
                     player=pid, chips=[chip])
            if ctx.state.prompt is not None and ctx.state.prompt.kind == DISCARD.kind:
                ctx.clear_prompt()
                self.check_hand(ctx)
            return
        if card == "fly":
            if not self.may_fly(state, pid):
                raise IllegalCommand(FLY_USE)
            self.return_items(ctx, pid, [card], Msg("{player} plays Fly instead of rolling.",
                                                    player=name))
            ctx.emit("dice_round_ended")
            ctx.emit("trainer_flew")
            self.ask_land(ctx, Msg("{player}: fly your mover to any city or town and say which.",
                                   player=name))
            return
        raise IllegalCommand(self.not_played(state, card))
