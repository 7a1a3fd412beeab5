"""A refused command is refused by looking, never by trying its rule on a scratch game."""

from __future__ import annotations

from typing import Any

import pytest
from mt_table import RULES, started

from companion.engine.types import IllegalCommand


def test_refusing_a_command_does_not_run_its_handler(monkeypatch: pytest.MonkeyPatch) -> None:
    t = started()
    ran: list[str] = []

    def spy(self: Any, ctx: Any, command: Any) -> None:
        ran.append(command.type)
        raise RuntimeError("a bug in a rule must not be hidden")

    monkeypatch.setattr(type(RULES), "cmd_use", spy)
    with pytest.raises(IllegalCommand, match="holds no Fly card"):
        t.do("ash", "use", item="fly")
    assert ran == []

