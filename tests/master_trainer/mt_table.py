"""A table for Master Trainer tests: start a game, arrange teams and hands, play commands."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.editions.master_trainer import MasterTrainerRules, MasterTrainerState
from companion.editions.master_trainer.state import DiceRound
from companion.engine.rules import Ctx
from companion.engine.types import Event
from companion.service import game
from companion.service.script import run_script
from tests.playing import TableGame

RULES = MasterTrainerRules()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


class Table(TableGame):
    """A game in progress (the shared harness, actor named first in ``do``)."""

    state: MasterTrainerState

    def __init__(
        self, players: tuple[str, ...] = ("Ash", "Misty"), dice: str = "physical",
        seed: int = 1, settings: dict[str, Any] | None = None,
    ) -> None:
        g = TableGame.start("master-trainer", list(players), dice=dice, seed=seed, order="",
                            settings=settings)
        super().__init__(g.state, g.events, g.batches)

    def do(self, actor: str, type: str, **args: Any) -> list[Event]:  # type: ignore[override]
        return self.by(actor, type, **args)

    def says(self, events: list[Event]) -> str:  # type: ignore[override]
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


def run_example(path: Path) -> Table:
    """Replay an example script with the project's runner (companion.service.script), as a Table."""
    script = json.loads(path.read_text("utf-8"))
    result = run_script(script)
    t = Table(tuple(script["players"]), script.get("dice", "digital"), script.get("seed", 0),
              script.get("settings", {}))
    t.state, t.events = result.state, list(result.events)
    return t


__all__ = ["DiceRound", "RULES", "Table", "started", "run_example", "EXAMPLES"]
