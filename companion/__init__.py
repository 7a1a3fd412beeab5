"""Board Companion: the bank, dice tower and referee beside a real board game."""

__version__ = "0.1.0"
