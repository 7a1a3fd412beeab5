"""Box profiles: the owner's corrections for one edition, saved once under a name and chosen at
setup for every later game (docs/profiles.md).

A profile is ``{"format": 1, "edition", "name", "settings", "tags"}``: ``settings`` is exactly
what the setup form sends (board corrections, card texts, decks, chips, evolution groups,
readings, house rules), ``tags`` maps card tag UIDs to objects (``"card:chance-03"``). It lives
in the ``box_profiles`` table of the companion's database. A game made from a profile stores the
profile's settings in its own setup, so it replays the same even if the profile changes later.
"""

from __future__ import annotations

import copy
import json
import re
import sqlite3
import time
from collections.abc import Mapping
from typing import Any

from companion.boxes import card_tags
from companion.boxes.monopoly_box import MonopolyBox
from companion.boxes.tags import TagError, normalise_uid
from companion.engine.box import BoxProfile
from companion.engine.i18n import Msg, said
from companion.engine.types import GameSetup, PlayerSeat, SetupError
from companion.plugins.editions import available, find_edition
from companion.store import profile_table

FORMAT = 1
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.'-]{0,39}$")


class ProfileError(SetupError):
    """A profile that cannot be saved, found or used; the message names the field."""


class ProfileNotFound(ProfileError):
    """No profile by that name (for that edition)."""


# -- checking ---------------------------------------------------------------------------------
def check(raw: Any) -> dict[str, Any]:
    """The profile in its stored form, or ProfileError naming the first wrong field."""
    if not isinstance(raw, Mapping):
        raise ProfileError(Msg("profile: a profile is a JSON object (format, edition, name, "
                               "settings, tags)."))
    unknown = set(raw) - {"format", "edition", "name", "settings", "tags", "note"}
    if unknown:
        raise ProfileError(Msg("{field}: not part of a profile.", field=sorted(unknown)[0]))
    fmt = raw.get("format", FORMAT)
    if fmt != FORMAT:
        raise ProfileError(Msg("format: this companion reads profile format {known}, not "
                               "{given}.", known=FORMAT, given=repr(fmt)))
    edition = raw.get("edition")
    if edition not in available():
        raise ProfileError(Msg("edition: {given} is not an edition; choose one of {editions}.",
                               given=repr(edition), editions=", ".join(available())))
    name = raw.get("name")
    if not isinstance(name, str) or not _NAME.match(name.strip()):
        raise ProfileError(Msg("name: 1 to 40 letters, digits, spaces, dots, dashes or "
                               "underscores."))
    note = raw.get("note", "")
    if not isinstance(note, str) or len(note) > 500:
        raise ProfileError(Msg("note: text of at most {n} characters.", n=500))
    settings = raw.get("settings", {})
    if not isinstance(settings, Mapping):
        raise ProfileError(Msg("settings: an object, as the setup form sends it."))
    tags = raw.get("tags", {})
    if not isinstance(tags, Mapping):
        raise ProfileError(Msg("tags: an object mapping tag UIDs to objects."))
    clean_tags: dict[str, str] = {}
    for uid, obj in tags.items():
        try:
            key = normalise_uid(uid)
        except TagError as exc:
            raise ProfileError(Msg("{field}: {reason}.", field=f"tags.{uid}",
                                   reason=said(exc))) from None
        if not isinstance(obj, str) or not 0 < len(obj) <= 80:
            raise ProfileError(Msg("tags.{uid}: the object the tag stands for, e.g. "
                                   "'card:<id>'.", uid=str(uid)))
        if obj in clean_tags.values():
            raise ProfileError(Msg("tags.{uid}: {object} already has another tag.",
                                   uid=str(uid), object=obj))
        clean_tags[key] = obj
    out = {"format": FORMAT, "edition": edition, "name": name.strip(), "note": note,
           "settings": copy.deepcopy(dict(settings)), "tags": clean_tags}
    _check_settings(out)
    _check_card_tags(out)
    return out


def box_of(rules: Any) -> BoxProfile:
    """What a profile holds for the edition of ``rules``: its declared ``box``, else the
    Monopoly family's board and cards, else nothing to correct."""
    box: BoxProfile | None = getattr(rules, "box", None)
    if box is None:
        box = MonopolyBox() if getattr(rules, "family", "") == "monopoly" else BoxProfile()
    return box


def _check_card_tags(profile: Mapping[str, Any]) -> None:
    """Each card tag stands for a card of this box (Master Trainer: of its deck counts)."""
    rules = find_edition(profile["edition"])
    known = box_of(rules).card_objects(rules, profile["settings"])
    for uid, obj in profile["tags"].items():
        if obj.startswith("card:") and obj not in known:
            raise ProfileError(Msg("tags.{uid}: {object} is not a card of this box "
                                   "(card:<id>; Master Trainer card:<kind>-<number>).",
                                   uid=uid, object=obj))


def _check_settings(profile: Mapping[str, Any]) -> None:
    """A trial game with the profile's settings; for a board, the rulebook's totals hold."""
    edition, settings = profile["edition"], profile["settings"]
    rules = find_edition(edition)
    try:
        box_of(rules).check(rules, settings)
    except SetupError as exc:
        raise ProfileError(said(exc)) from None
    lo = int(getattr(rules, "min_players", 2))
    seats = tuple(PlayerSeat(f"p{i}", f"P{i}") for i in range(1, lo + 1))
    try:
        rules.initial_state(GameSetup(edition, seats, 0, "digital", dict(settings)))
    except SetupError as exc:
        text = said(exc)
        raise ProfileError(text if str(text).split(" ")[0].endswith(":") else
                           Msg("settings: {error}", error=text)) from None
    except (TypeError, ValueError, KeyError, AttributeError) as exc:  # a value of a wrong type
        raise ProfileError(f"settings: a value has the wrong type ({exc}).") from None


