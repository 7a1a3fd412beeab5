"""Seed data is checked when an edition loads: a name no rule handles, or a malformed file,
fails at start-up with the file and the field, never in the middle of a game."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from companion.editions.master_trainer import data as mt_data
from companion.engine.registry import declared
from companion.engine.seeds import SeedError
from companion.monopoly import board
from companion.plugins import editions


def load_with(monkeypatch: pytest.MonkeyPatch, edition: str,
              change: Callable[[dict[str, Any]], None]) -> None:
    raw = copy.deepcopy(dict(board._raw(edition)))
    change(raw)
    monkeypatch.setattr(board, "_raw", lambda name: raw)
    monkeypatch.setattr(editions, "_cache", {})
    editions.find_edition(edition)


@pytest.mark.parametrize("edition", list(editions.known()))
def test_every_shipped_edition_passes_its_load_check(edition: str) -> None:
    editions.find_edition(edition).check()


def test_a_space_kind_no_rule_handles_fails_at_load_naming_file_and_field(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def warp(raw: dict[str, Any]) -> None:
        raw["spaces"][3]["kind"] = "warp_pipe"

    with pytest.raises(SeedError, match=r"seeds/mario\.toml: spaces\[3\] \(.+\)\.kind = "
                                        r"'warp_pipe': no rule handles this space"):
        load_with(monkeypatch, "mario", warp)


def test_an_unknown_card_effect_fails_at_load_not_when_drawn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def bad(raw: dict[str, Any]) -> None:
        raw["decks"][0]["cards"][1]["effect"] = {"do": "teleport"}

    with pytest.raises(SeedError, match=r"seeds/starwars\.toml: decks\[0\]\.cards\[1\] "
                                        r"\(.+\)\.effect\.do = 'teleport'"):
        load_with(monkeypatch, "starwars", bad)


def test_a_card_effect_with_arguments_its_rule_does_not_take_fails_at_load(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def bad(raw: dict[str, Any]) -> None:
        raw["decks"][0]["cards"][0]["effect"] = {"do": "collect", "amout": 10}

    with pytest.raises(SeedError, match=r"decks\[0\]\.cards\[0\] .*effect"):
        load_with(monkeypatch, "pokemon", bad)


def test_a_malformed_seed_fails_the_schema_naming_the_field(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def no_name(raw: dict[str, Any]) -> None:
        del raw["spaces"][2]["name"]

    with pytest.raises(SeedError, match=r"seeds/monopolino\.toml: spaces\[2\]\.name: missing"):
        load_with(monkeypatch, "monopolino", no_name)

    def price_text(raw: dict[str, Any]) -> None:
        raw["spaces"][1]["price"] = "cheap"

    with pytest.raises(SeedError, match=r"spaces\[1\]\.price: expected int, got 'cheap'"):
        load_with(monkeypatch, "monopolino", price_text)


def test_an_event_card_no_rule_handles_fails_master_trainer_at_load(
        monkeypatch: pytest.MonkeyPatch) -> None:
    chips, rules, evolution = copy.deepcopy(mt_data._raw())
    rules["event_deck"]["team_rocket"] = 2
    monkeypatch.setattr(mt_data, "_raw", lambda: (chips, rules, evolution))
    monkeypatch.setattr(editions, "_cache", {})
    with pytest.raises(SeedError, match=r"seeds/master-trainer/rules\.toml: "
                                        r"event_deck\.team_rocket = 'team_rocket'"):
        editions.find_edition("master-trainer")


def test_handlers_are_declared_by_stable_id() -> None:
    table = declared(type(editions.find_edition("mario")))
    assert {"land", "bowser_move", "battle"} <= set(table["task"])
    assert {"location", "card", "super_star", "go_to_jail"} <= set(table["space"])
    assert {"collect", "move_bowser"} <= set(table["effect"])


PREFIXES = {"task_": "task", "land_": "space", "effect_": "effect", "actions_": "prompt",
            "event_": "event_card", "force_": "force"}


@pytest.mark.parametrize("edition", list(editions.known()))
def test_every_handler_method_is_declared_with_an_id(edition: str) -> None:
    """A handler method without its declaration would never run (or fail mid-game): code
    written before ids existed (``def task_x`` alone) must add ``@task("x")``."""
    rules = editions.find_edition(edition)
    table = declared(type(rules))
    declared_names = {name for ids in table.values() for name in ids.values()}
    for attr in dir(rules):
        kind = next((k for p, k in PREFIXES.items() if attr.startswith(p)), None)
        if kind and callable(getattr(rules, attr)):
            assert attr in declared_names, (
                f"{edition}: {attr} is not declared; add @declare({kind!r}, <id>) "
                "(@task, @space_kind, @effect, @prompt_kind)")
