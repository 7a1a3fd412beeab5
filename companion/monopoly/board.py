"""An edition's board, decks and rule settings, loaded from ``seeds/<edition>.toml``.

The banker may correct what a rulebook does not give (names, prices, rents, card texts) when
setting up a game; those corrections come in the game's settings and are applied here.
"""

from __future__ import annotations

import json
import tomllib
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from typing import Any, TypeVar

from companion.engine.i18n import LANGUAGES, SOURCE, Msg, Word
from companion.engine.money import Currency
from companion.engine.readings import data_file, shown
from companion.engine.registry import effect_args_type
from companion.engine.seeds import SeedError, check_names, effect_args, validate
from companion.engine.types import SetupError
from companion.monopoly import board_edit, words

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Space:
    """One space of a ring board."""

    index: int
    id: str
    name: str
    kind: str
    """``go``, ``location``, ``card``, ``tax``, ``jail``, ``free_parking``, ``go_to_jail``, or an
    edition's own kind (``super_star``, ``lapras``, ...)."""
    color: str = ""
    """The colour set (or type) of an ownable space."""
    price: int = 0
    rent: int = 0
    deck: str = ""
    """The deck drawn from on a ``card`` space."""
    amount: int = 0
    """What a ``tax`` space (or similar) charges."""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def ownable(self) -> bool:
        return self.kind in ("location", "station")


@dataclass(frozen=True, slots=True)
class Card:
    """One card of a deck; ``effect`` is a dict from the card vocabulary (see cards.py)."""

    id: str
    deck: str
    text: str
    effect: Mapping[str, Any]

    @property
    def keep(self) -> bool:
        return bool(self.effect.get("do") == "keep")

    @property
    def first_sentence(self) -> str:
        """The card's first sentence (a trade or a battle names the card by it), in each
        language of the box's word."""
        if isinstance(self.text, Word):
            return self.text.each(lambda t: t.split(".")[0])
        return self.text.split(".")[0]


@dataclass(frozen=True)
class Board:
    """Everything an edition's data file says about the game."""

    edition: str
    title: str
    currency: Currency
    spaces: tuple[Space, ...]
    decks: Mapping[str, tuple[Card, ...]]
    deck_titles: Mapping[str, str]
    rules: Mapping[str, Any]
    colors: Mapping[str, tuple[int, ...]]
    color_names: Mapping[str, str]
    unverified: tuple[str, ...] = ()
    """The data file's notes on its unverified facts, each the box's word
    (``edition.unverified.1``)."""
    tokens: tuple[str, ...] = ()
    """The box's tokens, each the box's word; its English is its id (a player's ``token``)."""
    token_colours: Mapping[str, str] = field(default_factory=dict)
    """The colour of each token that has one ("Red token": "red"), as the phones draw it."""
    data: Mapping[str, Any] = field(default_factory=dict)
    """Edition-specific data tables from the file (types, tracker mats, ...)."""

    @property
    def language(self) -> str:
        """The box's language (``board.language``): the words its owner reads on it."""
        return str(self.data.get("language", SOURCE))

    def token(self, token: str) -> str:
        """A player's token as the box's word (a token the box does not list as it is)."""
        return next((t for t in self.tokens if t == token), token)

    def rule(self, key: str, default: Any = None) -> Any:
        return self.rules.get(key, default)

    def find(self, key: str | int) -> Space:
        """A space by index or id."""
        if isinstance(key, int):
            return self.spaces[key]
        for s in self.spaces:
            if s.id == key:
                return s
        raise KeyError(key)

    def first(self, kind: str) -> Space:
        for s in self.spaces:
            if s.kind == kind:
                return s
        raise KeyError(kind)

    def card(self, card_id: str) -> Card:
        """A card by id (the first with it, in deck order)."""
        return self.derived("cards_by_id", _cards_by_id)[card_id]

    @property
    def ownable(self) -> tuple[int, ...]:
        return self.derived("ownable", _ownable)

    def derived(self, name: str, build: Callable[[Board], T]) -> T:
        """A value computed from this board by ``build``, once per board and kept with it
        (the board is immutable and shared by every game that starts from it)."""
        found: T | None = self.__dict__.get("_" + name)
        if found is None:
            found = build(self)
            object.__setattr__(self, "_" + name, found)
        return found


