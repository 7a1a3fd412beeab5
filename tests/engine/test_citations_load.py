"""A rule that cites an id its edition's catalogue lacks is caught when the edition loads."""

from __future__ import annotations

from typing import Any

import pytest

from companion.editions.mario import MarioRules
from companion.engine.commands import NoArgs
from companion.engine.context import Ctx, cites
from companion.engine.seeds import SeedError


class MisCited(MarioRules):
    @cites("no-such-rule")
    def cmd_shout(self, ctx: Ctx[Any], actor: str, args: NoArgs) -> None:
        ctx.say("Shout!")


class LiterallyMisCited(MarioRules):
    def cmd_whisper(self, ctx: Ctx[Any], actor: str, args: NoArgs) -> None:
        ctx.emit("noted", "psst", cite="nor-this-one")


def test_a_decorated_rule_citing_an_unknown_id_fails_at_load_naming_file_and_field() -> None:
    with pytest.raises(SeedError) as caught:
        MisCited().check()
    assert str(caught.value).startswith("seeds/mario.toml: citations.no-such-rule: missing")
    assert "MisCited.cmd_shout" in str(caught.value)


def test_a_literal_cite_argument_is_checked_too() -> None:
    with pytest.raises(SeedError, match=r"citations\.nor-this-one: missing"):
        LiterallyMisCited().check()


def test_the_shipped_editions_load() -> None:
    MarioRules().check()
