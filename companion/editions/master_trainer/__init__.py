"""Pokémon Master Trainer (1999) on the shared engine: not a Monopoly."""

from companion.editions.master_trainer.rules import MasterTrainerRules
from companion.editions.master_trainer.state import MasterTrainerState

__all__ = ["MasterTrainerRules", "MasterTrainerState"]
