"""Each prompt kind's form on the OLED: what is asked, at a glance; the whole text is on the
phones.

The screen has five lines of 21 characters: whose turn (the header), the choice (inverted, with
"n/N"), and two or three lines for the question. A prompt's text is written for a phone and
often fills eight lines, so the OLED shows its **glance**: the form declared here for the
prompt's kind, filled with the prompt's own arguments (the player, the dice, the space, the
odds), or else the text without its asides in parentheses ("(chance to catch within your Poké
Balls: …)", "(they stay secret until …)"). A form is used only when the prompt's message
carries every argument it names (two editions may ask a kind of one name with other words).
``scripts/bench_oled.py`` prints how many pages the example games' prompts need.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import Any

from companion.engine.i18n import N_, Msg

FORMS: dict[str, tuple[str, ...]] = {
    "time_machine": (N_("Dice: {rolls}. A Time Machine?"),),
    "catch": (N_("Catch {pokemon}? {odds}"),),
    "draw_items": (N_("{player}: draw an Item Card."),),
    "prize": (N_("{player}: take Item Cards from {other}."),),
    "roll": (N_("{players}: roll one die."),),
    "fight": (N_("{players}: choose a Pokémon."),),
    "starter": (N_("Turn over a starter chip."),),
    "booth_card": (N_("{player}: a booth on {colour}?"),),
    "battle_card": (N_("{player}: {total} against {theirs}. A Challenge card?"),),
    "draw": (N_("{player}: draw a {deck} card."),),
    "land": (N_("{player} rolled {n}: where did the mover land?"),),
    "explore": (N_("{player}: explore {space}?"),),
}
"""Prompt kind -> its glance forms (the first whose arguments the prompt's message has)."""

ASIDE = re.compile(r"\s*[(（][^()（）]*(?:[(（][^()（）]*[)）][^()（）]*)*[)）]")
"""An aside in parentheses (one level of nesting inside), with the space before it."""


def _names(form: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(form) if name}


def glance(prompt: Mapping[str, Any]) -> str:
    """The prompt's glance: its kind's form filled with its message's arguments, or its text
    (a message, kept as one) when no form fits; the caller drops asides once rendered."""
    text = prompt.get("text") or ""
    if isinstance(text, Msg):
        for form in FORMS.get(str(prompt.get("kind", "")), ()):
            if _names(form) <= set(text.args):
                return Msg(form, **{k: text.args[k] for k in _names(form)})
    return text


def without_asides(text: str) -> str:
    """``text`` without its asides in parentheses (whole text if nothing would be left)."""
    short = ASIDE.sub("", str(text)).strip()
    return short or str(text)


def with_glance(view: Mapping[str, Any]) -> Mapping[str, Any]:
    """``view`` with ``prompt["glance"]`` set (before it is rendered in the table's
    language)."""
    prompt = view.get("prompt")
    if not isinstance(prompt, Mapping) or not prompt.get("text"):
        return view
    return {**view, "prompt": {**prompt, "glance": glance(prompt)}}