def _ownable(board: Board) -> tuple[int, ...]:
    return tuple(s.index for s in board.spaces if s.ownable)


def _cards_by_id(board: Board) -> dict[str, Card]:
    table: dict[str, Card] = {}
    for cards in board.decks.values():
        for c in cards:
            table.setdefault(c.id, c)
    return table


@cache
def _raw(edition: str) -> Mapping[str, Any]:
    try:
        text = data_file(edition).read_text("utf-8")
    except FileNotFoundError as exc:
        raise SetupError(f"No data file for edition {edition!r}.") from exc
    return tomllib.loads(text)


@cache
def _words(edition: str) -> Mapping[str, Mapping[str, Any]]:
    """The edition's words files, ``{lang: file}``: ``seeds/<edition>.<lang>.toml`` beside its
    data file (companion/monopoly/words.py)."""
    out: dict[str, Mapping[str, Any]] = {}
    for lang in LANGUAGES:
        try:
            text = data_file(edition, f".{lang}.toml").read_text("utf-8")
        except FileNotFoundError:
            continue
        out[lang] = tomllib.loads(text)
    return out


_MONEY = {"start": int, "one": str, "many": str, "symbol?": str, "decimals?": int, "*": True}
_CARD = {"id": str, "text": str, "effect": {"do": str, "*": True}}
SEED_SCHEMA: dict[str, Any] = {
    "edition": {"title": str, "unverified?": [str], "tokens?": [str],
                "token_colours?": {"*": True}, "language?": str, "*": True},
    "money": _MONEY,
    "spaces": [{"id": str, "name": str, "kind": str, "color?": str, "price?": int,
                "rent?": int, "deck?": str, "amount?": int, "*": True}],
    "decks?": [{"id": str, "title": str, "cards": [_CARD]}],
    "rules?": {"*": True},
    "colors?": {"*": True},
    "*": True,
}
"""The shape of ``seeds/<edition>.toml`` (edition tables such as Pokémon's ``types`` are
free; ``extra`` space fields are kept for the edition)."""


def check_seed(edition: str, rules: object, quiet_kinds: frozenset[str]) -> None:
    """Validate ``seeds/<edition>.toml`` and check that every space kind and card effect it
    names has a declared handler taking the arguments the file gives (SeedError if not)."""
    source = shown(edition)
    try:
        raw = _raw(edition)
    except tomllib.TOMLDecodeError as exc:
        raise SeedError(f"{source}: {exc}") from None
    validate(raw, SEED_SCHEMA, source)
    check_board_names(raw, source, rules, quiet_kinds)
    check_words(edition, raw, source)


WORDS_SCHEMA: dict[str, Any] = {"verified?": [str], "edition?": {"unverified?": [str]},
                                **{f"{t}?": {"*": True} for t in words.TABLES}}
"""The shape of a words file, ``seeds/<edition>.<lang>.toml`` (companion/monopoly/words.py)."""


def check_words(edition: str, raw: Mapping[str, Any], source: str) -> None:
    """Each words file names only words the data file has (SeedError if not)."""
    ids = {"spaces": [s["id"] for s in raw["spaces"]],
           "decks": [d["id"] for d in raw.get("decks", [])],
           "cards": [c["id"] for d in raw.get("decks", []) for c in d["cards"]],
           "colors": list(raw.get("colors", {})), "tokens": raw["edition"].get("tokens", []),
           "types": list(raw.get("types", {}))}
    if raw["edition"].get("language", SOURCE) not in LANGUAGES:
        raise SeedError(f"{source}: edition.language is one of {', '.join(LANGUAGES)}.")
    known = {words.key(t, str(i)) for t, items in ids.items() for i in items}
    for lang, file in _words(edition).items():
        where = source.removesuffix(".toml") + f".{lang}.toml"
        validate(file, WORDS_SCHEMA, where)
        for table in words.TABLES:
            for item, text in dict(file.get(table, {})).items():
                if words.key(table, item) not in known or not isinstance(text, str):
                    raise SeedError(f"{where}: {table}.{item} is not a word of {source}.")
        if len(words.notes(file)) > len(words.notes(raw)):
            raise SeedError(f"{where}: edition.unverified has more notes than {source}'s.")
        for name in file.get("verified", ()):
            if name not in known:
                raise SeedError(f"{where}: verified {name!r} is not a word of {source}.")


