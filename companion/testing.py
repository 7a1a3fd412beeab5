"""A small harness to play a game through the public engine API (tests and examples).

>>> g = TableGame.start("mario", ["Mario", "Luigi"])
>>> g.roll(3, 4)            # the current prompt's actor rolls physical dice 3 and 4
>>> g.do("buy")             # the prompted player buys
>>> g.state.players[0].money
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.engine import game
from companion.engine.state import BaseState
from companion.engine.types import Action, Command, Event, GameSetup


@dataclass
class TableGame:
    """A game plus its full event log; every step goes through decide/apply."""

    state: Any
    events: list[Event] = field(default_factory=list)
    batches: list[list[Event]] = field(default_factory=list)

    @classmethod
    def start(cls, edition: str, players: list[str] | list[dict[str, str]], *,
              dice: str = "physical", seed: int = 1, order: str = "seated",
              settings: Mapping[str, Any] | None = None) -> TableGame:
        raw_settings = dict(settings or {})
        if order:
            raw_settings.setdefault("order", order)
        setup = GameSetup.from_json({"edition": edition, "players": players, "dice": dice,
                                     "seed": seed, "settings": raw_settings})
        events = game.new_game(setup)
        return cls(game.replay(events), list(events), [list(events)])

    # -- acting ---------------------------------------------------------------------------
    def send(self, command: Command) -> list[Event]:
        """Decide and apply one command; a refusal raises and changes nothing."""
        new, self.state = game.step(self.state, command)
        self.events += new
        self.batches.append(new)
        return new

    def do(self, type: str, actor: str | None = None, **args: Any) -> list[Event]:
        """``type`` by ``actor`` (default: the first actor the prompt waits for)."""
        return self.send(Command(actor or self.prompted(type), type, args))

    def roll(self, *dice: int, actor: str | None = None) -> list[Event]:
        """Answer the current roll prompt with physical dice values."""
        return self.do("roll", actor, dice=list(dice))

    def choose(self, option: Any, actor: str | None = None) -> list[Event]:
        return self.do("choose", actor, option=option)

    def prompted(self, type: str = "") -> str:
        legal = self.actions()
        if self.state.prompt is not None:
            for who in self.state.prompt.to:
                if not type or any(a.actor == who and a.type == type for a in legal):
                    return str(who)
            return str(self.state.prompt.to[0])
        raise AssertionError("nothing is being asked")

    # -- looking --------------------------------------------------------------------------
    def actions(self, actor: str | None = None) -> list[Action]:
        legal = game.legal_actions(self.state)
        return [a for a in legal if actor is None or a.actor == actor]

    def says(self, last: int | None = None) -> list[str]:
        """What happened, in words (the last ``last`` command's worth when given)."""
        events = self.events if last is None else [e for b in self.batches[-last:] for e in b]
        return [e.say for e in events if e.say]

    def player(self, pid: str) -> Any:
        return self.state.player(pid)

    def replayed(self) -> BaseState:
        return game.replay(self.events)

    def patch(self, **changes: Any) -> None:
        """Arrange a situation directly (tests only): replace state fields."""
        self.state = replace(self.state, **changes)

    def patch_player(self, pid: str, **changes: Any) -> None:
        players = tuple(replace(p, **changes) if p.id == pid else p for p in self.state.players)
        self.state = replace(self.state, players=players)
