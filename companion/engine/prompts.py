"""The kinds of prompt an edition asks, each declared once, next to the rule that answers it.

A prompt's kind is a typed constant, never a bare string: ``ctx.ask(BUY, ...)``, not
``ctx.ask("buy", ...)``. Its type says what answers it:

- :class:`RollPrompt`: the engine's ``roll`` command, then the step (task id) ``then`` runs
  with ``dice=`` (asked with ``Rules.ask_roll``);
- :class:`ChoicePrompt`: the engine's ``choose`` command, then the step ``then`` runs with
  ``option=`` (``Rules.ask_choice``);
- :class:`CommandPrompt`: the edition's own commands, those its ``@prompt_kind(...)`` handler
  for this prompt lists.

An edition's rules class is checked when it is defined (at import): a prompt whose step or
handler the edition does not declare, or two prompts of one kind, is a ``TypeError`` naming
it (``companion.engine.registry.unanswered``). The log stores a prompt as before (its
``kind`` string, who, words, data), so every saved game reads unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class PromptKind:
    """A kind of prompt; ``kind`` is the stable id the log and the page see."""

    kind: str
    answered_by: ClassVar[str] = ""
    """The engine's command that answers it ("" for the edition's own commands)."""


@dataclass(frozen=True)
class RollPrompt(PromptKind):
    """Answered by ``roll``; then step ``then`` runs with ``dice=`` and the prompt's args."""

    then: str
    answered_by: ClassVar[str] = "roll"


@dataclass(frozen=True)
class ChoicePrompt(PromptKind):
    """Answered by ``choose``; then step ``then`` runs with ``option=`` and the args."""

    then: str
    answered_by: ClassVar[str] = "choose"


@dataclass(frozen=True)
class CommandPrompt(PromptKind):
    """Answered by the edition's commands that its ``@prompt_kind(this)`` handler lists."""