def check_board_names(raw: Mapping[str, Any], source: str, rules: object,
                      quiet_kinds: frozenset[str]) -> None:
    """Every ``spaces[i].kind`` and ``decks[d].cards[c].effect.do`` of ``raw`` is handled."""
    for i, s in enumerate(raw["spaces"]):
        check_names(rules, "space", s["kind"], f"{source}: spaces[{i}] ({s['id']}).kind",
                    quiet_kinds)
    for d, deck in enumerate(raw.get("decks", [])):
        for c, card in enumerate(deck["cards"]):
            where = f"{source}: decks[{d}].cards[{c}] ({card['id']}).effect"
            args = {k: v for k, v in card["effect"].items() if k != "do"}
            method = check_names(rules, "effect", card["effect"]["do"], where + ".do")
            assert method is not None
            effect_args(method, args, where)


def load_board(edition: str, corrections: Mapping[str, Any] | None = None) -> Board:
    """The board of ``edition`` with the banker's ``corrections`` applied.

    ``corrections`` = ``{"spaces": {space_id: {"kind"?, "name"?, "color"?, "price"?, "rent"?,
    "amount"?, "deck"?}}, "add"?, "remove"?, "order"?, "cards": {card_id: {"text"?,
    "effect"?}}, "confirmed"?}`` (see companion/monopoly/board_edit.py); anything wrong is refused
    with a SetupError naming the field. A corrected ``effect`` is checked against the rules by
    check_card_effects.

    The board is immutable, so it is built once per edition and corrections (remembered by
    their JSON text: a changed correction is another board) and shared by every game that
    starts from it; a refusal is never remembered.
    """
    key = board_edit.json_key(corrections or {})
    if key is None:  # not plain JSON data (a tuple, a non-text key): built each time
        return _build_board(edition, corrections)
    return _remembered_board(edition, key)


@lru_cache(maxsize=32)
def _remembered_board(edition: str, corrections_json: str) -> Board:
    return _build_board(edition, json.loads(corrections_json))


