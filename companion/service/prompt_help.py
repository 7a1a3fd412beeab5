"""First-game mode: what each question the game asks means, in the rulebook's terms, with the
rule it comes from (docs/history.md, "Rules at hand").

One explanation per prompt kind an edition asks (``Prompt.kind``: ``"buy"``, ``"teammate"``,
...), declared by the edition's rules (``Rules.prompt_help``: the Monopoly family's shared
ones in companion/monopoly/help.py, an edition's own in its package). ``cite`` is a rule id
in the edition's citation catalogue (seeds/<edition>.toml ``[citations]``): the page shows
the rulebook's section and words beside the explanation. A kind whose rule the edition never
applies (Monopolino has no auctions: ``never_cites``) is never asked and needs none.
``tests/story/test_prompt_help.py`` fails when an edition asks a kind explained nowhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from companion.engine.help import Help
from companion.engine.i18n import Msg, wire
from companion.plugins.editions import find_edition

__all__ = ["Help", "explanation", "explanations", "quoted"]


def explanation(edition: str, kind: str) -> Help | None:
    """The explanation of prompt ``kind`` in ``edition`` (None: none is written)."""
    return find_edition(edition).prompt_help.get(kind)


@cache
def explanations(edition: str) -> dict[str, dict[str, Any]]:
    """Every explanation for ``edition``, with its rule resolved for players: ``{kind:
    {text, cite, rule}}`` (``rule``: the one-line citation, the rulebook's section and
    words). A kind whose rule this edition never applies is left out: it is never asked."""
    rules = find_edition(edition)
    never: Mapping[str, str] = getattr(rules, "never_cites", {})
    kinds = set(rules.prompt_help)
    out = {}
    for kind in sorted(kinds):
        found = explanation(edition, kind)
        if found is None or found.cite in never:
            continue
        cited = rules.citation(found.cite)
        out[kind] = {"text": found.text, "cite": found.cite,
                     "rule": "" if cited is None else wire(quoted(cited))}
    return out


def quoted(cited: Mapping[str, str]) -> str:
    """The one-line rule of a citation (``Rules.citation``): the rulebook's words stay the
    exact English quotation they are (another language says that it quotes the English
    rulebook); the words around them are a message."""
    if "quote" not in cited or "reading" in cited or "house" in cited:
        return cited["text"]  # a message too (Rules.citation)
    return Msg("{game} rulebook, {section}: “{quote}”", game=cited["edition"],
               section=cited.get("section", ""), quote=cited["quote"])
