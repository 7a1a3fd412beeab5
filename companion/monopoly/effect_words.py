"""The card effect vocabulary in words, for the editors (a person picks what a card does in
words and fills labelled fields; the page reads the effect back as a sentence).

Each word is what a rules class declares with ``@effect`` (companion/monopoly/cards.py and
the editions); its arguments, their types and defaults are read from the dataclass it
declares, so a new word appears in the editors with no change here (it is then named from
its id until its rules give it words: ``effect_words``, the family's below and an edition's
own beside its rules, as ``kind_words`` names its kinds of space)."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from typing import Any

from companion.engine.i18n import N_
from companion.engine.registry import declared, effect_args_type

# word: (what a person picks, the sentence it reads back as; {arg} is filled in by the page)
WORDS: dict[str, tuple[str, str]] = {  # the family's (an edition adds its own: effect_words)
    "collect": (N_("Collect money from the Bank"), N_("Collect {amount} from the Bank")),
    "pay": (N_("Pay money"), N_("Pay {amount} to {to}")),
    "collect_from_each": (N_("Collect money from each player"),
                          N_("Collect {amount} from each player")),
    "pay_each": (N_("Pay each player"), N_("Pay each player {amount}")),
    "move_to": (N_("Advance to a space"), N_("Advance to {space}{salary}")),
    "move_to_nearest": (N_("Advance to the nearest space of a kind"),
                        N_("Advance to the nearest {kind} space{salary}")),
    "move_by": (N_("Move forward or back"), N_("Move {steps}")),
    "go_to_jail": (N_("Go to Jail"), N_("Go straight to Jail")),
    "keep": (N_("Keep the card for later (Get Out of Jail Free)"),
             N_("Keep this card for later")),
    "banker": (N_("The banker applies it by hand"), N_("The banker applies this card by hand")),
}
ARGS: dict[str, tuple[str, str]] = {  # argument: (field kind, its label)
    "amount": ("money", N_("Amount")),
    "to": ("payee", N_("Paid to")),
    "space": ("space", N_("Space")),
    "salary": ("bool", N_("Collect the salary when passing GO")),
    "kind": ("kind", N_("Kind of space")),
    "steps": ("steps", N_("Spaces (a minus sign: back)")),
    "color": ("color", N_("Colour group")),
    "use": ("text", N_("Used for")),
}
_TYPES: dict[Any, str] = {int: "int", bool: "bool", str: "text"}


def vocabulary(rules_cls: type) -> list[dict[str, Any]]:
    """Every effect word of ``rules_cls``: ``{do, label, say, args: [{name, kind, label,
    default?}]}``, in the order of its ``effect_words``, then any others by name."""
    table = declared(rules_cls).get("effect", {})
    words: Mapping[str, tuple[str, str]] = getattr(rules_cls, "effect_words", WORDS)
    arg_words: Mapping[str, tuple[str, str]] = getattr(rules_cls, "effect_arg_words", ARGS)
    order = {w: i for i, w in enumerate(words)}
    out = []
    for word in sorted(table, key=lambda w: (order.get(w, len(order)), w)):
        declared_args = effect_args_type(getattr(rules_cls, table[word]))
        hints = typing.get_type_hints(declared_args)
        args = []
        for f in dataclasses.fields(declared_args):
            name = f.name
            kind, label = arg_words.get(name, (_TYPES.get(hints.get(name), "text"),
                                          name.replace("_", " ").capitalize()))
            arg: dict[str, Any] = {"name": name, "kind": kind, "label": label}
            if f.default is not dataclasses.MISSING:
                arg["default"] = f.default
            args.append(arg)
        label, say = words.get(word, (word.replace("_", " ").capitalize(),
                                      word.replace("_", " ").capitalize()))
        out.append({"do": word, "label": label, "say": say, "args": args})
    return out


KIND_WORDS: dict[str, str] = {  # each kind of space the family's boards have, for the catalogue
    "go": N_("GO"), "go_to_jail": N_("Go to Jail"), "free_parking": N_("Free Parking"),
    "jail": N_("Jail"), "tax": N_("Tax"), "card": N_("Card"), "location": N_("Location"),
}
"""The family's kinds of space in words; an edition adds its own (``Rules.kind_words``)."""


def kind_name(kind: str, words: Mapping[str, str] = KIND_WORDS) -> str:
    """A kind of space in words (``words``: the rules' ``kind_words``): ``go_to_jail`` is
    "Go to Jail", ``station`` "Station"."""
    if kind in words:
        return words[kind]
    small = {"to", "of", "the", "a"}
    return " ".join(w if i and w in small else w.capitalize()
                    for i, w in enumerate(kind.split("_")))


def effect_choices(rules_cls: type, board: Any) -> dict[str, Any]:
    """What the effect editor offers for a board: the words, and the spaces, kinds of space
    and colour groups a field may name (each with the words a person reads)."""
    return {
        "effects": vocabulary(rules_cls),
        "effect_spaces": [{"value": s.id, "label": s.name} for s in board.spaces],
        "effect_kinds": [{"value": k, "label": kind_name(k, getattr(rules_cls, "kind_words",
                                                                   KIND_WORDS))}
                         for k in sorted({s.kind for s in board.spaces})],
        "effect_colors": [{"value": k, "label": v} for k, v in board.color_names.items()],
    }