def _build_board(edition: str, corrections: Mapping[str, Any] | None) -> Board:
    corrections = corrections or {}
    raw = _raw(edition)
    known = words.translations(_words(edition))
    money = raw["money"]
    raw_spaces = board_edit.edit_spaces(edition, raw, corrections)
    changes = corrections.get("spaces") or {}
    added = {str(a["id"]): a for a in corrections.get("add") or ()}
    shipped = {str(o["id"]): str(o["name"]) for o in raw["spaces"]}

    def space_name(s: Mapping[str, Any]) -> Word:
        """A space's name: the data file's words, or the owner's correction over them."""
        sid = str(s["id"])
        fix = changes.get(sid, {}).get("name", added.get(sid, {}).get("name"))
        return words.word(words.key("spaces", sid), shipped.get(sid) or str(s["name"]), known,
                          str(s["name"]) if isinstance(fix, str) else fix)

    spaces = tuple(
        Space(
            index=i,
            id=str(s["id"]),
            name=space_name(s),
            kind=str(s["kind"]),
            color=str(s.get("color", "")),
            price=int(s.get("price", 0)),
            rent=int(s.get("rent", 0)),
            deck=str(s.get("deck", "")),
            amount=int(s.get("amount", 0)),
            extra={k: v for k, v in s.items() if k not in _SPACE_KEYS},
        )
        for i, s in enumerate(raw_spaces)
    )
    decks: dict[str, tuple[Card, ...]] = {}
    titles: dict[str, str] = {}
    for d in raw.get("decks", []):
        titles[d["id"]] = words.word(words.key("decks", d["id"]), str(d["title"]), known)
        decks[d["id"]] = tuple(
            Card(str(c["id"]), d["id"], words.word(words.key("cards", c["id"]), str(c["text"]),
                                                   known), dict(c["effect"]))
            for c in d["cards"]
        )
    spaces, decks = _correct(spaces, decks, {"cards": corrections.get("cards") or {}})
    language = str(corrections.get("language") or raw["edition"].get("language", SOURCE))
    checked = words.verified(_words(edition))

    def facts_of(fixes: Mapping[str, Any]) -> list[str]:
        facts = board_edit.unverified_facts(raw, raw_spaces, {**fixes, "confirmed": []})
        if language != SOURCE:
            facts = words.language_facts(facts, language, known, checked)
        return facts

    board_edit.check_confirmed(corrections, facts_of({}) + board_edit.unverified_facts(
        raw, raw_spaces, {}))
    confirmed = set(corrections.get("confirmed") or ())
    facts = [f for f in facts_of(corrections) if f not in confirmed]
    colors: dict[str, list[int]] = {}
    for s in spaces:
        if s.ownable and s.color:
            colors.setdefault(s.color, []).append(s.index)
    return Board(
        edition=edition,
        title=str(raw["edition"]["title"]),
        currency=Currency.from_json(money),
        spaces=spaces,
        decks=decks,
        deck_titles=titles,
        rules=dict(raw.get("rules", {})) | {"start_money": int(money["start"])},
        colors={k: tuple(v) for k, v in colors.items()},
        color_names={k: words.word(words.key("colors", k), str(v), known)
                     for k, v in raw.get("colors", {}).items()},
        unverified=tuple(words.word(words.note_key(n), note, known)
                         for n, note in enumerate(words.notes(raw), 1)),
        tokens=tuple(words.word(words.key("tokens", t), t, known)
                     for t in raw["edition"].get("tokens", ())),
        token_colours={str(k): str(v) for k, v in
                       raw["edition"].get("token_colours", {}).items()},
        data={k: v for k, v in raw.items() if k not in _TOP_KEYS} | {"unverified_facts": facts}
        | _typed_words(raw, known) | ({"language": language} if language != SOURCE else {}),
    )


def _typed_words(raw: Mapping[str, Any], known: Mapping[str, Mapping[str, str]]
                 ) -> dict[str, Any]:
    """An edition's ``types`` table (Pokémon's) with each type's name as the box's word."""
    if "types" not in raw:
        return {}
    return {"types": {t: {**v, "name": words.word(words.key("types", t), str(v["name"]), known)}
                      for t, v in raw["types"].items()}}


def _card_change(cid: str, change: object, known: set[str]) -> dict[str, Any]:
    """The fields a card correction sets: ``text`` (1 to 200 characters) and/or ``effect``
    (``{"do": word, ...arguments}``, checked against the rules by :func:`check_card_effects`)."""
    if cid not in known:
        raise _card_fail(f"cards.{cid}", Msg("there is no such card in this edition."))
    if not isinstance(change, Mapping) or not change or set(change) - {"text", "effect"}:
        raise _card_fail(f"cards.{cid}", Msg("a card correction sets its text and/or its "
                                             "effect."))
    out: dict[str, Any] = {}
    if "text" in change:
        text = words.check_correction(change["text"], 200)
        if text is None:
            raise _card_fail(f"cards.{cid}.text", Msg("1 to 200 characters."))
        out["text"] = text
    if "effect" in change:
        eff = change["effect"]
        if not isinstance(eff, Mapping) or not isinstance(eff.get("do"), str):
            raise _card_fail(f"cards.{cid}.effect", Msg("choose what the card does."))
        out["effect"] = dict(eff)
    return out


def _card_words(card: Card, change: Mapping[str, Any]) -> dict[str, Any]:
    """A card correction with its text as the box's word over the card's own."""
    if "text" not in change:
        return dict(change)
    text = change["text"]
    shipped = card.text.words if isinstance(card.text, Word) else {}
    return {**change, "text": words.word(words.key("cards", card.id), str.__str__(card.text),
                                         {words.key("cards", card.id): dict(shipped)}, text)}


