"""The table as the companion remembers it: trainers, chips on the board, decks, battles."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.engine.state import BaseState, evolve


@dataclass(frozen=True)
class Trainer:
    """One player's Pokémon, items and whereabouts (no slots: changed with ``evolve``, as
    states are, for every event that touches a trainer)."""

    id: str
    starter: str = ""
    team: tuple[str, ...] = ()
    """Chip slugs in the order caught (the starter first)."""
    knocked_out: tuple[str, ...] = ()
    """Team members lying face down: no battles, no Power Points, until revived."""
    items: tuple[str, ...] = ()
    """Item Card kinds in hand (secret to the other players)."""
    place: str = "pallet"
    """The kind of space the mover last stopped on."""
    on_plateau: bool = False
    """On the Indigo Plateau's track (entered with 20 Power Points)."""


@dataclass(frozen=True)
class DiceRound:
    """Dice the rules wait for: who still has to roll, what was rolled, and what comes next."""

    purpose: str
    waiting: tuple[str, ...]
    rolls: Mapping[str, int]
    then: str
    """The task run with ``rolls`` once everybody rolled and no Time Machine is played."""
    args: Mapping[str, Any] = field(default_factory=dict)
    window: bool = False
    """True while Time Machine holders may make someone re-roll."""


@dataclass(frozen=True)
class Battle:
    """A Trainer Battle or the Final Battle in progress."""

    kind: str
    """``trainer`` or ``final``."""
    challenger: str
    defender: str
    """The challenged player, or in the Final Battle the player acting as Pokémon Master."""
    fighters: Mapping[str, str] = field(default_factory=dict)
    bonus: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Attack Bonus cards set aside face down (secret until the dice are rolled)."""
    rival: str = ""
    """The Rival Card drawn for the Final Battle."""
    revealed: bool = False


@dataclass(frozen=True)
class Offer:
    """A Pokémon trade waiting for an answer."""

    by: str
    to: str
    give: str
    take: str
    forced: bool
    items: tuple[str, ...] = ()
    """Item Cards the offering player adds to sweeten the trade."""


@dataclass(frozen=True)
class MasterTrainerState(BaseState):
    """Everything a Pokémon Master Trainer table would otherwise count, look up or forget."""

    trainers: tuple[Trainer, ...] = ()
    order: tuple[str, ...] = ()
    """Turn order (weakest starter first, then to the left)."""
    current: str | None = None
    face_up: tuple[str, ...] = ()
    """Chips lying face up on the board (missed catches)."""
    board_down: Mapping[str, int] = field(default_factory=dict)
    """Face-down chips on the board, per colour."""
    items_deck: tuple[str, ...] = ()
    """Item Cards, top first."""
    items_top: int = 0
    """Physical decks: Item Cards at the top of ``items_deck`` not drawn since the pile came
    round (0: any card of the pile); used and discarded cards go under them."""
    events_deck: tuple[str, ...] = ()
    """Event Cards, top first."""
    events_top: int = 0
    """Physical decks: Event Cards at the top of ``events_deck`` not drawn since the pile came
    round (0: any card of the pile)."""
    landed_colour: str = ""
    """Colour of the space landed on this turn (for a Chance Card)."""
    chip_at_stake: str = ""
    """The chip being caught this turn."""
    dice: DiceRound | None = None
    battle: Battle | None = None
    offer: Offer | None = None
    moved: bool = False
    """The current player has rolled to move this turn."""
    flew: bool = False
    """The current player used Fly this turn (they land on a city or town)."""
    passed: bool = False
    """The current player may stop beside a passed mover (trade or battle)."""
    log: tuple[str, ...] = ()
    """The latest explanations, newest last."""

    def trainer(self, pid: str) -> Trainer:
        for t in self.trainers:
            if t.id == pid:
                return t
        raise KeyError(pid)

    def with_trainer(self, trainer: Trainer) -> MasterTrainerState:
        return evolve(
            self, trainers=tuple(trainer if t.id == trainer.id else t for t in self.trainers)
        )

    def owner(self, chip: str) -> str | None:
        for t in self.trainers:
            if chip in t.team:
                return t.id
        return None
