"""The OLED's game screen for every prompt of every example: the decision is never cut, every
word of the question (the prompt's glance, hardware/glance.py) is shown on some page, and
every player's balance whenever the question leaves room for the balances."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from bench_oled import EXAMPLES, all_views, example_views
from oled_reference import assert_matches_reference
from PIL import Image, ImageDraw

from hardware.glance import with_glance
from hardware.navigator import PromptNavigator
from hardware.screens import (
    COLS,
    ROWS,
    balance_pages,
    counted,
    draw_game,
    game_pages,
    game_rows,
    question,
    width,
)


def nav_states(view: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every state the buttons can reach on this view: each action highlighted, and each
    value of an action's input being edited (amounts: the lowest and the highest)."""
    nav = PromptNavigator(lambda a, x: None)
    nav.update(view)
    for index in range(len(nav.actions)):
        nav.index, nav._editing = index, None
        yield nav.state()
        spec = nav.actions[index].get("input") or {}
        if spec.get("kind") in ("amount", "choice", "dice") and not spec.get("optional"):
            nav.ok()
            steps = len(spec.get("options", [])) if spec["kind"] == "choice" else 2
            for _ in range(max(1, steps)):
                yield nav.state()
                nav.next(big=spec["kind"] == "amount")
            if spec["kind"] == "amount":
                nav._value = int(spec.get("max", nav._value))
                yield nav.state()
    if not nav.actions:
        yield nav.state()


def words(text: str) -> list[str]:
    return " ".join(str(text).split()).split(" ") if str(text).strip() else []


def problems(view: dict[str, Any], state: dict[str, Any]) -> list[str]:
    """What the screen gets wrong for this view and button state (empty: nothing)."""
    found: list[str] = []
    if view.get("finished"):
        return found  # the end screen (test_display)
    pages = game_pages(view, state)
    shown_text: list[list[str]] = []
    shown_balances: set[str] = set()
    screen = None
    for page in range(pages):
        screen = game_rows(view, state, page)
        if len(screen.rows) != ROWS:
            found.append(f"{len(screen.rows)} rows")
        for row in screen.rows:
            room = COLS - (width(row.right) + 1 if row.right else 0)
            if width(row.text) > room and not row.cut_ok:
                found.append(f"cut: {row.text!r}")
        choice = [r.text for r in screen.rows if r.inverted]
        if not any(r.right for r in screen.rows if r.inverted) and len(state["items"]) > 1 \
                and not state.get("editing") and len(choice) < ROWS:
            found.append(f"no count by {choice!r}")
        editing = state.get("editing")
        if editing:
            expected = f"{editing['label']}: < {editing['value']} >"
        elif state.get("items"):
            expected = state["items"][state["index"]]
        else:
            expected = ""
        if words(" ".join(choice)) != words(expected):
            found.append(f"decision {choice!r} is not {expected!r}")
        text = [r.text for r in screen.rows[screen.text_at:screen.text_at + screen.text_rows]]
        if screen.page == len(shown_text):
            shown_text.append(text)
        if screen.balance_at is not None:
            shown_balances |= {r.text for r in screen.rows[
                screen.balance_at:screen.balance_at + screen.balance_rows] if r.text}
    assert screen is not None
    asked = question(view)
    if screen.text_rows and words(" ".join(" ".join(t) for t in shown_text)) != words(asked):
        found.append(f"question not shown whole: {asked!r}")
    if screen.balance_at is None:
        return found  # the question needs the room: the balances are on the phones
    if shown_balances != set(balance_pages(view)):
        found.append("a balance line is never shown")
    for p in view.get("players", []):
        amount = counted(view, p)
        if not p.get("bankrupt") and not any(amount in b for b in shown_balances):
            found.append(f"{p['name']}'s {amount!r} never shown")
        if "None" in amount:
            found.append(f"{p['name']} shows None")
    return found


@pytest.mark.parametrize("example", [p.name for p in EXAMPLES])
def test_every_prompt_of_every_example_shows_its_decision_whole(example: str) -> None:
    """96 of 97 Star Wars prompts (and nearly every other edition's) were cut at 21
    characters: "Pay 1 Poké Bal~", "Buy “Tatooine” for ₥~"."""
    path = next(p for p in EXAMPLES if p.name == example)
    bad: list[str] = []
    for n, raw in enumerate(example_views(path)):
        view = dict(with_glance(raw))  # as the table shows it
        for state in nav_states(view):
            bad += [f"view {n}: {p}" for p in problems(view, state)]
    assert bad == [], f"{len(bad)} problems, first: {bad[:5]}"


def test_balances_of_six_players_are_paged_whole() -> None:
    view = {"current": "p1", "currency": {"symbol": "₥"}, "players": [
        {"id": f"p{i}", "name": name, "money": 1500 - 100 * i, "money_text": f"₥{1500 - 100 * i}",
         "is_current": i == 1}
        for i, name in enumerate(["Дмитрий", "Ελένη", "Zoë", "Anastasia", "Bo", "Christopher"],
                                 start=1)]}
    assert problems(view, {"items": []}) == []
    assert len(balance_pages(view)) > 1


def test_master_trainer_shows_power_points_never_none() -> None:
    """Master Trainer has no money: its OLED said "Mist None Ash None"."""
    path = next(p for p in EXAMPLES if p.name == "master-trainer-two-players.json")
    view = example_views(path)[5]
    assert balance_pages(view) == ["Ash 4PP  Misty 3PP"]


def first_of_each_prompt_kind() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """(view, button state) of the first prompt of each kind in each edition's examples."""
    found: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    for _, raw in all_views():
        view = dict(with_glance(raw))
        kind = (view.get("prompt") or {}).get("kind") or "none"
        key = f"{view['edition']}-{kind}"
        if key not in found:
            found[key] = (view, next(nav_states(view)))
    return found


KINDS = first_of_each_prompt_kind()


@pytest.mark.parametrize("key", sorted(KINDS))
def test_reference_image_of_each_prompt_kind(key: str) -> None:
    """Page 1 of the first prompt of this kind, its glance as the table shows it, as reviewed
    (tests/hardware/reference/)."""
    view, state = KINDS[key]
    image = Image.new("1", (128, 64))
    draw_game(ImageDraw.Draw(image), view, state)
    assert_matches_reference(image, f"prompt-{key}")
