"""The prompts the engine's own commands answer: a roll (``roll``) and a choice
(``choose``), with the step each names to run next (:class:`~companion.engine.context.RollAsk`,
:class:`~companion.engine.context.ChoiceAsk`)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from companion.engine.commands import Dice, Small, takes
from companion.engine.context import ChoiceAsk, Ctx, RollAsk, ask_of
from companion.engine.i18n import Msg
from companion.engine.prompts import ChoicePrompt, RollPrompt
from companion.engine.state import BaseState, Task
from companion.engine.types import Action, IllegalCommand

S = TypeVar("S", bound=BaseState)


@dataclass(frozen=True)
class RollArgs:
    """Roll the dice a prompt asks for."""

    dice: Dice = None
    """The values of physical dice (none: the companion rolls digital dice)."""


@dataclass(frozen=True)
class ChooseArgs:
    """Pick one of the options the prompt offers."""

    option: Small = None
    """The chosen option's value."""


class GenericAsks(Generic[S]):
    """Mixed into :class:`companion.engine.rules.Rules`: asking for a roll or a choice, the
    actions such a prompt offers, and the ``roll`` and ``choose`` commands that answer it."""

    dice_names: tuple[str, ...] = ()
    """Names of the dice when a roll asks for that many (``input.names``: Mario's red and
    black); a roll of another count shows no names."""

    def prompt_actions(self, state: S) -> list[Action]:
        """The actions a prompt offers through its generic parts: a ``roll`` spec (answered by
        the ``roll`` command) and ``options`` (answered by ``choose``)."""
        prompt = state.prompt
        if prompt is None:
            return []
        out: list[Action] = []
        ask = ask_of(prompt)
        if isinstance(ask, RollAsk):
            # an old log's English label equals its message: the key tells them apart
            key = (ask.who, ask.count, ask.label, type(ask.label), state.setup.dice)
            roll = self._roll_actions.get(key)
            if roll is None:  # the same few per game: remembered (actions are immutable)
                roll = self._roll_actions[key] = self._roll_action(
                    ask.who, ask.count, ask.label, state.setup.dice)
            out.append(roll)
        elif isinstance(ask, ChoiceAsk):
            for value, label in ask.options:
                out.append(Action(prompt.to[0], ask.command, label, {"option": value}))
        return out

    def _roll_action(self, who: str, count: int, label: str, dice_mode: str) -> Action:
        dice: dict[str, Any] = {
            "kind": "dice",
            "count": count,
            "optional": dice_mode == "digital",
            "physical": dice_mode == "physical",
        }
        if self.dice_names and len(self.dice_names) == count:
            dice["names"] = list(self.dice_names)
        return Action(who, "roll", label, {}, dice)

    @functools.cached_property
    def _roll_actions(self) -> dict[tuple[str, int, str, type, str], Action]:
        """Roll actions by who rolls, how many dice, the button's label and the dice mode."""
        return {}

    def ask_roll(
        self,
        ctx: Ctx[S],
        prompt: RollPrompt,
        who: str,
        text: str,
        count: int,
        label: str = Msg("Roll"),
        **args: Any,
    ) -> None:
        """Wait for ``who`` to roll ``count`` dice, then run the prompt's step
        ``then(dice=..., **args)``."""
        ctx.ask(prompt, (who,), text, RollAsk(who, count, prompt.then, args, label))

    def ask_choice(
        self,
        ctx: Ctx[S],
        prompt: ChoicePrompt,
        who: str,
        text: str,
        options: list[tuple[Any, str]],
        **args: Any,
    ) -> None:
        """Wait for ``who`` to pick one of ``options`` ((value, label) pairs), then run the
        prompt's step ``then(option=value, **args)``."""
        ctx.ask(prompt, (who,), text, ChoiceAsk(tuple(options), prompt.then, args))

    @takes(RollArgs)
    def cmd_roll(self, ctx: Ctx[S], actor: str, args: RollArgs) -> None:
        """Roll (or enter) the dice the current prompt asks for; a roll no prompt spec asks
        for answers the edition's own dice round (:meth:`roll_in_round`)."""
        prompt = ctx.state.prompt
        ask = ask_of(prompt)
        if prompt is None or not isinstance(ask, RollAsk):
            self.roll_in_round(ctx, actor, args)
            return
        dice = ctx.roll(ask.count, args.dice, ask.who, prompt.kind)
        ctx.clear_prompt()
        ctx.then(Task(ask.task, {**ask.args, "dice": list(dice)}))

    def roll_in_round(self, ctx: Ctx[S], actor: str, args: RollArgs) -> None:
        """Edition hook: a roll for a dice round of the edition's own (Master Trainer: one
        die from each of several players), not a prompt's roll spec."""
        raise IllegalCommand(Msg("Nothing asks for a roll now."))

    @takes(ChooseArgs)
    def cmd_choose(self, ctx: Ctx[S], actor: str, args: ChooseArgs) -> None:
        """Pick one of the options the current prompt offers."""
        ask = ask_of(ctx.state.prompt)
        if not isinstance(ask, ChoiceAsk):
            raise IllegalCommand(Msg("Nothing asks for a choice now."))
        ctx.clear_prompt()
        ctx.then(Task(ask.task, {**ask.args, "option": args.option}))
