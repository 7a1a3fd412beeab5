"""Whole-board corrections: every fact of a space, spaces added, removed and reordered, checked
against what the edition handles and the totals its rulebook prints. Pure: raw dicts in and out.

A board correction (``settings.board``) is::

    {"spaces": {id: {"kind"?, "name"?, "color"?, "price"?, "rent"?, "amount"?, "deck"?}},
     "add": [{"id", "name", "kind", "after"?, ...}], "remove": [id, ...], "order": [id, ...],
     "cards": {id: {"text"}}, "confirmed": ["spaces.<id>.<field>", "cards.<id>.text", ...]}

Every refusal is a :class:`SetupError` whose message starts with the field it is about
(``spaces.imperial-palace.kind: ...``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from companion.engine.i18n import LANGUAGES, SOURCE, Msg, Msgs
from companion.engine.types import SetupError
from companion.monopoly import words
from companion.monopoly.totals import Totals

SPACE_FIELDS = ("kind", "name", "color", "price", "rent", "amount", "deck")
NUMBER_FIELDS = ("price", "rent", "amount")
KEYS = ("spaces", "add", "remove", "order", "cards", "confirmed", "language")
OWNABLE = ("location", "station")
STRUCTURAL = ("add", "remove", "order")
UNUSED = frozenset({"station"})
"""Kinds the shared rules know but no shipped edition's board has (offered only where used)."""
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


def field_error(path: str, text: str) -> SetupError:
    """A refusal naming the field first (the editor shows it next to that field)."""
    return SetupError(Msg("{field}: {reason}", field=path, reason=text))


_fail = field_error


def _choices(values: Iterable[str]) -> str:
    return ", ".join(sorted(values))


KNOWN: dict[str, tuple[frozenset[str], Totals]] = {}
"""Each loaded edition's kinds of space with a rule (``land_<kind>``) and the totals its
rulebook prints (``board_totals``), set by its rules as they load (``MonopolyRules.check``):
an edition is handed in, never looked up from here."""


def land_kinds(rules: type) -> frozenset[str]:
    """The kinds of space a rules class has a ``land_<kind>`` rule for."""
    return frozenset(n[len("land_"):] for n in dir(rules) if n.startswith("land_")) - UNUSED


def rulebook_totals(edition: str) -> Totals:
    """The totals the edition's rulebook prints about its board (none for an unknown one)."""
    return KNOWN.get(edition, (frozenset(), Totals()))[1]


def handled_kinds(edition: str, raw_spaces: Iterable[Mapping[str, Any]]) -> frozenset[str]:
    """Kinds of space the edition's rules handle: those on its own board plus every kind it has
    a ``land_<kind>`` rule for."""
    kinds = {str(s["kind"]) for s in raw_spaces}
    return frozenset(kinds | KNOWN.get(edition, (frozenset(), Totals()))[0])


def json_key(value: object) -> str | None:
    """``value`` as JSON text when it is made of JSON's own types only (so the text stands for
    it exactly and data built from it can be remembered by it), else None."""
    def plain(v: object) -> bool:
        if v is None or type(v) in (str, int, float, bool):
            return True
        if type(v) is list:
            return all(plain(x) for x in v)
        if type(v) is dict:
            return all(type(k) is str and plain(x) for k, x in v.items())
        return False

    return json.dumps(value) if plain(value) else None


def is_structural(corrections: Mapping[str, Any]) -> bool:
    """True when the correction changes the board's layout (kinds, spaces, order)."""
    if any(corrections.get(k) for k in STRUCTURAL):
        return True
    spaces = corrections.get("spaces") or {}
    return isinstance(spaces, Mapping) and any(
        isinstance(c, Mapping) and ("kind" in c or "color" in c) for c in spaces.values())


