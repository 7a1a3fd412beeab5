"""Each edition keeps its own values in a typed dataclass, not an untyped dict."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from companion.editions.mario import MarioValues
from companion.editions.monopolino import MonopolinoValues
from companion.monopoly.state import values_of
from tests.playing import TableGame


def test_each_monopoly_edition_declares_its_own_values(
        play: Callable[..., TableGame]) -> None:
    g = play("mario", ["Mario", "Luigi"])
    assert isinstance(g.state.ext, MarioValues)
    assert values_of(g.state, MarioValues).bowser["active"] is True
    with pytest.raises(TypeError, match="MarioValues, not MonopolinoValues"):
        values_of(g.state, MonopolinoValues)


def test_setting_a_value_the_edition_did_not_declare_fails(
        play: Callable[..., TableGame]) -> None:
    g = play("mario", ["Mario", "Luigi"])
    with pytest.raises(TypeError, match="bowsr"):
        g.arrange("edition_values_set", set={"bowsr": {}})
