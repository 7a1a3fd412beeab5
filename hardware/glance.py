"""Each prompt kind's form on the OLED: what is asked, at a glance; the whole text is on the
phones.

The screen has five lines of 21 characters: whose turn (the header), the choice (inverted, with
"n/N"), and two or three lines for the question. A prompt's text is written for a phone and
often fills eight lines, so the OLED shows its **glance**: the form the edition's rules
declare for the prompt's kind (``Rules.glance_forms``), filled with the prompt's own arguments
(the player, the dice, the space, the odds), or else the text without its asides in
parentheses ("(chance to catch within your Poké Balls: …)", "(they stay secret until …)").
A form is used only when the prompt's message carries every argument it names.
``scripts/bench_oled.py`` prints how many pages the example games' prompts need.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import Any

from companion.engine.i18n import Msg
from companion.engine.types import SetupError
from companion.plugins.editions import find_edition

ASIDE = re.compile(r"\s*[(（][^()（）]*(?:[(（][^()（）]*[)）][^()（）]*)*[)）]")
"""An aside in parentheses (one level of nesting inside), with the space before it."""


def _names(form: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(form) if name}


def forms_of(edition: str) -> Mapping[str, tuple[str, ...]]:
    """Prompt kind -> its glance forms, as the edition's rules declare them (the first whose
    arguments the prompt's message has); none for an edition not installed."""
    try:
        return find_edition(edition).glance_forms
    except SetupError:
        return {}


def glance(prompt: Mapping[str, Any], forms: Mapping[str, tuple[str, ...]]) -> str:
    """The prompt's glance: its kind's form (of ``forms``) filled with its message's
    arguments, or its text (a message, kept as one) when no form fits; the caller drops
    asides once rendered."""
    text = prompt.get("text") or ""
    if isinstance(text, Msg):
        for form in forms.get(str(prompt.get("kind", "")), ()):
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
    forms = forms_of(str(view.get("edition", "")))
    return {**view, "prompt": {**prompt, "glance": glance(prompt, forms)}}
