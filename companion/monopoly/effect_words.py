"""The card effect vocabulary in words, for the editors (a person picks what a card does in
words and fills labelled fields; the page reads the effect back as a sentence).

Each word is what a rules class declares with ``@effect`` (companion/monopoly/cards.py and
the editions); its arguments, their types and defaults are read from the method, so a new
word appears in the editors with no change here (it is then named from its id until it gets
words below)."""

from __future__ import annotations

import inspect
import typing
from typing import Any

from companion.engine.registry import declared

# word: (what a person picks, the sentence it reads back as; {arg} is filled in by the page)
WORDS: dict[str, tuple[str, str]] = {
    "collect": ("Collect money from the Bank", "Collect {amount} from the Bank"),
    "pay": ("Pay money", "Pay {amount} to {to}"),
    "collect_from_each": ("Collect money from each player", "Collect {amount} from each player"),
    "pay_each": ("Pay each player", "Pay each player {amount}"),
    "move_to": ("Advance to a space", "Advance to {space}{salary}"),
    "move_to_nearest": ("Advance to the nearest space of a kind",
                        "Advance to the nearest {kind} space{salary}"),
    "move_by": ("Move forward or back", "Move {steps}"),
    "go_to_jail": ("Go to Jail", "Go straight to Jail"),
    "keep": ("Keep the card for later (Get Out of Jail Free)", "Keep this card for later"),
    "banker": ("The banker applies it by hand", "The banker applies this card by hand"),
    "move_bowser": ("Move Bowser", "Bowser moves {steps}"),
    "move_bowser_to": ("Move Bowser to a space", "Bowser moves to {space}"),
    "continue_all": ("Your GAME OVER spaces continue",
                     "Every GAME OVER space you own continues for free"),
    "hyperspace": ("Jump through hyperspace", "Jump through hyperspace"),
    "use_the_force": ("Use the Force", "Use the Force"),
    "pay_and_go": ("Pay, then go to a space", "Pay {amount} to {to}, then go to {space}{salary}"),
    "booth": ("Place a booth", "Place a booth on a {color} space"),
}
ARGS: dict[str, tuple[str, str]] = {  # argument: (field kind, its label)
    "amount": ("money", "Amount"),
    "to": ("payee", "Paid to"),
    "space": ("space", "Space"),
    "salary": ("bool", "Collect the salary when passing GO"),
    "kind": ("kind", "Kind of space"),
    "steps": ("steps", "Spaces (a minus sign: back)"),
    "color": ("color", "Colour group"),
    "use": ("text", "Used for"),
}
_TYPES: dict[Any, str] = {int: "int", bool: "bool", str: "text"}
_FIXED = 4  # self, ctx, pid, card


def vocabulary(rules_cls: type) -> list[dict[str, Any]]:
    """Every effect word of ``rules_cls``: ``{do, label, say, args: [{name, kind, label,
    default?}]}``, in the order of WORDS, then any others by name."""
    table = declared(rules_cls).get("effect", {})
    order = {w: i for i, w in enumerate(WORDS)}
    out = []
    for word in sorted(table, key=lambda w: (order.get(w, len(order)), w)):
        fn = getattr(rules_cls, table[word])
        hints = typing.get_type_hints(fn)
        args = []
        for name, p in list(inspect.signature(fn).parameters.items())[_FIXED:]:
            if p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
                continue
            kind, label = ARGS.get(name, (_TYPES.get(hints.get(name), "text"),
                                          name.replace("_", " ").capitalize()))
            arg: dict[str, Any] = {"name": name, "kind": kind, "label": label}
            if p.default is not p.empty:
                arg["default"] = p.default
            args.append(arg)
        label, say = WORDS.get(word, (word.replace("_", " ").capitalize(),
                                      word.replace("_", " ").capitalize()))
        out.append({"do": word, "label": label, "say": say, "args": args})
    return out


KIND_WORDS = {"go": "GO", "go_to_jail": "Go to Jail", "free_parking": "Free Parking"}


def kind_name(kind: str) -> str:
    """A kind of space in words: ``go_to_jail`` is "Go to Jail", ``station`` "Station"."""
    if kind in KIND_WORDS:
        return KIND_WORDS[kind]
    small = {"to", "of", "the", "a"}
    return " ".join(w if i and w in small else w.capitalize()
                    for i, w in enumerate(kind.split("_")))


def effect_choices(rules_cls: type, board: Any) -> dict[str, Any]:
    """What the effect editor offers for a board: the words, and the spaces, kinds of space
    and colour groups a field may name (each with the words a person reads)."""
    return {
        "effects": vocabulary(rules_cls),
        "effect_spaces": [{"value": s.id, "label": s.name} for s in board.spaces],
        "effect_kinds": [{"value": k, "label": kind_name(k)}
                         for k in sorted({s.kind for s in board.spaces})],
        "effect_colors": [{"value": k, "label": v} for k, v in board.color_names.items()],
    }
