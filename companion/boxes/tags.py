"""The tag registry: which sticker (UID) is which game object, and enrolling them.

Transactions: the registry never commits or begins. Each method runs inside the caller's
transaction (the service's writer thread commits). Creating the table in ``__init__`` is DDL,
which Python's sqlite3 runs outside any implicit transaction when none is open.
:func:`enroll_interactive` is the exception: it is the ``companion enroll`` loop and commits
after every tag (through its ``commit`` argument), so an interrupted session resumes.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from companion.engine.i18n import Msg, Msgs, from_stored, render, said, stored
from companion.store import tag_table

ObjectList = Sequence[tuple[str, str]]
"""(object id, label) pairs, e.g. ("location:cave", "Cave's location card")."""

_UID = re.compile(r"^(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$")

class TagError(ValueError):
    """A UID that is not a 4-, 7- or 10-byte hex string."""


class TagAlreadyEnrolled(TagError):
    """The tag belongs to another object; ``enroll(..., move=True)`` moves it."""

    def __init__(self, uid: str, edition: str, obj: str, label: str, wanted: str) -> None:
        self.uid, self.edition, self.object, self.label = uid, edition, obj, label
        super().__init__(Msg("Tag {uid} is already enrolled as {object}; enroll it again with "
                             "move=True to move it to {wanted}", uid=uid, object=label or obj,
                             wanted=wanted))


def normalise_uid(uid: str) -> str:
    """Upper-case hex without separators; raises TagError for anything else."""
    clean = re.sub(r"[\s:\-]", "", str(uid)).upper()
    if not _UID.match(clean):
        raise TagError(Msg("Not a tag UID (4, 7 or 10 bytes of hex): {uid}", uid=repr(uid)))
    return clean


@dataclass(frozen=True, slots=True)
class EnrollmentProgress:
    """How far enrolling an edition's objects has got."""

    edition: str
    done: int
    total: int
    next_object: str | None
    """The first object still without a tag, or None when all are done."""
    next_label: str | None

    @property
    def finished(self) -> bool:
        return self.next_object is None

    @property
    def text(self) -> str:
        """``"12 of 48 done"`` (a message)."""
        return Msg("{done} of {total} done", done=self.done, total=self.total)

    @property
    def prompt(self) -> str:
        """``"Tap Cave's location card"``, or a closing line when all are done (a message)."""
        if self.next_label:
            return Msg("Tap {object}", object=self.next_label)
        return Msg("All tags enrolled")


@dataclass(frozen=True, slots=True)
class Enrolled:
    """What :meth:`TagRegistry.enroll` did."""

    uid: str
    moved_from: str | None = None
    """The object the tag belonged to before (a move)."""
    replaced_uid: str | None = None
    """The object's previous tag, now forgotten (a lost sticker replaced)."""


class TagRegistry:
    """UID -> (edition, object) in the ``tags`` table of the caller's connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        tag_table.ensure(conn)

    def lookup(self, uid: str) -> tuple[str, str] | None:
        """(edition, object) of the tag, or None for an unknown or malformed UID."""
        try:
            key = normalise_uid(uid)
        except TagError:
            return None
        row = tag_table.enrolled(self.conn, key)
        return (row[0], row[1]) if row else None

    def enroll(self, uid: str, edition: str, obj: str, label: str = "", *,
               move: bool = False, now: float | None = None) -> Enrolled:
        """Make ``uid`` stand for ``obj`` of ``edition``.

        Re-enrolling the same pair does nothing. A tag enrolled as another object raises
        TagAlreadyEnrolled unless ``move``. An object that had another tag gets this one
        instead (the old sticker is forgotten). Does not commit.
        """
        key = normalise_uid(uid)
        row = tag_table.enrolled(self.conn, key)
        if row and (row[0], row[1]) == (edition, obj):
            return Enrolled(key)
        if row and not move:  # its label as a message (an older registry's English as it is)
            raise TagAlreadyEnrolled(key, row[0], row[1], from_stored(row[2]), label or obj)
        moved_from = f"{row[0]} {row[1]}" if row else None
        old = tag_table.tag_of(self.conn, edition, obj)
        tag_table.put(self.conn, key, edition, obj, stored(label),
                      time.time() if now is None else now)
        return Enrolled(key, moved_from, old if old and old != key else None)

    def forget(self, uid: str) -> bool:
        """Remove a tag; True if it was enrolled. Does not commit."""
        return tag_table.forget(self.conn, normalise_uid(uid))

    def progress(self, edition: str, objects: ObjectList) -> EnrollmentProgress:
        """Done/total over ``objects`` (in order) and the first one still to tap."""
        have = tag_table.objects_with_tags(self.conn, edition)
        missing = [(o, label) for o, label in objects if o not in have]
        done = len(objects) - len(missing)
        first = missing[0] if missing else (None, None)
        return EnrollmentProgress(edition, done, len(objects), first[0], first[1])


def enroll_interactive(registry: TagRegistry, edition_objects: tuple[str, ObjectList],
                       read_uid: Callable[[], str | None], out: TextIO, *,
                       confirm: Callable[[str], bool] | None = None,
                       commit: Callable[[], None] | None = None,
                       lang: str = "en", title: str = "") -> EnrollmentProgress:
    """Walk the banker through every object of ``edition_objects = (edition, objects)``
    that has no tag yet, in order; resumable since progress comes from the table.

    ``read_uid()`` blocks until a tag is tapped and returns its UID, or None/"" to stop.
    A tag already enrolled as something else is refused, unless ``confirm(question)``
    (e.g. a y/N prompt) agrees to move it. ``commit`` (default: the registry connection's)
    runs after each tag. Returns the progress when stopped or done. Its words are in
    ``lang`` (the terminal's, companion.engine.i18n.environment_language); ``title`` names the
    edition.
    """
    edition, objects = edition_objects
    save = commit or registry.conn.commit

    def say(msg: Msg) -> None:
        print(render(msg, lang), file=out)

    while True:
        progress = registry.progress(edition, objects)
        if progress.finished:
            say(Msgs("The {n} tag of {edition} is enrolled.", "All {n} tags of {edition} are "
                     "enrolled.", progress.total, edition=title or edition))
            return progress
        say(Msg("{prompt} now ({progress}).", prompt=progress.prompt, progress=progress.text))
        raw = read_uid()
        if not raw:
            say(Msg("Stopped; {progress}. Run enroll again to continue.",
                    progress=progress.text))
            return progress
        assert progress.next_object is not None and progress.next_label is not None
        try:
            done = registry.enroll(raw, edition, progress.next_object, progress.next_label)
        except TagAlreadyEnrolled as exc:
            question = Msg("Tag {uid} is {object}. Move it to {next}?", uid=exc.uid,
                           object=exc.label or exc.object, next=progress.next_label)
            if confirm is None or not confirm(render(question, lang)):
                say(Msg("{reason}. Tap another tag.", reason=said(exc)))
                continue
            done = registry.enroll(raw, edition, progress.next_object, progress.next_label,
                                   move=True)
        except TagError as exc:
            say(Msg("{reason}. Tap again.", reason=said(exc)))
            continue
        save()
        if done.moved_from:
            say(Msg("{object}: {uid} (moved from {old})", uid=done.uid, old=done.moved_from,
                    object=_capital(progress.next_label, lang)))
        else:
            say(Msg("{object}: {uid}", object=_capital(progress.next_label, lang), uid=done.uid))



def _capital(label: str, lang: str) -> str:
    """``label`` in ``lang`` to begin a line ("Il segnalino Mushroom: 04A1B2C3")."""
    text = render(label, lang)
    return text[:1].upper() + text[1:]
