"""What a space does: item draws, Catch'em, Event Cards (drawn: :mod:`cards`), Pokémon
Centers, Cinnabar Island."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from companion.editions.master_trainer import catching
from companion.editions.master_trainer.base import State, data_of
from companion.editions.master_trainer.catching import catching_adjustment
from companion.editions.master_trainer.data import CHIP_WORDS, COLOURS, Ball
from companion.editions.master_trainer.spaces import SPACES
from companion.editions.master_trainer.turns import ChipArgs, TurnRules, chip_arg
from companion.engine.commands import NoArgs, Small, takes
from companion.engine.i18n import Msg
from companion.engine.prompts import CommandPrompt
from companion.engine.registry import task
from companion.engine.rules import Ctx, cites
from companion.engine.types import IllegalCommand

REVEAL = CommandPrompt("reveal")
"""Turn over the chip on the space and name it."""

CATCH = CommandPrompt("catch")
"""Throw a Poké Ball (or none) at the chip, then roll."""

REVIVE = CommandPrompt("revive")
"""Pokémon Center: revive one knocked-out Pokémon, or take the Dice Challenge."""

REVEALED: dict[str, Callable[[str, int, str], str]] = {
    "pink": lambda pokemon, power, faces: Msg(
        "The chip is {pokemon} (pink, {power} Power Points): caught by rolling {faces}.",
        pokemon=pokemon, power=power, faces=faces),
    "green": lambda pokemon, power, faces: Msg(
        "The chip is {pokemon} (green, {power} Power Points): caught by rolling {faces}.",
        pokemon=pokemon, power=power, faces=faces),
    "blue": lambda pokemon, power, faces: Msg(
        "The chip is {pokemon} (blue, {power} Power Points): caught by rolling {faces}.",
        pokemon=pokemon, power=power, faces=faces),
    "red": lambda pokemon, power, faces: Msg(
        "The chip is {pokemon} (red, {power} Power Points): caught by rolling {faces}.",
        pokemon=pokemon, power=power, faces=faces),
    "yellow": lambda pokemon, power, faces: Msg(
        "The chip is {pokemon} (yellow, {power} Power Points): caught by rolling {faces}.",
        pokemon=pokemon, power=power, faces=faces),
}
"""The line that names a chip turned over, by its colour (the colour agrees with the chip)."""

Revive = Callable[[str], str]
"""The line a revival says, given the names of the Pokémon revived."""


def center_revives(names: str) -> str:
    """The line of a Pokémon Center city's revival."""
    return Msg("The Pokémon Center revives {pokemon}: back to fighting and counting Power "
               "Points.", pokemon=names)


@dataclass(frozen=True)
class CatchArgs:
    """Throw a ball at the Pokémon revealed (or none)."""

    ball: Small = None
    """``poke_ball``, ``great_ball``, ``ultra_ball``, ``master_ball`` or ``none``."""


