"""A refused command is refused by looking, never by trying its rule on a scratch game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from mt_table import started

from companion.engine.commands import declared_args, takes
from companion.engine.types import IllegalCommand
from companion.plugins.editions import find_edition


@pytest.fixture
def fresh_handlers() -> Iterator[None]:
    """The rules look their handlers up once; forget them before and after a test swaps one
    (else a look-up made by an earlier test hides the swap, or the swap outlives the test)."""
    rules = find_edition("master-trainer")  # the instance every game of the edition uses
    rules.__dict__.pop("_commands", None)
    yield
    rules.__dict__.pop("_commands", None)


def test_refusing_a_command_does_not_run_its_handler(monkeypatch: pytest.MonkeyPatch,
                                                     fresh_handlers: None) -> None:
    t = started()
    ran: list[str] = []
    rules_class = type(find_edition("master-trainer"))

    @takes(declared_args(rules_class.cmd_use))
    def spy(self: Any, ctx: Any, actor: str, args: Any) -> None:
        ran.append(f"{actor} uses {args.item}")
        raise RuntimeError("a bug in a rule must not be hidden")

    monkeypatch.setattr(rules_class, "cmd_use", spy)
    with pytest.raises(IllegalCommand, match="holds no Fly card"):
        t.do("ash", "use", item="fly")
    assert ran == []
    t.give("ash", items=("fly",))
    with pytest.raises(RuntimeError, match="must not be hidden"):  # the spy is the handler
        t.do("ash", "use", item="fly")
    assert ran == ["ash uses fly"]
