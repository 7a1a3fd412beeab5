"""The view a phone receives is one declared structure (companion.service.game_record.PhoneView):
every edition's view fits it, and a key an edition adds without declaring it is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_type_hints

import pytest

from companion.engine.types import ActionView, PlayerView
from companion.service.game_record import PhoneView, PromptView, phone_view
from companion.service.game_service import GameService

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.json"))
SETUPS = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in EXAMPLES}
SETUPS = {k: v.get("setup", v) for k, v in SETUPS.items()}
ONE_PER_EDITION = {v["edition"]: k for k, v in sorted(SETUPS.items())}


def _fits(value: Any, hint: Any) -> bool:
    """Whether ``value`` has the outer type of ``hint`` (str, int, list, dict, None...)."""
    import types
    import typing

    args = typing.get_args(hint)
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, a) for a in args)
    if hint is type(None):
        return value is None
    if isinstance(hint, type) and hint.__class__.__name__ == "_TypedDictMeta":
        return isinstance(value, dict) and set(value) == set(hint.__annotations__)
    if hint is Any:
        return True
    base = origin or hint
    if base is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, base)


@pytest.mark.parametrize("example", sorted(ONE_PER_EDITION.values()))
def test_every_editions_view_is_a_phone_view(tmp_path: Path, example: str) -> None:
    with GameService(tmp_path) as service:
        out = service.create_game(SETUPS[example])
        assert out.ok, out.error
        hints = get_type_hints(PhoneView)
        for viewer in (None, "banker"):
            view = service.view(out.game_id, viewer)
            assert PhoneView.__required_keys__ <= view.keys()
            assert view.keys() <= hints.keys(), sorted(view.keys() - hints.keys())
            wrong = [k for k, v in view.items() if not _fits(v, hints[k])]
            assert wrong == [], {k: view[k] for k in wrong}  # type: ignore[literal-required]
            prompt = view["prompt"]
            assert prompt is None or set(prompt) == set(PromptView.__annotations__)
            _fits_typed(view["players"], PlayerView, extra_keys=True)
            _fits_typed(view["actions"], ActionView, extra_keys=False)
        assert view["players"] and any(v["actions"] for v in (
            service.view(out.game_id, p["id"]) for p in view["players"]))


def _fits_typed(items: list[Any], hint: Any, *, extra_keys: bool) -> None:
    """Every item has ``hint``'s required keys, each declared key of the declared type, and
    (unless ``extra_keys``: an edition's own player keys) no other key."""
    hints = get_type_hints(hint)
    for item in items:
        assert hint.__required_keys__ <= item.keys(), (hint.__name__, item)
        assert extra_keys or item.keys() <= hints.keys(), (hint.__name__, item)
        wrong = {k: item[k] for k in hints.keys() & item.keys() if not _fits(item[k], hints[k])}
        assert wrong == {}, (hint.__name__, wrong)


def test_a_key_no_one_declared_is_refused(tmp_path: Path) -> None:
    with GameService(tmp_path) as service:
        out = service.create_game(SETUPS[ONE_PER_EDITION["mario"]])
        view: dict[str, Any] = dict(service.view(out.game_id))
        edition_part = {k: v for k, v in view.items()
                        if k not in ("game_id", "version", "join_code", "log_cites", "log_events",
                                     "page")}
        with pytest.raises(ValueError, match="not declared in PhoneView .*'secret_id'"):
            phone_view({**edition_part, "secret_id": 7}, "g", 1, "123456", [], [])
        with pytest.raises(ValueError, match=r"missing \['prompt'\]"):
            phone_view({k: v for k, v in edition_part.items() if k != "prompt"}, "g", 1,
                       "123456", [], [])


def test_a_player_or_action_off_its_declared_shape_is_refused(tmp_path: Path) -> None:
    with GameService(tmp_path) as service:
        out = service.create_game(SETUPS[ONE_PER_EDITION["mario"]])
        view: dict[str, Any] = dict(service.view(out.game_id, "banker"))
        edition_part = {k: v for k, v in view.items()
                        if k not in ("game_id", "version", "join_code", "log_cites", "log_events",
                                     "page")}
        nameless = [{k: v for k, v in p.items() if k != "name"} for p in view["players"]]
        with pytest.raises(ValueError, match=r"a player lacks \['name'\]"):
            phone_view({**edition_part, "players": nameless}, "g", 1, "123456", [], [])
        odd = [{**view["actions"][0], "hint": "roll"}]
        with pytest.raises(ValueError, match="an action with keys .*'hint'.*ActionView"):
            phone_view({**edition_part, "actions": odd}, "g", 1, "123456", [], [])