class LandingRules(TurnRules):
    """``reveal``, ``catch``, ``skip``, ``revive`` and ``challenge``."""

    @task("landed")
    def task_landed(self, ctx: Ctx[State], space: str) -> None:
        s = SPACES[space]
        state = ctx.state
        pid = state.current
        assert pid is not None
        name = self.pname(state, pid)
        on_plateau = s.kind in ("plateau", "plateau-catch", "final")
        ctx.emit("mover_placed", Msg("{player} lands on {space}.", player=name, space=s.label),
                 player=pid, place=s.key,
                 on_plateau=on_plateau, cite="move")
        ctx.emit("landed_on_colour", colour=s.colour)
        if s.kind == "town":
            self.draw_items(ctx, pid, data_of(state).city_items, Msg("City or town"),
                            "city-items")
        elif s.kind == "cinnabar":
            self.draw_items(ctx, pid, data_of(state).limits["cinnabar_items"],
                            Msg("Cinnabar Island"), "cinnabar-items")
        elif s.kind in ("catch", "plateau-catch"):
            self.ask_reveal(ctx, s.colour)
            return
        elif s.kind == "event":
            self.draw_event(ctx)
            return
        elif s.kind == "center":
            self.pokemon_center_space(ctx)
            return
        elif s.kind == "final":
            self.enter_final(ctx)
            return
        self.end_turn(ctx)

    @abstractmethod
    def enter_final(self, ctx: Ctx[State]) -> None:
        """ENTER Final Battle (written in :mod:`battles`)."""

    @abstractmethod
    def draw_event(self, ctx: Ctx[State]) -> None:
        """Draw an Event Card (written in :mod:`cards`)."""

    # -- catching ----------------------------------------------------------------------------
    def reveal_candidates(self, state: State) -> tuple[list[str], list[str]]:
        """(face-up, face-down) chips the current player may turn over or pick."""
        colour = state.landed_colour
        if colour == "yellow":
            return [], self.hidden(state, "yellow")
        return self.on_board(state, colour)

    def ask_reveal(self, ctx: Ctx[State], colour: str) -> None:
        up, down = self.reveal_candidates(ctx.state)
        if not up and not down:
            ctx.say(Msg("No {chip} is left on the board: nothing to catch.",
                        chip=CHIP_WORDS[colour]))
            self.end_turn(ctx)
            return
        assert ctx.state.current is not None
        ctx.ask(REVEAL, (ctx.state.current,),
                Msg("Turn over the chip on the Unknown Dungeon and tap it (or choose it).")
                if colour == "yellow" else
                Msg("Turn over the chip on the space and tap it (or choose it)."), colour=colour)

    @takes(ChipArgs)
    def cmd_reveal(self, ctx: Ctx[State], actor: str, args: ChipArgs) -> None:
        """``reveal [chip]``: the chip you turned over (or tapped); without a chip the
        companion picks one of the face-down chips for you."""
        up, down = self.reveal_candidates(ctx.state)
        raw = args.chip
        if raw in (None, ""):
            if not down:
                raise IllegalCommand(Msg("No face-down chip is left here: name the face-up "
                                         "chip."))
            chip = down[ctx.draw(len(down))]
        else:
            chip = chip_arg(raw, data_of(ctx.state))
            if chip not in up and chip not in down:
                raise IllegalCommand(self.not_here(ctx.state, chip))
        c = self.chip(ctx.state, chip)
        faces = ", ".join(str(f) for f in c.catch)
        if chip in down:
            ctx.emit("chip_revealed", REVEALED[c.colour](c.name, c.power, faces), chip=chip)
        else:
            ctx.emit("face_up_chip_at_stake", Msg("{pokemon} lies face up here: caught by "
                                                  "rolling {faces}.", pokemon=c.name,
                                                  faces=faces), chip=chip)
        ctx.clear_prompt()
        self.ask_catch(ctx)

    def not_here(self, state: State, chip: str) -> str:
        c = self.chip(state, chip)
        owner = state.owner(chip)
        if owner:
            return Msg("{pokemon} is already in {player}'s team.", pokemon=c.name,
                       player=self.pname(state, owner))
        if state.landed_colour == "yellow":
            return Msg("Only the legendary chips of the Unknown Dungeon can be found there.")
        return Msg("{pokemon} is a {chip}; this space holds a {other}.", pokemon=c.name,
                   chip=CHIP_WORDS[c.colour], other=CHIP_WORDS[state.landed_colour])

    def balls_held(self, state: State, pid: str) -> list[Ball]:
        items = state.trainer(pid).items
        return [b for k, b in data_of(state).balls.items() if k in items]

    def catch_choices(self, state: State) -> list[tuple[str, str]]:
        """(ball, label with the exact odds) for the current player's catch attempt."""
        assert state.current is not None
        balls = tuple(self.balls_held(state, state.current))
        return list(catching.catch_choices(self.chip(state, state.chip_at_stake), balls))

    def ask_catch(self, ctx: Ctx[State]) -> None:
        c = self.chip(ctx.state, ctx.state.chip_at_stake)
        labels = [label for _, label in self.catch_choices(ctx.state)]
        odds = labels[-1]
        for label in reversed(labels[:-1]):
            odds = Msg("{first}; {rest}", first=label, rest=odds)
        assert ctx.state.current is not None
        ctx.ask(CATCH, (ctx.state.current,),
                Msg("Try to catch {pokemon}? Odds: {odds}. One Poké Ball at most, played before "
                    "the roll.", pokemon=c.name, odds=odds), chip=c.slug)

    @takes(CatchArgs)
    def cmd_catch(self, ctx: Ctx[State], actor: str, args: CatchArgs) -> None:
        """``catch [ball]``: try to catch the chip, with ball none, great, ultra or master;
        then roll."""
        choice = str(args.ball or "none").lower().removesuffix("_ball")
        keys = dict(self.catch_choices(ctx.state))
        if choice not in keys:
            raise IllegalCommand(Msg("Play one Poké Ball you hold (great, ultra or master) or "
                                     "none."))
        pid = actor
        ball = "" if choice == "none" else f"{choice}_ball"
        if ball:
            name = self.item_name(ctx.state, ball)
            player = self.pname(ctx.state, pid)
            self.return_items(ctx, pid, [ball], Msg(
                "{player} plays an {ball} ({odds}).", player=player, ball=name, odds=keys[choice])
                if name[0] in "AEIOU" else Msg("{player} plays a {ball} ({odds}).",
                                               player=player, ball=name, odds=keys[choice]))
        ctx.clear_prompt()
        self.start_dice(ctx, "catch", [pid], "catch_rolled", ball=ball)

    @task("catch_rolled")
    @cites("catch")
    def task_catch_rolled(self, ctx: Ctx[State], rolls: dict[str, int], ball: str) -> None:
        state = ctx.state
        pid = state.current
        assert pid is not None
        chip = self.chip(state, state.chip_at_stake)
        roll = rolls[pid]
        b = data_of(state).balls.get(ball) if ball else None
        adjust = catching_adjustment(roll, chip, b)
        name = self.pname(state, pid)
        if adjust is None:
            if chip.colour == "yellow":
                ctx.say(Msg("{n} does not catch {pokemon}: its chip goes back face down in the "
                            "Unknown Dungeon and the legendary chips are mixed again.", n=roll,
                            pokemon=chip.name))
            else:
                ctx.say(Msg("{n} does not catch {pokemon}: it stays face up on the board for "
                            "anyone to try later.", n=roll, pokemon=chip.name))
        else:
            how = f"{roll}{adjust:+d} = {roll + adjust}" if adjust else str(roll)
            self.give_chip(ctx, pid, chip.slug, Msg("{player} rolls {roll} and catches {pokemon}",
                                                    player=name, roll=how, pokemon=chip.name))
        self.end_turn(ctx)

    def give_chip(self, ctx: Ctx[State], pid: str, chip: str, what: str) -> None:
        """``chip`` joins ``pid``'s team; a chip taken from the board is replaced by a
        face-down chip of its colour while the tray has one."""
        state = ctx.state
        c = self.chip(state, chip)
        face_down = c.colour in COLOURS and chip not in state.face_up
        refill = c.colour in COLOURS and self.tray(state, c.colour) > 0
        if c.colour not in COLOURS:
            say = Msg("{what}: it joins the team.", what=what)
        elif refill:
            say = Msg("{what}: it joins the team. A face-down {chip} from the tray takes its "
                      "place.", what=what, chip=CHIP_WORDS[c.colour])
        else:
            say = Msg("{what}: it joins the team. The tray has no {chip} left, so the space "
                      "stays empty.", what=what, chip=CHIP_WORDS[c.colour])
        ctx.emit("chip_caught", say,
                 player=pid, chip=chip, face_down=face_down, refill=refill)

    def cmd_skip(self, ctx: Ctx[State], actor: str, args: NoArgs) -> None:
        """``skip``: leave the chip where it is (or: the space is empty)."""
        ctx.say(Msg("{player} leaves it.", player=self.pname(ctx.state, actor)))
        ctx.clear_prompt()
        self.end_turn(ctx)

    # -- Pokémon Centers -----------------------------------------------------------------
    def pokemon_center_space(self, ctx: Ctx[State]) -> None:
        pid = ctx.state.current
        assert pid is not None
        out = ctx.state.trainer(pid).knocked_out
        if not out:
            ctx.say(Msg("No knocked-out Pokémon to revive here."))
            self.end_turn(ctx)
        elif len(out) == 1:
            self.revive(ctx, pid, [out[0]], center_revives)
            self.end_turn(ctx)
        else:
            ctx.ask(REVIVE, (pid,), Msg("Pokémon Center: revive one knocked-out Pokémon, or "
                                          "take the Dice Challenge (1 or 6 revives all of them, "
                                          "anything else none)."))

    def revive(self, ctx: Ctx[State], pid: str, chips: list[str], say: Revive) -> None:
        """``chips`` are revived; ``say(names)`` is the line that says so."""
        names = ", ".join(self.chip(ctx.state, c).name for c in chips)
        ctx.emit("revived", say(names), player=pid, chips=chips)

    @takes(ChipArgs)
    def cmd_revive(self, ctx: Ctx[State], actor: str, args: ChipArgs) -> None:
        """``revive <chip>``: at Cerulean or Vermilion City, revive one knocked-out Pokémon."""
        chip = chip_arg(args.chip, data_of(ctx.state))
        if chip not in ctx.state.trainer(actor).knocked_out:
            raise IllegalCommand(Msg("The Pokémon Center revives one of your knocked-out "
                                     "Pokémon."))
        ctx.clear_prompt()
        self.revive(ctx, actor, [chip], center_revives)
        self.end_turn(ctx)

    def cmd_challenge(self, ctx: Ctx[State], actor: str, args: NoArgs) -> None:
        """``challenge``: take the Dice Challenge (roll 1 or 6 to revive all); then roll."""
        ctx.clear_prompt()
        self.start_dice(ctx, "revive", [actor], "challenge_rolled")

    @task("challenge_rolled")
    def task_challenge_rolled(self, ctx: Ctx[State], rolls: dict[str, int]) -> None:
        pid = ctx.state.current
        assert pid is not None
        roll = rolls[pid]
        if roll in data_of(ctx.state).limits["revive_all_faces"]:
            self.revive(ctx, pid, list(ctx.state.trainer(pid).knocked_out),
                        lambda names: Msg("Dice Challenge: {n} revives all: {pokemon}: back to "
                                          "fighting and counting Power Points.", n=roll,
                                          pokemon=names))
        else:
            ctx.say(Msg("Dice Challenge: {n} is neither 1 nor 6, so no Pokémon is revived.",
                        n=roll))
        self.end_turn(ctx)
