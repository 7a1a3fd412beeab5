"""Event shapes are versioned: a changed event needs a new version and an upcaster.

tests/engine/event_schema.json records the fields of every event version ever written. To
change an event: bump its ``version`` in companion/engine/events.py, add an upcaster from the
old tag to ``UPCASTERS`` (companion/engine/event_format.py), then add the new tag's fields to
the snapshot (never edit a recorded one: logs in that shape exist in people's homes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.engine import event_format, events  # noqa: F401 (events declares the types)
from companion.engine.types import Event
from companion.plugins import editions

SNAPSHOT = Path(__file__).with_name("event_schema.json")
RECORDED: dict[str, dict[str, str]] = json.loads(SNAPSHOT.read_text("utf-8"))
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "logs"


def test_every_current_event_shape_is_recorded_unchanged() -> None:
    for tag, fields in event_format.schema().items():
        assert tag in RECORDED, (
            f"{tag} is not in {SNAPSHOT.name}: a new event type or version? record its fields")
        assert RECORDED[tag] == fields, (
            f"the fields of {tag} changed without a version bump: bump its version in "
            "companion/engine/events.py and add an upcaster from the old tag")


def test_every_recorded_shape_that_is_not_current_has_an_upcaster() -> None:
    current = set(event_format.schema())
    for tag in RECORDED:
        if tag not in current:
            assert tag in event_format.UPCASTERS, f"{tag} was written once and has no upcaster"


def test_names_stored_by_the_first_version_upcast_to_current_events() -> None:
    for tag in event_format.UPCASTERS:
        assert not event_format.is_current(tag)
    assert event_format.upcast("money", {"source": "a", "to": "b", "amount": 1})[0] == "money_paid"
    assert event_format.upcast("deed", {"space": 1, "game_over": True})[0] == "game_over_marked"
    assert event_format.upcast("deed", {"space": 1, "owner": "a"})[0] == "deed_owned"


def test_names_are_past_tense_facts_not_nouns() -> None:
    for name in event_format.EVENT_TYPES:
        assert name not in {"money", "deed", "jail", "ext", "debt", "auction", "battle", "deck",
                            "order", "turn", "offer", "flow", "note", "rng"}


@pytest.mark.parametrize("log", sorted(p.name for p in GOLDEN.glob("*.jsonl")))
def test_every_stored_event_upcasts_to_a_valid_typed_event(log: str) -> None:
    for line in (GOLDEN / log).read_text("utf-8").splitlines()[1:]:
        raw = json.loads(line)
        tag, data = event_format.upcast(raw["type"], raw["data"])
        event_format.typed(Event(tag, data))  # raises on a missing or unknown field


def test_emitting_an_event_with_a_wrong_field_fails_where_it_is_emitted() -> None:
    with pytest.raises(TypeError):
        event_format.checked("money_paid", {"source": "a", "to": "b", "amuont": 3})
    with pytest.raises(TypeError):
        event_format.checked("money_spent", {})
    stored = event_format.checked("money", {"source": "a", "to": "b", "amount": 3})
    assert stored.type == "money_paid"


HOOKS = {"on_turn_end", "on_board"}  # a Monopoly hook and a Master Trainer query


def test_every_event_type_is_applied_by_some_edition_and_every_handler_is_declared() -> None:
    handled: set[str] = set()
    for name in editions.known():
        rules = editions.find_edition(name)
        for attr in dir(rules):
            if attr.startswith("on_") and attr not in HOOKS and callable(getattr(rules, attr)):
                assert attr[3:] in event_format.EVENT_TYPES, \
                    f"{name}.{attr} applies no declared event"
                handled.add(attr[3:])
    assert set(event_format.EVENT_TYPES) - handled == {"game_started", "undone"}