def _card_fail(path: str, reason: Msg) -> SetupError:
    """A card correction's refusal naming its field first (the editor places it there)."""
    return SetupError(Msg("{field}: {reason}", field=path, reason=reason))


_ARG_WORDS: dict[type, Msg] = {int: Msg("a whole number."), str: Msg("a word."),
                               bool: Msg("yes or no.")}
"""What an effect's argument of each type must be, in the banker's words."""


def check_card_effects(board: Board, corrections: Mapping[str, Any] | None, rules: object) -> None:
    """SetupError unless every corrected card ``effect`` names a declared ``@effect`` with
    arguments it accepts, of the right type (a ``space`` must be on the board)."""
    for cid, change in dict((corrections or {}).get("cards", {})).items():
        if not isinstance(change, Mapping) or "effect" not in change:
            continue
        eff = dict(board.card(cid).effect)
        word = eff.pop("do")
        where = f"cards.{cid}.effect"
        try:
            method = check_names(rules, "effect", word, where + ".do")
            assert method is not None
            hints = typing.get_type_hints(effect_args_type(method))
            for key, value in eff.items():  # the banker's words for a value of a wrong type
                want = hints.get(key)
                wrong = isinstance(want, type) and (
                    not isinstance(value, want) or (isinstance(value, bool) and want is not bool))
                if wrong and want in _ARG_WORDS:
                    raise _card_fail(f"{where}.{key}", _ARG_WORDS[want])
            effect_args(method, eff, where)
        except SeedError as exc:
            raise SetupError(str(exc)) from None
        for key, value in eff.items():
            if isinstance(value, int) and not isinstance(value, bool) and key in (
                    "amount", "fee") and not 0 <= value <= 10**6:
                raise _card_fail(f"{where}.{key}", Msg("a whole amount from 0."))
            if key == "kind" and value not in {s.kind for s in board.spaces}:
                raise _card_fail(f"{where}.kind", Msg(
                    "no space of kind '{kind}' on this board.", kind=str(value)))
            if key == "space" and value != "here":  # Mario: "here", where the card was drawn
                try:
                    board.find(str(value))
                except KeyError:
                    raise _card_fail(f"{where}.space", Msg(
                        "there is no space '{space}' on this board.", space=str(value))) from None


_SPACE_KEYS = {"id", "name", "kind", "color", "price", "rent", "deck", "amount", "unverified"}
_TOP_KEYS = {"edition", "money", "spaces", "decks", "rules", "colors"}


def _correct(
    spaces: tuple[Space, ...],
    decks: dict[str, tuple[Card, ...]],
    corrections: Mapping[str, Any],
) -> tuple[tuple[Space, ...], dict[str, tuple[Card, ...]]]:
    unknown = set(corrections) - {"spaces", "cards"}
    if unknown:
        raise SetupError(
            f"Board corrections may change 'spaces' and 'cards', not {sorted(unknown)}."
        )
    by_id = {s.id: s for s in spaces}
    out = list(spaces)
    for sid, change in dict(corrections.get("spaces", {})).items():
        if sid not in by_id:
            raise SetupError(f"There is no space {sid!r} on this board.")
        if not isinstance(change, Mapping) or set(change) - {"name", "price", "rent", "amount"}:
            raise SetupError(f"A space correction may set name, price, rent or amount ({sid}).")
        fields: dict[str, Any] = {}
        for key, value in change.items():
            if key == "name":
                if not isinstance(value, str) or not 0 < len(value.strip()) <= 40:
                    raise SetupError(f"A space name must be 1 to 40 characters ({sid}).")
                fields[key] = value.strip()
            else:
                if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10**6:
                    raise SetupError(f"{key} of {sid} must be a whole amount from 0.")
                fields[key] = value
        out[by_id[sid].index] = replace(by_id[sid], **fields)
    known = {c.id for cards in decks.values() for c in cards}
    card_changes = {cid: _card_change(cid, change, known)
                    for cid, change in dict(corrections.get("cards", {})).items()}
    if card_changes:
        decks = {
            name: tuple(replace(c, **_card_words(c, card_changes[c.id]))
                        if c.id in card_changes else c for c in cards)
            for name, cards in decks.items()
        }
    return tuple(out), decks
