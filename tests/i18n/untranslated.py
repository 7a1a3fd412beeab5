"""A reusable check for an edition: play an example script step by step and list every text a
player would see (each log line, the prompt, every legal action's label and choice) that is
not a message translated in a language. Other editions reuse :func:`english_left`."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from companion.engine.i18n import Msg, catalogue
from companion.engine.types import GameSetup
from companion.service import game
from companion.service.script import load_script, parse_step, script_setup

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def shown(path: Path) -> Iterator[str]:
    """Every text the script's game shows: log lines, prompts, action labels and choices."""
    data = load_script(path)
    events = game.new_game(GameSetup.from_json(script_setup(data)))
    state = game.replay(events)
    yield from _state_texts(state)
    yield from (e.say for e in events if e.say)
    for step in data.get("steps", []):
        new, state = game.step(state, parse_step(state, step))
        yield from (e.say for e in new if e.say)
        yield from _state_texts(state)


def _box_words(state: Any) -> set[str]:
    """Names and the box's own words (space names), shown as they are in every language."""
    words = {p.name for p in getattr(state, "players", ())}
    words |= {p.name for p in state.setup.players}  # a game whose state keeps no players
    board = getattr(state, "b", None)
    return words | {s.name for s in getattr(board, "spaces", ())}


def _state_texts(state: Any) -> Iterator[str]:
    box = _box_words(state)
    prompt = getattr(state, "prompt", None)
    if prompt is not None and prompt.text:
        yield prompt.text
    for action in game.legal_actions(state):
        if action.label not in ("", *box):
            yield action.label
        for option in (action.input or {}).get("options", []):
            if isinstance(option, Mapping) and option.get("label") not in (None, "", *box):
                yield option["label"]


def _untranslated(text: str, lang: str) -> list[str]:
    """The parts of ``text`` that would read English in ``lang`` (nested messages too)."""
    if not isinstance(text, Msg):
        return [f"not a message: {text!r}"]
    cat = catalogue(lang)
    entry = cat.get(text.key) if cat is not None else None
    strings = [] if entry is None else (
        [entry.string] if isinstance(entry.string, str) else list(entry.string))
    out = [] if strings and all(strings) and not entry.fuzzy else [f"untranslated: {text.key!r}"]
    for value in text.args.values():
        for v in value if isinstance(value, list | tuple) else [value]:
            if isinstance(v, Msg):
                out += _untranslated(v, lang)
    return out


def english_left(path: Path, lang: str) -> list[str]:
    """Each distinct text of the script's game left in English for a reader of ``lang``."""
    seen: dict[str, None] = {}
    for text in shown(path):
        for problem in _untranslated(text, lang):
            seen.setdefault(problem, None)
    return list(seen)


def _board_words(state: Any) -> set[str]:
    """Every text of the box the game was set up with (names, card texts, deck titles,
    colours, the edition's own data such as Pokémon types): shown as the box prints them."""
    board = getattr(state, "b", None)
    out = {p.name for p in getattr(state, "players", ())}
    if board is None:
        return out
    out |= {s.name for s in board.spaces} | {board.title, *board.tokens}
    out |= {c.text for cards in board.decks.values() for c in cards}
    out |= {*board.deck_titles.values(), *board.color_names.values()}
    stack: list[Any] = [board.data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            out.add(value)
        elif isinstance(value, Mapping):
            stack += [*value.keys(), *value.values()]
        elif isinstance(value, list | tuple):
            stack += list(value)
    return out


IDS = re.compile(r"[a-z]+(-[a-z]+)*-\d+")
"""An id the box's objects carry (a chip's ``fire-3``): the same in every language."""


def _plain_args(text: Msg, box: set[str]) -> Iterator[str]:
    for value in text.args.values():
        for v in value if isinstance(value, list | tuple) else [value]:
            if isinstance(v, Msg):
                yield from _plain_args(v, box)
            elif isinstance(v, str) and any(c.isalpha() for c in v) and not IDS.match(v) \
                    and not any(w.startswith(v) for w in box):
                yield f"English inside {text.key!r}: {v!r}"


def english_arguments(path: Path) -> list[str]:
    """Each plain-text argument of the script's messages that is not the box's own words (a
    name, a space, a card text or its first sentence): English no catalogue can translate."""
    data = load_script(path)
    events = game.new_game(GameSetup.from_json(script_setup(data)))
    box = _board_words(game.replay(events))
    seen: dict[str, None] = {}
    for text in shown(path):
        if isinstance(text, Msg):
            for problem in _plain_args(text, box):
                seen.setdefault(problem, None)
    return list(seen)
