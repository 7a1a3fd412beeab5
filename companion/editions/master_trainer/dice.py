"""Dice rounds: everyone asked rolls one die, then Time Machine holders may force a re-roll."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.editions.master_trainer.base import MasterTrainerBase, State
from companion.editions.master_trainer.state import DiceRound
from companion.engine.asks import RollArgs
from companion.engine.commands import Dice, Id, NoArgs, takes
from companion.engine.event_format import EventData, fact
from companion.engine.i18n import Msg
from companion.engine.prompts import CommandPrompt
from companion.engine.rules import Ctx
from companion.engine.state import Task, evolve
from companion.engine.types import Action, IllegalCommand

MOVE_ROLL = CommandPrompt("turn")
"""Roll the die to move (before it: Potion, Fly)."""

DICE_ROLL = CommandPrompt("roll")
"""Roll one die each for a dice round other than the move."""

TIME_MACHINE = CommandPrompt("time_machine")
"""Play a Time Machine on the dice just rolled, or keep them."""

ASK_TEXT = {
    "move": lambda who: Msg("{players}: roll one die to move.", players=who),
    "order": lambda who: Msg("{players}: roll one die to decide who goes first.", players=who),
    "catch": lambda who: Msg("{players}: roll one die to catch.", players=who),
    "battle": lambda who: Msg("{players}: roll one die for the Trainer Battle.", players=who),
    "final": lambda who: Msg("{players}: roll one die for the Final Battle.", players=who),
    "rival": lambda who: Msg("{players}: roll one die to decide who plays the Pokémon Master.",
                             players=who),
    "revive": lambda who: Msg("{players}: roll one die for the Dice Challenge (1 or 6 revives "
                              "all).", players=who),
}
"""What each dice round asks of the players (a list of names)."""
ROLL_LABEL = {
    "move": Msg("Roll to move"),
    "order": Msg("Roll to decide who goes first"),
    "catch": Msg("Roll to catch"),
    "battle": Msg("Roll for the Trainer Battle"),
    "final": Msg("Roll for the Final Battle"),
    "rival": Msg("Roll to decide who plays the Pokémon Master"),
    "revive": Msg("Roll for the Dice Challenge (1 or 6 revives all)"),
}
"""The roll button of each dice round."""


@dataclass(frozen=True)
class TimeMachineArgs:
    """Play the Time Machine: the named player rolls their die again."""

    target: Id | None = None
    """The player whose roll is taken back."""
    dice: Dice = None
    """The new value (physical dice)."""


# -- the events of a dice round (applied by DiceRules' ``on_`` handlers) -----------------------
@fact("dice_round_started")
class DiceRoundStarted(EventData):
    """Each of ``waiting`` is to roll one die for ``purpose``; then task ``then`` runs with
    the rolls and ``args``."""

    purpose: str
    waiting: list[str]
    then: str
    args: dict[str, Any]


@fact("time_machine_window_opened")
class TimeMachineWindowOpened(EventData):
    """Everybody rolled: Time Machine holders may now make someone re-roll."""


@fact("time_machine_window_closed")
class TimeMachineWindowClosed(EventData):
    """A Time Machine re-roll was counted: the holders are asked again."""


@fact("dice_round_ended")
class DiceRoundEnded(EventData):
    """The dice round is over (or Fly was played instead of rolling)."""


class DiceRules(MasterTrainerBase):
    """``roll``, ``time_machine`` and ``keep``."""

    def on_dice_round_started(self, state: State, e: DiceRoundStarted) -> State:
        return evolve(state, dice=DiceRound(e.purpose, tuple(e.waiting), {}, e.then,
                                            dict(e.args)))

    def on_time_machine_window_opened(self, state: State, e: TimeMachineWindowOpened) -> State:
        assert state.dice is not None
        return evolve(state, dice=evolve(state.dice, window=True))

    def on_time_machine_window_closed(self, state: State, e: TimeMachineWindowClosed) -> State:
        assert state.dice is not None
        return evolve(state, dice=evolve(state.dice, window=False))

    def on_dice_round_ended(self, state: State, e: DiceRoundEnded) -> State:
        return evolve(state, dice=None)


    def start_dice(
        self, ctx: Ctx[State], purpose: str, who: list[str], then: str, **args: Any
    ) -> None:
        """Ask each of ``who`` for one die, then run task ``then(rolls=..., **args)``."""
        ctx.emit("dice_round_started", purpose=purpose, waiting=list(who), then=then,
                 args=args)
        self.ask_dice(ctx)

    def ask_dice(self, ctx: Ctx[State]) -> None:
        r = ctx.state.dice
        assert r is not None
        names = ", ".join(self.pname(ctx.state, w) for w in r.waiting)  # as the table says it
        prompt = MOVE_ROLL if r.purpose == "move" else DICE_ROLL
        ctx.ask(prompt, r.waiting, ASK_TEXT[r.purpose](names), purpose=r.purpose)

    def dice_actions(self, state: State) -> list[Action]:
        r = state.dice
        if r is None:
            return []
        digital = state.setup.dice == "digital"
        dice_input = {"kind": "dice", "count": 1, "optional": digital}
        if not r.window:
            return [
                Action(w, "roll", ROLL_LABEL[r.purpose], {}, dice_input)
                for w in r.waiting
            ]
        out = []
        for h in self.time_machine_holders(state):
            for w in r.rolls:
                out.append(Action(
                    h, "time_machine", Msg("Time Machine: {player} rolls again",
                                           player=self.pname(state, w)),
                    {"target": w}, dice_input,
                ))
            out.append(Action(h, "keep", Msg("Keep the dice as they are")))
        return out

    def roll_in_round(self, ctx: Ctx[State], actor: str, args: RollArgs) -> None:
        """``roll [value]``: roll your die for what the companion asks (enter the value you
        rolled when the game uses physical dice)."""
        r = ctx.state.dice
        assert r is not None
        (value,) = ctx.roll(1, args.dice, actor, r.purpose)
        self.count_die(ctx, actor, value)
        if ctx.state.dice and ctx.state.dice.waiting:
            self.ask_dice(ctx)
        else:
            self.after_dice(ctx)

    def count_die(self, ctx: Ctx[State], who: str, value: int) -> None:
        ctx.emit("die_counted", Msg("{player} rolled {n}.", player=self.pname(ctx.state, who),
                                    n=value),
                 player=who, value=value)

    def after_dice(self, ctx: Ctx[State]) -> None:
        """All dice are in: open the Time Machine window, or go on."""
        r = ctx.state.dice
        assert r is not None
        holders = self.time_machine_holders(ctx.state)
        if not holders:
            self.finish_dice(ctx)
            return
        ctx.emit("time_machine_window_opened")
        shown = ", ".join(f"{self.pname(ctx.state, w)} {v}" for w, v in r.rolls.items())
        names = ", ".join(self.pname(ctx.state, h) for h in holders)
        ctx.ask(TIME_MACHINE, holders,
                Msg("Dice: {rolls}. {players}: play a Time Machine to make someone re-roll, "
                    "or keep the dice.", rolls=shown, players=names))

    def time_machine_holders(self, state: State) -> list[str]:
        """Players who may play a Time Machine on the dice just rolled (the player acting as
        Pokémon Master plays no Item Cards in the Final Battle)."""
        holders = self.holders(state, "time_machine")
        if state.dice is not None and state.dice.purpose == "final" and state.battle:
            holders = [h for h in holders if h != state.battle.defender]
        return holders

    def finish_dice(self, ctx: Ctx[State]) -> None:
        r = ctx.state.dice
        assert r is not None
        ctx.clear_prompt()
        ctx.emit("dice_round_ended")
        ctx.then(Task(r.then, {**r.args, "rolls": dict(r.rolls)}))

    def cmd_keep(self, ctx: Ctx[State], actor: str, args: NoArgs) -> None:
        """``keep``: let the dice stand (no Time Machine)."""
        self.finish_dice(ctx)

    @takes(TimeMachineArgs)
    def cmd_time_machine(self, ctx: Ctx[State], actor: str, args: TimeMachineArgs) -> None:
        """``time_machine target=<player> [value]``: play a Time Machine right after a roll to
        make that player roll their die again (anyone's roll, your own too)."""
        r = ctx.state.dice
        assert r is not None
        target = args.target
        if target is None or target not in r.rolls:
            raise IllegalCommand(Msg("A Time Machine re-rolls a die that was just rolled."))
        self.return_items(
            ctx, actor, ["time_machine"],
            Msg("{player} plays a Time Machine: {other} must roll again (the card goes under "
                "the deck).", player=self.pname(ctx.state, actor),
                other=self.pname(ctx.state, target)),
        )
        (value,) = ctx.roll(1, args.dice, target, r.purpose)
        self.count_die(ctx, target, value)
        assert ctx.state.dice is not None
        ctx.emit("time_machine_window_closed")
        self.after_dice(ctx)