def edit_spaces(edition: str, raw: Mapping[str, Any], corrections: Mapping[str, Any],
                *, strict: bool = False) -> list[dict[str, Any]]:
    """The edition's raw space dicts with ``corrections`` applied and checked. The rulebook's
    totals are checked when the layout changes, or always when ``strict`` (a box profile)."""
    if not isinstance(corrections, Mapping):
        raise _fail("board", Msg("a board correction is an object (spaces, add, remove, "
                                 "order, cards, confirmed)."))
    unknown = set(corrections) - set(KEYS)
    if unknown:
        raise _fail(f"board.{sorted(unknown)[0]}", Msg("not a board correction; use {keys}.",
                                                       keys=_choices(KEYS)))
    if corrections.get("language", SOURCE) not in LANGUAGES:
        raise _fail("board.language", Msg("the box's language is one of {languages}.",
                                          languages=_choices(LANGUAGES)))
    default = [dict(s) for s in raw["spaces"]]
    kinds = handled_kinds(edition, default)
    colors = set(raw.get("colors", {}))
    decks = {str(d["id"]) for d in raw.get("decks", [])}
    rules = dict(raw.get("rules", {}))
    totals = rulebook_totals(edition)
    fixed = set(totals.fixed) | {v for v in rules.values() if isinstance(v, str)}
    spaces = {str(s["id"]): s for s in default}
    order = list(spaces)

    for n, new in enumerate(_list(corrections, "add")):
        path = f"add[{n}]"
        if not isinstance(new, Mapping):
            raise _fail(path, Msg("a new space is an object with id, name and kind."))
        sid = new.get("id")
        if not isinstance(sid, str) or not _ID.match(sid):
            raise _fail(f"{path}.id", Msg("a new space needs an id of lower-case letters, "
                                          "digits and dashes (1 to 40)."))
        if sid in spaces:
            raise _fail(f"{path}.id", Msg("there is already a space {space}.", space=repr(sid)))
        unknown_keys = set(new) - {"id", "after", *SPACE_FIELDS}
        if unknown_keys:
            raise _fail(f"{path}.{sorted(unknown_keys)[0]}", Msg(
                "a space has {fields} (and 'after').", fields=_choices(SPACE_FIELDS)))
        for needed in ("name", "kind"):
            if needed not in new:
                raise _fail(f"{path}.{needed}", Msg("a new space needs one."))
        after = new.get("after", order[-1])
        if not isinstance(after, str) or after not in order:
            raise _fail(f"{path}.after", Msg("there is no space {space} to put it after.",
                                             space=repr(after)))
        spaces[sid] = {"id": sid, "name": "", "kind": ""}
        order.insert(order.index(after) + 1, sid)
        _set_fields(spaces[sid], {k: v for k, v in new.items() if k in SPACE_FIELDS},
                    f"spaces.{sid}", kinds, colors, decks)

    for n, sid in enumerate(_list(corrections, "remove")):
        path = f"remove[{n}]"
        if not isinstance(sid, str) or sid not in spaces or sid not in order:
            raise _fail(path, Msg("there is no space {space} to remove.", space=repr(sid)))
        if sid in fixed:
            raise _fail(path, Msg("the rulebook places {space}; it cannot be removed.",
                                  space=repr(sid)))
        order.remove(sid)

    changes = corrections.get("spaces") or {}
    if not isinstance(changes, Mapping):
        raise _fail("spaces", Msg("space corrections map a space id to its changed fields."))
    for sid, change in changes.items():
        if sid not in order:
            raise _fail(f"spaces.{sid}", Msg("there is no space {space} on this board.",
                                             space=repr(sid)))
        if not isinstance(change, Mapping):
            raise _fail(f"spaces.{sid}", Msg("a space correction sets {fields}.",
                                             fields=_choices(SPACE_FIELDS)))
        bad = set(change) - set(SPACE_FIELDS)
        if bad:
            raise _fail(f"spaces.{sid}.{sorted(bad)[0]}",
                        Msg("not a fact of a space; correct {fields}.",
                            fields=_choices(SPACE_FIELDS)))
        if change.get("kind", spaces[sid]["kind"]) != spaces[sid]["kind"] and sid in fixed:
            raise _fail(f"spaces.{sid}.kind", Msg("the rulebook places {space}; its kind "
                                                  "stays {kind}.", space=repr(sid),
                                                  kind=repr(spaces[sid]["kind"])))
        _set_fields(spaces[sid], change, f"spaces.{sid}", kinds, colors, decks)

    wanted = corrections.get("order")
    if wanted is not None:
        if not isinstance(wanted, list) or sorted(map(str, wanted)) != sorted(order):
            missing = sorted(set(order) - set(map(str, wanted or [])))
            extra = sorted(set(map(str, wanted or [])) - set(order))
            why = (Msg("{space} is missing", space=repr(missing[0])) if missing else
                   Msg("{space} is not on the board", space=repr(extra[0])) if extra else
                   Msg("each space once"))
            raise _fail("order", Msg("list every space of the board once, starting at GO "
                                     "({why}).", why=why))
        order = [str(s) for s in wanted]

    out = [spaces[s] for s in order]
    _check_board(edition, out, totals, rules, colors,
                 structural=strict or is_structural(corrections))
    return out


