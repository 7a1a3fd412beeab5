"""A table for Master Trainer tests: start a game, arrange teams and hands, play commands."""

from __future__ import annotations

import json
import shlex
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.editions.master_trainer import MasterTrainerRules, MasterTrainerState
from companion.editions.master_trainer.state import DiceRound
from companion.engine import game
from companion.engine.rules import Ctx
from companion.engine.types import Command, Event, GameSetup

RULES = MasterTrainerRules()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


class Table:
    """A game in progress. ``do`` plays a command the way the service would."""

    def __init__(
        self, players: tuple[str, ...] = ("Ash", "Misty"), dice: str = "physical",
        seed: int = 1, settings: dict[str, Any] | None = None,
    ) -> None:
        setup = GameSetup.from_json({
            "edition": "master-trainer", "players": list(players), "dice": dice,
            "seed": seed, "settings": settings or {},
        })
        self.events: list[Event] = game.new_game(setup)
        self.state: MasterTrainerState = game.replay(self.events)  # type: ignore[assignment]

    def do(self, actor: str, type: str, **args: Any) -> list[Event]:
        events = game.decide(self.state, Command(actor, type, args))
        for e in events:
            self.state = game.apply(self.state, e)  # type: ignore[assignment]
        self.events += events
        return events

    def says(self, events: list[Event]) -> str:
        return " | ".join(e.say for e in events if e.say)

    # -- arranging a scene (tests only) ----------------------------------------------------
    def deal(self, **starters: str) -> None:
        """Each player turns over the named starter; the turn order follows."""
        for pid, chip in starters.items():
            self.do(pid, "starter", chip=chip)

    def give(self, pid: str, team: tuple[str, ...] | None = None,
             items: tuple[str, ...] | None = None,
             knocked_out: tuple[str, ...] | None = None, **more: Any) -> None:
        t = self.state.trainer(pid)
        changes: dict[str, Any] = dict(more)
        if team is not None:
            changes["team"] = (t.starter, *team) if t.starter else tuple(team)
        if items is not None:
            changes["items"] = tuple(items)
        if knocked_out is not None:
            changes["knocked_out"] = tuple(knocked_out)
        self.state = self.state.with_trainer(replace(t, **changes))

    def top_items(self, *cards: str) -> None:
        """Put ``cards`` on top of the Item deck (as if the deck had been shuffled so)."""
        deck = list(self.state.items_deck)
        for c in cards:
            deck.remove(c)
        self.state = replace(self.state, items_deck=(*cards, *deck))

    def top_event(self, card: str) -> None:
        deck = list(self.state.events_deck)
        deck.remove(card)
        self.state = replace(self.state, events_deck=(card, *deck))

    def turn_of(self, pid: str) -> None:
        """Start ``pid``'s turn afresh (their move roll is awaited)."""
        start = replace(self.state, prompt=None, todo=(), dice=None)
        ctx = Ctx(RULES, start)
        RULES.begin_turn(ctx, pid)
        RULES.run(ctx)
        ctx.finish(start)
        self.state = ctx.state

    @property
    def prompt_kind(self) -> str:
        return self.state.prompt.kind if self.state.prompt else ""

    def actions(self, actor: str | None = None) -> list[Any]:
        acts = game.legal_actions(self.state)
        return [a for a in acts if actor is None or a.actor == actor]

    def view(self, viewer: str | None = None) -> dict[str, Any]:
        return game.view(self.state, viewer)

    def power(self, pid: str) -> int:
        return RULES.power(self.state, pid)


def started(players: tuple[str, ...] = ("Ash", "Misty"), **kw: Any) -> Table:
    """A two-player game where Ash (Pikachu, 3 PP) goes first against Misty (Squirtle)."""
    t = Table(players, **kw)
    starters = ["pikachu", "squirtle", "bulbasaur", "charmander", "clefairy", "meowth"]
    t.deal(**{p.lower(): s for p, s in zip(players, starters, strict=False)})
    return t


def _value(word: str) -> Any:
    if word.lstrip("-").isdigit():
        return int(word)
    if word.startswith("["):
        return json.loads(word)
    return word


def step_command(state: MasterTrainerState, step: Any) -> Command:
    """A script step as a command: an object, or ``[actor:] type [values] [key=value]``."""
    if isinstance(step, dict):
        return Command.from_json(step)
    words = shlex.split(step)
    actor = words.pop(0)[:-1] if words[0].endswith(":") else None
    kind, args, values = words.pop(0), {}, []
    for w in words:
        if "=" in w:
            k, v = w.split("=", 1)
            args[k] = _value(v)
        else:
            values.append(_value(w))
    legal = [a for a in game.legal_actions(state) if a.type == kind]
    if actor is None:
        to = state.prompt.to if state.prompt else ()
        actor = next((w for w in to if any(a.actor == w for a in legal)), legal[0].actor)
    mine = [a for a in legal if a.actor == actor]
    action = next((a for a in mine if values and list(a.args.values()) == values[:1]), None)
    if action is not None:
        values.pop(0)
    action = action or (mine[0] if mine else None)
    if action is not None:
        args = {**action.args, **args}
        spec = action.input or {}
        if spec.get("kind") == "dice" and values:
            args["dice"] = values
        elif spec.get("kind") == "choice" and values:
            args[spec["arg"]] = values[0]
    return Command(actor, kind, args)


def run_example(path: Path) -> Table:
    """Replay an example script through the engine directly (new_game, decide, apply)."""
    script = json.loads(path.read_text("utf-8"))
    t = Table(tuple(script["players"]), script.get("dice", "digital"), script.get("seed", 0),
              script.get("settings", {}))
    for n, step in enumerate(script["steps"], 1):
        command = step_command(t.state, step)
        try:
            t.do(command.actor, command.type, **command.args)
        except Exception as exc:
            raise AssertionError(f"step {n} {step!r}: {exc}") from exc
    return t


__all__ = ["DiceRound", "RULES", "Table", "started", "run_example", "EXAMPLES"]