# -- unverified facts -------------------------------------------------------------------------
def unverified(profile: Mapping[str, Any]) -> list[str]:
    """Facts the profile still takes from the shipped defaults (neither corrected nor
    confirmed)."""
    rules = find_edition(profile["edition"])
    return box_of(rules).unverified(rules, profile["settings"])


def confirm(profile: Mapping[str, Any], fact: str) -> dict[str, Any]:
    """The profile with ``fact`` confirmed as printed on the owner's box (the mark clears)."""
    out = copy.deepcopy(dict(profile))
    if fact not in unverified(out):
        raise ProfileError(Msg("fact: {fact} is not an unverified fact of this profile.",
                               fact=repr(fact)))
    rules = find_edition(out["edition"])
    box_of(rules).confirm(rules, out["settings"], fact)
    return check(out)


# -- storage ----------------------------------------------------------------------------------
class Profiles:
    """The ``box_profiles`` table on a connection in autocommit mode (the store's)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        profile_table.ensure(conn)

    def list(self, edition: str | None = None) -> list[dict[str, Any]]:
        return [{"edition": e, "name": n, "updated": u}
                for e, n, u in profile_table.listed(self.conn, edition)]

    def get(self, name: str, edition: str | None = None) -> dict[str, Any]:
        """The profile called ``name`` (``edition`` needed only when two editions share it)."""
        rows = profile_table.bodies(self.conn, name, edition)
        if not rows:
            raise ProfileNotFound(Msg("profile: there is no profile {name} for {edition}.",
                                      name=repr(name), edition=edition) if edition else
                                  Msg("profile: there is no profile {name}.", name=repr(name)))
        if len(rows) > 1:
            raise ProfileError(Msg("profile: several editions have a profile {name}; name "
                                   "the edition.", name=repr(name)))
        return dict(json.loads(rows[0]))

    def save(self, raw: Any, *, replace: bool = True, now: float | None = None
             ) -> dict[str, Any]:
        """Check and save a profile (its card tags are kept in it: companion/boxes/card_tags.py);
        refused if one of them is enrolled as another object."""
        profile = check(raw)
        with profile_table.transaction(self.conn):
            exists = profile_table.exists(self.conn, profile["edition"], profile["name"])
            if exists and not replace:
                raise ProfileError(f"name: {profile['edition']} already has a profile "
                                   f"{profile['name']!r}; delete it or choose another name.")
            moved = card_tags.moved_tag(self.conn, profile)  # its tags stay in it
            if moved is not None:
                raise ProfileError(moved)
            profile_table.put(self.conn, profile["edition"], profile["name"],
                              json.dumps(profile, ensure_ascii=False),
                              time.time() if now is None else now)
        return profile

    def delete(self, name: str, edition: str | None = None) -> dict[str, Any]:
        profile = self.get(name, edition)
        profile_table.delete(self.conn, profile["edition"], profile["name"])
        return profile

    def confirm(self, name: str, edition: str | None, fact: str) -> dict[str, Any]:
        return self.save(confirm(self.get(name, edition), fact))

    def resolve(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """A setup naming ``"profile"`` with the profile's settings merged in (the setup's own
        settings win); the result no longer names the profile, so the game keeps every
        correction it was made with."""
        out = {k: v for k, v in raw.items() if k != "profile"}
        name = raw.get("profile")
        if name in (None, ""):
            return out
        if not isinstance(name, str):
            raise ProfileError("profile: the name of a saved profile.")
        edition = raw.get("edition")
        return merged(out, self.get(name, edition if isinstance(edition, str) else None))


def merged(raw: Mapping[str, Any], profile: Mapping[str, Any]) -> dict[str, Any]:
    """A setup (without ``"profile"``) with ``profile``'s settings under its own; refused if
    the setup names another edition."""
    out = {k: v for k, v in raw.items() if k != "profile"}
    edition = raw.get("edition")
    if edition is not None and edition != profile["edition"]:
        raise ProfileError(f"profile: {profile['name']!r} is a {profile['edition']} profile, "
                           f"not {edition}.")
    given = raw.get("settings") or {}
    if not isinstance(given, Mapping):
        raise ProfileError("settings: must be a JSON object.")
    out["edition"] = profile["edition"]
    out["settings"] = copy.deepcopy(dict(profile["settings"])) | dict(given)
    return out


# -- files ------------------------------------------------------------------------------------
def export_text(profile: Mapping[str, Any]) -> str:
    """The profile as one readable JSON file (format version first)."""
    ordered = {k: profile[k] for k in ("format", "edition", "name", "note", "settings", "tags")
               if k in profile}
    return json.dumps(ordered, indent=2, ensure_ascii=False) + "\n"


def import_text(text: str) -> dict[str, Any]:
    """Read an exported profile (checked; nothing is saved here)."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProfileError(f"profile: not a JSON profile file ({exc}).") from None
    return check(raw)
