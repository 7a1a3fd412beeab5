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

from companion.engine.i18n import N_
from companion.engine.registry import declared

# word: (what a person picks, the sentence it reads back as; {arg} is filled in by the page)
WORDS: dict[str, tuple[str, str]] = {
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
    "move_bowser": (N_("Move Bowser"), N_("Bowser moves {steps}")),
    "move_bowser_to": (N_("Move Bowser to a space"), N_("Bowser moves to {space}")),
    "continue_all": (N_("Your GAME OVER spaces continue"),
                     N_("Every GAME OVER space you own continues for free")),
    "hyperspace": (N_("Jump through hyperspace"), N_("Jump through hyperspace")),
    "use_the_force": (N_("Use the Force"), N_("Use the Force")),
    "pay_and_go": (N_("Pay, then go to a space"),
                   N_("Pay {amount} to {to}, then go to {space}{salary}")),
    "booth": (N_("Place a booth"), N_("Place a booth on a {color} space")),
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


KIND_WORDS = {  # each kind of space the boards have, marked for the catalogue
    "go": N_("GO"), "go_to_jail": N_("Go to Jail"), "free_parking": N_("Free Parking"),
    "jail": N_("Jail"), "tax": N_("Tax"), "card": N_("Card"), "location": N_("Location"),
    "train": N_("Train"), "lottery": N_("Lottery"), "shooting_gallery": N_("Shooting Gallery"),
    "go_to_shooting_gallery": N_("Go to Shooting Gallery"), "balloons": N_("Balloons"),
    "sweets": N_("Sweets"), "force": N_("Force"), "hyperspace": N_("Hyperspace"),
    "lapras": N_("Lapras"), "piranha_plant": N_("Piranha Plant"), "super_star": N_("Super Star"),
}


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
