"""Answering the current prompt with three buttons: previous, next, OK (previous + next = back).

:class:`PromptNavigator` is pure logic over ``view["actions"]``: buttons call :meth:`prev`,
:meth:`next`, :meth:`ok` and :meth:`back`; the OLED draws :meth:`state`. On OK it calls
``on_action(action_dict, extra_input)`` where ``extra_input`` is

- ``None`` for an action without input, or a dice action whose input is optional (digital
  dice: the companion rolls);
- ``list[int]`` of die faces for a dice action that requires them (physical dice);
- ``int`` for an ``"amount"`` input;
- the chosen option's ``"value"`` for a ``"choice"`` input (its ``"arg"`` names the argument).

Actions needing a form (``"trade"``) are left to the phones.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.engine import i18n
from companion.engine.i18n import N_, Msg

OnAction = Callable[[dict[str, Any], Any], None]
BUTTON_KINDS = (None, "dice", "amount", "choice")
DIE_NAMES = {"red": N_("red"), "black": N_("black")}
"""The dice the rules name (``dice_names``: Mario's red and black), in the table's words."""


class PromptNavigator:
    """A highlight over the legal actions of one actor, and an editor for their input."""

    def __init__(self, on_action: OnAction) -> None:
        self._on_action = on_action
        self.actor: str | None = None
        self.version: int | None = None
        self.game_id: str | None = None
        self.actions: list[dict[str, Any]] = []
        self.index = 0
        self._editing: dict[str, Any] | None = None  # the action whose input is being set
        self._value: Any = None  # amount (int), option index (int) or dice faces (list)
        self._die = 0  # which die is being set
        self.language = i18n.SOURCE
        """The table's language, for the words the navigator adds (the dice's names)."""

    def __repr__(self) -> str:
        return f"PromptNavigator(actor={self.actor!r}, index={self.index}, n={len(self.actions)})"

    # -- the view -----------------------------------------------------------------------
    def update(self, view: Mapping[str, Any]) -> None:
        """Follow a new view: the prompt's first actor (else whose turn it is) answers."""
        prompt = view.get("prompt") or {}
        to = prompt.get("to") or []
        actor = to[0] if to else view.get("current")
        actions = [dict(a) for a in view.get("actions", [])
                   if a.get("actor") == actor and _kind(a) in BUTTON_KINDS]
        keys = [_key(a) for a in actions]
        if actor != self.actor or keys != [_key(a) for a in self.actions]:
            self.index, self._editing = 0, None
        self.actor, self.actions = actor, actions
        self.version, self.game_id = view.get("version"), view.get("game_id")

    def state(self) -> dict[str, Any]:
        """What the OLED shows: labels, the highlight, and the value being edited."""
        editing = None
        if self._editing is not None:
            spec = self._editing["input"]
            options = spec.get("options", []) if spec["kind"] == "choice" else []
            editing = {"label": str(self._editing.get("label", self._editing.get("type", ""))),
                       "value": self._value_text(),
                       "position": f"{self._value + 1}/{len(options)}" if len(options) > 1
                       else ""}
        return {"actor": self.actor, "items": [a["label"] for a in self.actions],
                "index": self.index, "editing": editing}

    # -- buttons ------------------------------------------------------------------------
    def prev(self, big: bool = False) -> None:
        self._move(-1, big)

    def next(self, big: bool = False) -> None:
        self._move(+1, big)

    def ok(self) -> None:
        """Choose the highlighted action, or confirm the value being edited."""
        if self._editing is not None:
            self._confirm()
            return
        if not self.actions:
            return
        action = self.actions[self.index]
        spec = action.get("input") or {}
        kind = spec.get("kind")
        if kind is None or (kind == "dice" and spec.get("optional")):
            self._send(action, None)
            return
        self._editing, self._die = action, 0
        if kind == "amount":
            self._value = int(spec.get("min", 0))
        elif kind == "choice":
            self._value = 0
        else:
            self._value = [1] * int(spec.get("count", 2))

    def back(self) -> None:
        """Leave the editor without sending; in the list, go back to the first action."""
        if self._editing is not None:
            self._editing = None
        else:
            self.index = 0

    # -- internals ----------------------------------------------------------------------
    def _move(self, step: int, big: bool) -> None:
        if self._editing is None:
            if self.actions:
                self.index = (self.index + step) % len(self.actions)
            return
        spec = self._editing["input"]
        if spec["kind"] == "amount":
            lo, hi = int(spec.get("min", 0)), int(spec.get("max", 10**9))
            size = int(spec.get("step", 1)) * (10 if big else 1)
            self._value = min(hi, max(lo, self._value + step * size))
        elif spec["kind"] == "choice":
            self._value = (self._value + step) % max(1, len(spec.get("options", [])))
        else:
            self._value[self._die] = (self._value[self._die] - 1 + step) % 6 + 1

    def _confirm(self) -> None:
        assert self._editing is not None
        action, spec = self._editing, self._editing["input"]
        if spec["kind"] == "dice" and self._die < len(self._value) - 1:
            self._die += 1
            return
        value: Any = self._value
        if spec["kind"] == "choice":
            options = spec.get("options", [])
            if not options:
                return
            value = options[self._value]["value"]
        elif spec["kind"] == "dice":
            value = list(self._value)
        self._editing = None
        self._send(action, value)

    def _send(self, action: dict[str, Any], value: Any) -> None:
        self._on_action({**action, "version": self.version, "game_id": self.game_id}, value)

    def _value_text(self) -> str:
        assert self._editing is not None
        spec = self._editing["input"]
        if spec["kind"] == "choice":
            options = spec.get("options", [])
            return str(options[self._value]["label"]) if options else "-"
        if spec["kind"] == "dice":
            names = [i18n.render(Msg(DIE_NAMES[n]), self.language) if n in DIE_NAMES
                     else str(n) for n in spec.get("names", ())]
            return " ".join((f"{names[i]} " if i < len(names) else "")
                            + (f"[{v}]" if i == self._die else str(v))
                            for i, v in enumerate(self._value))
        return str(self._value)


def _kind(action: Mapping[str, Any]) -> str | None:
    spec = action.get("input")
    return spec.get("kind") if spec else None


def _key(action: Mapping[str, Any]) -> tuple[str, str, str]:
    return (str(action.get("actor")), str(action.get("type")), repr(action.get("args")))

