"""Card tags of two boxes of one edition (issue 38 item 6): each box profile's stickers work in
the games set up with it, whichever profile was saved last; a profile (saved or imported)
never silently moves a tag enrolled as something else."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.boxes.profiles import ProfileError, Profiles, export_text, import_text
from companion.boxes.tags import TagRegistry
from companion.service.game_service import GameService
from companion.service.table import Table

BOX_A = {"edition": "mario", "name": "box A", "tags": {"04A1A1A1A1A101": "card:qb-01"}}
BOX_B = {"edition": "mario", "name": "box B", "tags": {"04B2B2B2B2B201": "card:qb-01"}}
MUSHROOM = "04C3C3C3C3C301"


def game_with(service: GameService, profile: str) -> str:
    out = service.create_game({"edition": "mario", "players": ["Mario", "Luigi"],
                               "profile": profile})
    assert out.ok, out.error
    service.call(service.serve_game, out.game_id)
    return out.game_id


def tapped(table: Table, uid: str) -> str | None:
    """The object the table read the tag as (None: "Unknown tag")."""
    table.tap("table", uid)
    assert table.last_tap is not None and table.last_tap["uid"] == uid
    return table.last_tap["object"]


def test_each_box_profiles_card_tags_work_in_its_games(tmp_path: Path) -> None:
    with GameService(tmp_path) as service:
        table = Table(service)
        profiles = Profiles(service.store.conn)
        service.call(profiles.save, BOX_A)
        service.call(profiles.save, BOX_B)  # before: box A's sticker became "Unknown tag"
        assert service.call(profiles.get, "box A")["tags"] == BOX_A["tags"]
        game_with(service, "box A")
        assert tapped(table, "04A1A1A1A1A101") == "card:qb-01"
        game_with(service, "box B")
        assert tapped(table, "04B2B2B2B2B201") == "card:qb-01"
        service.call(profiles.save, BOX_A)  # saved again: box B's sticker still reads
        assert tapped(table, "04B2B2B2B2B201") == "card:qb-01"
        game_with(service, "box A")
        assert tapped(table, "04A1A1A1A1A101") == "card:qb-01"


def test_an_imported_profile_never_moves_an_enrolled_token_tag(tmp_path: Path) -> None:
    with GameService(tmp_path) as service:
        registry = TagRegistry(service.store.conn)
        service.call(lambda: (registry.enroll(MUSHROOM, "mario", "token:Super Mushroom",
                                              "the Super Mushroom token"),
                              service.store.conn.commit()))
        text = export_text({"format": 1, "note": "", "settings": {},
                            **{**BOX_A, "tags": {MUSHROOM: "card:qb-01"}}})
        profiles = Profiles(service.store.conn)
        with pytest.raises(ProfileError) as refused:
            service.call(profiles.save, import_text(text))
        words = str(refused.value)
        assert MUSHROOM in words and "Super Mushroom" in words, words
        assert service.call(registry.lookup, MUSHROOM) == ("mario", "token:Super Mushroom")
        assert service.call(profiles.list) == []
        table = Table(service)
        game_with(service, "")
        assert tapped(table, MUSHROOM) == "token:Super Mushroom"


def test_the_cli_import_of_such_a_profile_is_one_clear_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.app.cli import main

    with GameService(tmp_path / "state") as service:
        registry = TagRegistry(service.store.conn)
        service.call(lambda: (registry.enroll(MUSHROOM, "mario", "token:Super Mushroom",
                                              "the Super Mushroom token"),
                              service.store.conn.commit()))
    path = tmp_path / "box.json"
    path.write_text(export_text({"format": 1, "note": "", "settings": {},
                                 **{**BOX_A, "tags": {MUSHROOM: "card:qb-01"}}}))
    assert main(["profile", "import", str(path), "--state-dir", str(tmp_path / "state")]) != 0
    err = capsys.readouterr().err
    assert "Super Mushroom" in err and "Traceback" not in err, err
