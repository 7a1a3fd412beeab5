"""The pure rules core shared by every edition: no I/O, no clock, no global random state."""

from companion.engine.types import (
    Action,
    Command,
    Event,
    GameSetup,
    IllegalCommand,
    Prompt,
    RuleError,
    SetupError,
)

__all__ = [
    "Action",
    "Command",
    "Event",
    "GameSetup",
    "IllegalCommand",
    "Prompt",
    "RuleError",
    "SetupError",
]
