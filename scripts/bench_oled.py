"""How many pages the OLED needs for each prompt of the example games, in every language.

    .venv/bin/python scripts/bench_oled.py

Replays every example in examples/, and for each view with a prompt draws the game screen as
the table does (the glance of the prompt, rendered in the language, the buttons on the first
choice) and counts its pages (hardware.screens.game_pages: a page turns every 3 s). Prints,
per language, the share of screens that need one page, at most two, and the worst. Counts,
not time: the same on any machine. tests/hardware/test_oled_glance.py asserts the target.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.engine.i18n import localized  # noqa: E402
from companion.engine.types import GameSetup  # noqa: E402
from companion.service import game  # noqa: E402
from companion.service.script import parse_step, script_setup  # noqa: E402
from hardware.glance import with_glance  # noqa: E402
from hardware.navigator import PromptNavigator  # noqa: E402
from hardware.screens import game_pages  # noqa: E402

LANGUAGES = ("en", "it", "es")
TARGET = 0.95
"""Share of prompt screens that must need at most two pages, in every language."""


EXAMPLES = sorted((ROOT / "examples").glob("*.json"))


@cache
def example_views(path: Path) -> list[dict[str, Any]]:
    """The views of one example script, before its first step and after each."""
    data = json.loads(path.read_text("utf-8"))
    state = game.replay(game.new_game(GameSetup.from_json(script_setup(data))))
    views = [game.view(state)]
    for step in data["steps"]:
        for event in game.decide(state, parse_step(state, step)):
            state = game.apply(state, event)
        views.append(game.view(state))
    return views


def all_views() -> Iterator[tuple[str, dict[str, Any]]]:
    """(example file name, view) for every view of every example (the OLED tests use them)."""
    for path in EXAMPLES:
        for view in example_views(path):
            yield path.name, view


def prompt_views() -> Iterator[tuple[str, dict[str, Any]]]:
    """(example name, view) for every view with a prompt of every example."""
    for name, view in all_views():
        if view.get("prompt") and not view.get("finished"):
            yield name, view


def pages_on_the_table(view: dict[str, Any], lang: str) -> int:
    """The pages of ``view``'s game screen on a table in ``lang`` (as TableHardware.show)."""
    shown = localized(with_glance(view), lang)
    nav = PromptNavigator(lambda a, x: None)
    nav.language = lang
    nav.update(shown)
    return game_pages(shown, nav.state(), lang)


def page_counts() -> dict[str, Counter[int]]:
    """Per language: how many prompt screens need 1, 2, 3, ... pages."""
    views = [view for _, view in prompt_views()]
    return {lang: Counter(pages_on_the_table(view, lang) for view in views)
            for lang in LANGUAGES}


def share(counts: Counter[int], most: int) -> float:
    return sum(n for pages, n in counts.items() if pages <= most) / sum(counts.values())


def main() -> None:
    for lang, counts in page_counts().items():
        total = sum(counts.values())
        print(f"{lang}: {total} prompt screens; one page {share(counts, 1):.1%}, at most two "
              f"{share(counts, 2):.1%} (target {TARGET:.0%}), worst {max(counts)} pages; "
              f"by pages {dict(sorted(counts.items()))}")


if __name__ == "__main__":
    main()
