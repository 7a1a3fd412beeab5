"""Which object a tapped sticker stands for, with box profiles (docs/profiles.md, "Card tags").

A box profile's card tags belong to that box: they are kept in the profile (its ``tags``), not
copied into the tag registry, so two boxes of one edition each keep their stickers for the
same card. A tap is read, in order, as: the card tag of the profile the served game was set
up with; the tag registry (``companion enroll``: tokens, location cards); a card tag that the
saved profiles list for one object only. A profile never moves a tag the registry holds as
another object: saving (or importing) it is refused, naming the tag and what it is.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from companion.boxes.tags import TagRegistry, normalise_uid
from companion.engine.i18n import Msg, from_stored
from companion.store import tag_table


def read_tag(conn: sqlite3.Connection, uid: str, game: tuple[str, str] | None
             ) -> tuple[str, str] | None:
    """``(edition, object)`` the tag stands for at a table serving ``game`` = ``(edition,
    profile name)`` (None: no game), or None for a tag nobody enrolled."""
    try:
        key = normalise_uid(uid)
    except ValueError:
        return None
    listed = tag_table.profile_listings(conn, key)
    if game is not None:
        mine = {obj for edition, name, obj in listed if (edition, name) == game}
        if mine:
            return game[0], mine.pop()
    found = TagRegistry(conn).lookup(key)
    if found is not None:
        return found
    objects = {(edition, obj) for edition, _, obj in listed}
    return objects.pop() if len(objects) == 1 else None


def moved_tag(conn: sqlite3.Connection, profile: Mapping[str, Any]) -> Msg | None:
    """Why ``profile`` cannot be saved if one of its tags is enrolled in the registry as
    another object (a card tag a saved profile copied there before claims nothing), else
    None."""
    registry = TagRegistry(conn)
    for uid, obj in profile["tags"].items():
        row = tag_table.enrolled(registry.conn, uid)
        if row is None or (row[0], row[1]) == (profile["edition"], obj):
            continue
        if any((edition, listed) == (row[0], row[1])
               for edition, _, listed in tag_table.profile_listings(conn, uid)):
            continue
        label = from_stored(row[2]) or row[1]
        return Msg("tags.{uid}: this tag is enrolled as {thing}; a profile never moves "
                           "an enrolled tag. Enroll it again as {object} first if it really is "
                           "that card, or give the card another tag.", uid=uid, thing=label,
                   object=obj)
    return None
