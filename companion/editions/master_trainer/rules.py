"""``MasterTrainerRules``: the edition as the engine finds it."""

from __future__ import annotations

from companion.editions.master_trainer.base import data_of, initial_trainers
from companion.editions.master_trainer.data import load
from companion.editions.master_trainer.spaces import SPACES
from companion.editions.master_trainer.state import MasterTrainerState
from companion.editions.master_trainer.view import ViewRules
from companion.engine import rng as rng_mod
from companion.engine.types import GameSetup, SetupError


class MasterTrainerRules(ViewRules):
    """Pokémon Master Trainer (1999): no money, a race to 20 Power Points and a win against
    a Pokémon Master. Players move their own movers; the companion keeps the rest."""

    def initial_state(self, setup: GameSetup) -> MasterTrainerState:
        data = load(setup.settings)
        lo, hi = data.limits["min_players"], data.limits["max_players"]
        if not lo <= len(setup.players) <= hi:
            raise SetupError(f"Pokémon Master Trainer is for {lo} to {hi} players.")
        return MasterTrainerState(
            setup=setup, rng=rng_mod.seed_state(setup.seed),
            trainers=initial_trainers([p.id for p in setup.players]),
        )

    def tag_objects(self) -> list[tuple[str, str]]:
        """Objects a tag can stand for: every chip, every mover, every kind of space."""
        data = load()
        out = [(c.tag, c.label) for c in sorted(data.chips.values(), key=lambda c: c.number)]
        out += [(f"token:{m}", f"{m.title()} mover") for m in data.movers]
        out += [(s.tag, s.label) for s in SPACES.values()]
        return out


__all__ = ["MasterTrainerRules", "MasterTrainerState", "data_of"]
