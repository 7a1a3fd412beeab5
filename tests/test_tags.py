import io
import sqlite3

import pytest

from companion.boxes.tags import TagAlreadyEnrolled, TagError, TagRegistry, enroll_interactive

OBJECTS = [("location:cave", "Cave's location card"), ("token:pikachu", "the Pikachu token"),
           ("chip:bulbasaur", "the Bulbasaur chip")]


@pytest.fixture
def registry() -> TagRegistry:
    return TagRegistry(sqlite3.connect(":memory:"))


def test_enrolled_tag_is_found_in_any_spelling(registry: TagRegistry) -> None:
    registry.enroll("04a1b2c3d4e5f6", "pokemon", "token:pikachu", "the Pikachu token")
    assert registry.lookup("04:A1:B2:C3:D4:E5:F6") == ("pokemon", "token:pikachu")
    assert registry.lookup("DEADBEEF") is None
    assert registry.lookup("not a uid") is None


def test_tag_of_another_object_is_refused_with_an_offer_to_move(registry: TagRegistry) -> None:
    registry.enroll("DEADBEEF", "pokemon", "location:cave", "Cave's location card")
    with pytest.raises(TagAlreadyEnrolled, match="move=True"):
        registry.enroll("DEADBEEF", "pokemon", "token:pikachu")
    done = registry.enroll("DEADBEEF", "pokemon", "token:pikachu", move=True)
    assert done.moved_from == "pokemon location:cave"
    assert registry.lookup("DEADBEEF") == ("pokemon", "token:pikachu")


def test_new_sticker_for_an_object_replaces_the_lost_one(registry: TagRegistry) -> None:
    registry.enroll("DEADBEEF", "pokemon", "location:cave")
    done = registry.enroll("CAFEBABE", "pokemon", "location:cave")
    assert done.replaced_uid == "DEADBEEF" and registry.lookup("DEADBEEF") is None


def test_bad_uid_is_refused(registry: TagRegistry) -> None:
    with pytest.raises(TagError):
        registry.enroll("12345", "pokemon", "location:cave")


def test_progress_names_the_next_object(registry: TagRegistry) -> None:
    registry.enroll("DEADBEEF", "pokemon", "location:cave")
    p = registry.progress("pokemon", OBJECTS)
    assert (p.done, p.total, p.text, p.prompt) == (
        1, 3, "1 of 3 done", "Tap the Pikachu token")


def test_registry_does_not_commit_for_the_caller(tmp_path: object) -> None:
    path = f"{tmp_path}/t.db"
    conn = sqlite3.connect(path)
    TagRegistry(conn).enroll("DEADBEEF", "pokemon", "location:cave")
    conn.rollback()
    assert TagRegistry(sqlite3.connect(path)).lookup("DEADBEEF") is None


def test_interactive_enrollment_resumes_where_it_stopped(tmp_path: object) -> None:
    path = f"{tmp_path}/t.db"
    out = io.StringIO()
    uids = iter(["04A1B2C3D4E5F6", ""])
    enroll_interactive(TagRegistry(sqlite3.connect(path)), ("pokemon", OBJECTS),
                       lambda: next(uids), out)
    assert "Tap Cave's location card now (0 of 3 done)" in out.getvalue()
    out = io.StringIO()
    uids = iter(["04A1B2C3D4E5F6", "DEADBEEF", "CAFEBABE"])
    progress = enroll_interactive(TagRegistry(sqlite3.connect(path)), ("pokemon", OBJECTS),
                                  lambda: next(uids), out)
    text = out.getvalue()
    assert text.startswith("Tap the Pikachu token now (1 of 3 done)")
    assert "already enrolled as Cave's location card" in text  # re-tapped the first tag
    assert progress.finished and progress.done == 3


def test_interactive_move_when_confirmed(registry: TagRegistry) -> None:
    registry.enroll("DEADBEEF", "other", "token:x")
    uids = iter(["DEADBEEF", ""])
    enroll_interactive(registry, ("pokemon", OBJECTS[:1]), lambda: next(uids), io.StringIO(),
                       confirm=lambda q: True)
    assert registry.lookup("DEADBEEF") == ("pokemon", "location:cave")
