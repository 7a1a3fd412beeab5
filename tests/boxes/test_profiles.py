"""Box profiles: saved once in the real SQLite file, used for later games, shared as a file."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.boxes import card_tags
from companion.boxes.profiles import ProfileError, Profiles, export_text, import_text
from companion.boxes.tags import TagRegistry
from companion.platform import backup
from companion.service.game_service import DB_NAME, GameService

BOARD = {"spaces": {"imperial-palace": {"kind": "free_parking", "name": "Landing"},
                    "tibanna-mines": {"kind": "card", "deck": "chance"},
                    "senate": {"price": 350}},
         "cards": {"ch-02": {"text": "Advance to GO. Collect 200."}},
         "confirmed": ["spaces.mos-eisley.price"]}
PROFILE = {"edition": "starwars", "name": "our box", "settings": {"board": BOARD},
           "tags": {"04:A1:B2:C3:D4:E5:F6": "card:ch-02"}}


def board_of(service: GameService, game_id: str) -> list[tuple[str, str, str, int]]:
    view = service.view(game_id)
    return [(s["id"], s["name"], s["kind"], s.get("price", 0)) for s in view["board"]["spaces"]]


def new_game(service: GameService, **extra: Any) -> str:
    out = service.create_game({"edition": "starwars", "players": ["Luke", "Leia"], "seed": 3,
                               **extra})
    assert out.ok, out.error
    return out.game_id


def test_a_profile_exported_imported_and_used_gives_the_same_board(tmp_path: Path) -> None:
    with GameService(tmp_path / "a") as one:
        one.call(lambda: Profiles(one.store.conn).save(PROFILE))
        first = new_game(one, profile="our box")
        text = one.call(lambda: export_text(Profiles(one.store.conn).get("our box")))
        board_one = board_of(one, first)
    assert json.loads(text)["format"] == 1
    with GameService(tmp_path / "b") as two:
        two.call(lambda: Profiles(two.store.conn).save(import_text(text)))
        second = new_game(two, profile="our box")
        assert board_of(two, second) == board_one
        spaces = {s[0]: s for s in board_one}
        assert spaces["imperial-palace"][1:3] == ("Landing", "free_parking")
        assert sum(s[2] == "location" for s in board_one) == 16
        for game in (("starwars", "our box"), None):  # its games, and any with one box
            assert two.call(card_tags.read_tag, two.store.conn, "04A1B2C3D4E5F6", game) == (
                "starwars", "card:ch-02")


def test_a_game_keeps_its_corrections_when_the_profile_changes(tmp_path: Path) -> None:
    with GameService(tmp_path) as service:
        service.call(lambda: Profiles(service.store.conn).save(PROFILE))
        game_id = new_game(service, profile="our box")
        before = board_of(service, game_id)
        changed = json.loads(json.dumps(PROFILE))
        changed["settings"]["board"]["spaces"]["senate"]["price"] = 999
        service.call(lambda: Profiles(service.store.conn).save(changed))
    with GameService(tmp_path) as again:  # replayed from the log
        assert board_of(again, game_id) == before


def test_an_old_game_made_before_profiles_still_replays(tmp_path: Path) -> None:
    with GameService(tmp_path) as service:
        game_id = new_game(service, settings={"board": {"spaces": {"mos-eisley": {"price": 70}}}})
        for _ in range(6):
            _, state = service.state(game_id)
            action = next(a for a in service.view(game_id)["actions"] if a["type"] == "roll")
            assert service.submit(game_id, {"actor": action["actor"], "type": "roll"}).ok
        view = service.view(game_id)
    with closing(sqlite3.connect(tmp_path / DB_NAME)) as conn, conn:
        conn.execute("DROP TABLE IF EXISTS box_profiles")
        conn.execute("DELETE FROM snapshots")
    with GameService(tmp_path) as again:
        assert again.view(game_id)["players"] == view["players"]


@pytest.mark.parametrize(("change", "field"), [
    ({"edition": "chess"}, "edition:"),
    ({"name": ""}, "name:"),
    ({"format": 2}, "format:"),
    ({"settings": {"board": {"spaces": {"imperial-palace": {"kind": "parking"}}}}},
     "settings.board.spaces.imperial-palace.kind:"),
    ({"settings": {"board": {"spaces": {"forest-moon": {"kind": "free_parking", "color": ""}}}}},
     "settings.board.colors.endor: the rulebook's endor group has 3 properties, not 2"),
    ({"tags": {"04A1B2C3D4E5F6": "card:ch-02", "zz": "card:ch-03"}}, "tags.zz:"),
    ({"settings": {"board": BOARD, "order": "random"}}, "settings:"),
])
def test_invalid_profiles_are_refused_naming_the_field_and_nothing_is_saved(
        tmp_path: Path, change: dict[str, Any], field: str) -> None:
    with GameService(tmp_path) as service:
        profiles = Profiles(service.store.conn)
        TagRegistry(service.store.conn)
        with pytest.raises(ProfileError) as err:
            service.call(lambda: profiles.save(PROFILE | change))
        assert str(err.value).startswith(field), str(err.value)
        assert service.call(profiles.list) == []
        assert service.store.conn.execute("SELECT COUNT(*) FROM tags").fetchone()[0] == 0


def test_master_trainer_totals_are_checked() -> None:
    from companion.boxes.profiles import check

    with pytest.raises(ProfileError) as err:
        check({"edition": "master-trainer", "name": "x",
               "settings": {"item_deck": {"bonus_1": 7}}})
    assert str(err.value) == "settings.item_deck: adds up to 55; the rulebook has 54."
    groups = [["bulbasaur", "ivysaur"], ["pikachu", "raichu"]]
    ok = check({"edition": "master-trainer", "name": "x",
                "settings": {"evolution_groups": groups}})
    assert ok["settings"]["evolution_groups"] == groups
    with pytest.raises(ProfileError) as err:
        check({"edition": "master-trainer", "name": "x",
               "settings": {"evolution_groups": [["bulbasaur", "agumon"]]}})
    assert str(err.value).startswith("settings.evolution_groups[0]:")


def test_confirming_a_fact_clears_its_mark(tmp_path: Path) -> None:
    with GameService(tmp_path) as service:
        profiles = Profiles(service.store.conn)
        service.call(lambda: profiles.save(PROFILE))
        after = service.call(lambda: profiles.confirm("our box", "starwars",
                                                      "spaces.mos-eisley.rent"))
        assert "spaces.mos-eisley.rent" in after["settings"]["board"]["confirmed"]
        game_id = new_game(service, profile="our box")
        space = next(s for s in service.view(game_id)["board"]["spaces"]
                     if s["id"] == "mos-eisley")
        assert "unverified" in space and "rent" not in space["unverified"]


def test_backups_keep_profiles(tmp_path: Path) -> None:
    with GameService(tmp_path) as service:
        service.call(lambda: Profiles(service.store.conn).save(PROFILE))
    copy = backup.export_db(tmp_path / DB_NAME, tmp_path / "backups")
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT edition, name FROM box_profiles").fetchall() == [
            ("starwars", "our box")]


def test_the_cli_lists_shows_exports_imports_and_deletes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "profile.json"
    src.write_text(json.dumps(PROFILE))
    state = ["--state-dir", str(tmp_path / "s")]
    assert main(["profile", "import", str(src), *state]) == 0
    assert main(["profile", "list", *state]) == 0
    assert "starwars\tour box" in capsys.readouterr().out
    assert main(["profile", "export", "our box", *state]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["settings"]["board"] == BOARD
    assert main(["profile", "show", "our box", *state]) == 0
    assert "spaces.mos-eisley.rent" in json.loads(capsys.readouterr().out)["unverified"]
    assert main(["profile", "delete", "our box", *state]) == 0
    assert main(["profile", "show", "our box", *state]) == 2
    assert "there is no profile 'our box'" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(PROFILE | {"edition": "chess"}))
    assert main(["profile", "import", str(bad), *state]) == 2
    assert capsys.readouterr().err.startswith("companion: edition:")


def test_corrected_evolution_groups_give_the_bonus() -> None:
    from companion.editions.master_trainer.data import evolution_bonuses, load

    shipped = load()
    assert evolution_bonuses(("pidgey", "rattata"), shipped) == {}
    fixed = load({"evolution_groups": [["pidgey", "rattata"]]})
    assert evolution_bonuses(("pidgey", "rattata"), fixed) == {"rattata": 3}
    assert "evolution_groups" in shipped.unverified
    assert "evolution_groups" not in fixed.unverified


def test_a_tag_for_an_object_the_edition_does_not_have_is_refused() -> None:
    from companion.boxes.profiles import ProfileError, check

    base = {"edition": "master-trainer", "name": "box", "settings": {}}
    assert check({**base, "tags": {"04A1B2C3D4E5F6": "card:potion-5"}})["tags"]
    with pytest.raises(ProfileError, match="tags.04A1B2C3D4E5F6: card:potion-6 is not"):
        check({**base, "tags": {"04A1B2C3D4E5F6": "card:potion-6"}})
    more = {**base, "settings": {"item_deck": {"potion": 6, "bonus_1": 5}}}
    assert check({**more, "tags": {"04A1B2C3D4E5F6": "card:potion-6"}})["tags"]
    with pytest.raises(ProfileError, match="card:zz-99 is not"):
        check({"edition": "mario", "name": "box", "tags": {"04A1B2C3D4E5F6": "card:zz-99"}})