def _list(corrections: Mapping[str, Any], key: str) -> list[Any]:
    value = corrections.get(key) or []
    if not isinstance(value, list):
        raise _fail(key, Msg("must be a list."))
    return value


def _set_fields(space: dict[str, Any], change: Mapping[str, Any], path: str,
                kinds: frozenset[str], colors: set[str], decks: set[str]) -> None:
    for key, value in change.items():
        where = f"{path}.{key}"
        if key in ("kind", "color", "deck") and not isinstance(value, str):
            raise _fail(where, Msg("a name from the edition's list."))
        if key == "kind":
            if value not in kinds:
                raise _fail(where, Msg("{value} is not a kind this edition handles; choose "
                                       "one of {kinds}.", value=repr(value),
                                       kinds=_choices(kinds)))
            space["kind"] = value
        elif key == "name":  # as printed, or {lang: name} (companion/monopoly/words.py)
            name = words.check_correction(value, 40)
            if name is None:
                raise _fail(where, Msg("a space name is 1 to 40 characters."))
            space["name"] = name if isinstance(name, str) else name.get(
                SOURCE, space["name"] or next(iter(name.values())))
        elif key == "color":
            if value != "" and value not in colors:
                raise _fail(where, Msg("{value} is not a colour group of this edition; "
                                       "choose one of {colors}.", value=repr(value),
                                       colors=_choices(colors)))
            space["color"] = value
        elif key == "deck":
            if value != "" and value not in decks:
                raise _fail(where, Msg("{value} is not a deck of this edition; choose one "
                                       "of {decks}.", value=repr(value), decks=_choices(decks)))
            space["deck"] = value
        else:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10**6:
                raise _fail(where, Msg("a whole amount from 0 to {most}.", most="1000000"))
            space[key] = value


def _check_board(edition: str, spaces: list[dict[str, Any]], totals: Totals,
                 rules: Mapping[str, Any], colors: set[str], *, structural: bool) -> None:
    """Each space makes sense; when the layout changed, the rulebook's totals hold."""
    if not spaces or spaces[0]["kind"] != "go":
        raise _fail("order", Msg("the board starts at GO."))
    groups: dict[str, list[str]] = {}
    for s in spaces:
        sid, kind = s["id"], s["kind"]
        if kind in OWNABLE:
            if kind == "location" and not s.get("color"):
                raise _fail(f"spaces.{sid}.color", Msg("a location needs a colour group; "
                                                       "choose one of {colors}.",
                                                       colors=_choices(colors)))
            if s.get("color"):
                groups.setdefault(str(s["color"]), []).append(sid)
        if kind == "card" and not s.get("deck"):
            raise _fail(f"spaces.{sid}.deck", Msg("a card space needs the deck it draws from."))
        if kind == "go_to_jail" and not any(o["kind"] == "jail" for o in spaces):
            raise _fail(f"spaces.{sid}.kind", Msg("'go_to_jail' needs a Jail space on the "
                                                  "board."))
    if not structural:
        return
    locations = sum(1 for s in spaces if s["kind"] == "location")
    want = totals.locations
    if want is not None and locations != want:
        raise _fail("spaces", Msgs("the board has {n} property; the rulebook has {want}.",
                                   "the board has {n} properties; the rulebook has {want}.",
                                   locations, want=want))
    if not locations:
        raise _fail("spaces", Msg("the board has no property to buy."))
    if totals.spaces is not None and len(spaces) != totals.spaces:
        raise _fail("spaces", Msgs("the board has {n} space; the rulebook has {want}.",
                                   "the board has {n} spaces; the rulebook has {want}.",
                                   len(spaces), want=totals.spaces))
    for kind, count in totals.kind_counts.items():
        have = sum(1 for s in spaces if s["kind"] == kind)
        if have != count:
            raise _fail("spaces", Msgs("the board has {n} {kind} space; the rulebook has "
                                       "{want}.", "the board has {n} {kind} spaces; the "
                                       "rulebook has {want}.", have, kind=kind, want=count))
    lo, hi = totals.group_size
    for color, members in sorted(groups.items()):
        exact = totals.group_exact.get(color)
        if exact is not None and len(members) != exact:
            raise _fail(f"colors.{color}", Msgs("the rulebook's {color} group has {n} "
                                                "property, not {have}.", "the rulebook's "
                                                "{color} group has {n} properties, not {have}.",
                                                exact, color=color, have=len(members)))
        if exact is None and not lo <= len(members) <= hi:
            raise _fail(f"colors.{color}", Msg(
                "a colour group has {lo} to {hi} properties, not {have} ({spaces}).", lo=lo,
                hi=hi, have=len(members), spaces=", ".join(members)) if lo != hi else Msg(
                "a colour group has {lo} properties, not {have} ({spaces}).", lo=lo,
                have=len(members), spaces=", ".join(members)))


