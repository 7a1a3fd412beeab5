"""Loading an edition checks it once: a check that asked for its own edition again recursed
hundreds of levels deep (12 s at every start, until Python's recursion limit stopped it)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine.types import SetupError
from companion.plugins import editions


def test_each_edition_is_checked_once_when_it_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(editions, "_cache", {})
    calls: list[str] = []
    for name in editions.available():
        rules_cls = type(editions.find_edition(name))
        original = rules_cls.check

        def counting(self: Any, _original: Any = original) -> None:
            calls.append(self.name)
            _original(self)

        monkeypatch.setattr(rules_cls, "check", counting)
    monkeypatch.setattr(editions, "_cache", {})
    loaded = [editions.find_edition(n).name for n in editions.available()]
    assert sorted(calls) == sorted(loaded)  # once each, never re-entered


def test_a_checkout_not_installed_says_how_to_find_its_editions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Editions are entry points of the installed package: a tree run without ``pip install``
    (or installed before the entry points existed) names the fix, not "Known editions: ."."""
    monkeypatch.setattr(editions, "_cache", {})
    monkeypatch.setattr(editions, "entry_points", lambda group: [])
    with pytest.raises(SetupError, match=r"No edition is installed, so not 'mario'.*pip install"):
        editions.find_edition("mario")
