"""Every event type is declared the one way (#28 item 3): ``@fact(name)`` over a class of its
fields, beside the handler that applies it; none copies the decorator stack by hand."""

from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path

import pytest

from companion.engine import event_format
from companion.engine.event_format import EventData, fact

ROOT = Path(__file__).resolve().parents[2]


def test_no_module_declares_an_event_by_hand() -> None:
    by_hand = re.compile(r"@(event\(|dataclass[^\n]*\n(@[^\n]*\n)*class \w+\(EventData\))")
    found = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "companion").rglob("*.py"))
             if by_hand.search(p.read_text("utf-8"))]
    assert found == []


def test_every_declared_event_is_a_frozen_dataclass_made_by_fact() -> None:
    event_format.load_editions()
    for name, cls in event_format.EVENT_TYPES.items():
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, name  # type: ignore[attr-defined]
        assert cls.NAME == name
        assert "@fact(" in inspect.getsource(inspect.getmodule(cls)), name  # type: ignore[arg-type]


def test_a_fact_is_declared_once_and_cannot_be_changed() -> None:
    @fact("zz_lemonade_sold")
    class LemonadeSold(EventData):
        cups: int

    try:
        sold = LemonadeSold(cups=3)
        with pytest.raises(dataclasses.FrozenInstanceError):
            sold.cups = 4  # type: ignore[misc]
        assert event_format.checked("zz_lemonade_sold", {"cups": 3}).type == "zz_lemonade_sold"
        with pytest.raises(ValueError, match="declared twice"):
            fact("zz_lemonade_sold")(type("Again", (EventData,), {}))
    finally:
        del event_format.EVENT_TYPES["zz_lemonade_sold"]