# -- unverified facts -------------------------------------------------------------------------
_WORDS = (("name", "name"), ("price", "price"), ("rent", "rent"), ("amount", "tax"))


def unverified_facts(raw: Mapping[str, Any], spaces: Iterable[Mapping[str, Any]],
                     corrections: Mapping[str, Any]) -> list[str]:
    """Facts of this board shipped as defaults, not printed in the rulebook, and neither
    corrected nor confirmed: ``board.layout``, ``spaces.<id>.<field>``, ``cards.<id>.text``.

    A space may list its own ``unverified = [fields]`` in the data file; otherwise the
    edition's ``unverified`` words (names, prices, rents, tax amounts, card texts) apply."""
    words = " ".join(raw.get("edition", {}).get("unverified", ())).lower()
    facts: list[str] = []
    if any(w in words for w in ("layout", "order")) and not is_structural(corrections):
        facts.append("board.layout")
    changed = corrections.get("spaces") or {}
    for s in spaces:
        sid = str(s["id"])
        own = s.get("unverified")
        if isinstance(own, list):
            fields = [str(f) for f in own]
        else:
            fields = []
            for fact, word in _WORDS:
                applies = (s["kind"] in OWNABLE) if fact != "amount" else (
                    s["kind"] not in OWNABLE and int(s.get("amount", 0)) > 0)
                if applies and word in words:
                    fields.append(fact)
        fields = [f for f in fields if f not in changed.get(sid, {})]
        facts += [f"spaces.{sid}.{f}" for f in fields]
    if "card" in words:
        cards = corrections.get("cards") or {}
        facts += [f"cards.{c['id']}.text" for d in raw.get("decks", []) for c in d["cards"]
                  if c["id"] not in cards]
    confirmed = set(corrections.get("confirmed") or ())
    return [f for f in facts if f not in confirmed]


def check_confirmed(corrections: Mapping[str, Any], known: Iterable[str]) -> None:
    """``confirmed`` lists facts this board has (see :func:`unverified_facts`)."""
    confirmed = corrections.get("confirmed") or []
    if not isinstance(confirmed, list):
        raise _fail("confirmed", Msg("a list of facts such as 'spaces.<id>.price'."))
    known_set = set(known)
    for n, fact in enumerate(confirmed):
        if not isinstance(fact, str) or fact not in known_set:
            raise _fail(f"confirmed[{n}]", Msg("{fact} is not an unverified fact of this "
                                               "board.", fact=repr(fact)))


def facts_by_space(facts: Iterable[str]) -> dict[str, list[str]]:
    """``{"spaces.x.price", "cards.c.text", "spaces.y.name.it"}`` -> ``{"x": ["price"],
    "c": ["text"], "y": ["name"]}`` (a word in the box's language is its field's fact)."""
    out: dict[str, list[str]] = {}
    for fact in facts:
        parts = fact.split(".")
        if len(parts) == 3 or (len(parts) == 4 and parts[3] in LANGUAGES):
            out.setdefault(parts[1], []).append(parts[2])
    return out


def evolution_groups(value: Any, chips: Iterable[str],
                     default: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """The banker's Evolution Groups (lists of 2 or 3 chip slugs, least evolved first)."""
    if value is None:
        return default
    known = set(chips)
    if not isinstance(value, list):
        raise _fail("evolution_groups", Msg("a list of groups, each a list of 2 or 3 "
                                            "Pokémon."))
    out = []
    for n, group in enumerate(value):
        path = f"evolution_groups[{n}]"
        if not isinstance(group, list) or not 2 <= len(group) <= 3:
            raise _fail(path, Msg("a group lists 2 or 3 Pokémon, least evolved first."))
        for slug in group:
            if not isinstance(slug, str) or slug not in known:
                raise _fail(path, Msg("{chip} is not a Pokémon chip of this edition.",
                                      chip=repr(slug)))
        out.append(tuple(str(s) for s in group))
    return tuple(out)
