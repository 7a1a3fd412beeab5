"""Messages as keys and arguments, rendered in each reader's language (docs/translating.md).

A :class:`Msg` is what the rules say: an English msgid with named ``{placeholders}`` (and,
with :class:`Msgs`, an English plural) plus its arguments. It *is* a ``str`` whose value is
the English text, so every reader written for plain text (logs, tests, the story) keeps
working; :func:`render` gives it in another language from the gettext catalogues in
``companion/locales/<lang>/LC_MESSAGES/messages.po`` and each edition's own beside it
(:func:`catalogue_folders`; Babel reads them: plural forms from each catalogue's
``Plural-Forms``, numbers and money from CLDR). English is the source language:
it has no catalogue.

Arguments are text (players' names), one of the box's own words (:class:`Word`: a space's
name, a card's text, in each language the edition's data gives), whole numbers,
:class:`Money`, another message, or a list of these (joined "A, B and C" in the reader's
language). A message is stored and sent as data
(:meth:`Msg.to_json`), never as finished text; old logs hold plain English, which stays as
it was written.
"""

from __future__ import annotations

import gettext
import hashlib
import json
import re
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from companion.engine.money import Currency

SOURCE = "en"
"""The language the messages are written in (no catalogue)."""
LOCALES = Path(__file__).parents[1] / "locales"
"""Companion's own catalogues (what companion/, web/, hardware/ say): ``messages.pot`` and one
folder per language, ``<lang>/LC_MESSAGES/messages.po``; each edition has its own folder of the
same shape (:func:`catalogue_folders`)."""
NAMES = {"en": "English", "it": "Italiano", "es": "Español"}
"""Each language by its own name (the page's choice shows these)."""
LANGUAGES = tuple(sorted({SOURCE, *(p.parent.parent.name for p in
                                    LOCALES.glob("*/LC_MESSAGES/messages.po"))}))
"""Every language a reader can choose."""
PSEUDO = "qps"
"""The pseudo-language (docs/translating.md): every message decorated ⟦…⟧ (its English text),
never offered to readers; a page or a table asks for it to see what is not from the catalogue
(tests/web/test_page_pseudo*.py, tests/hardware/test_oled_pseudo.py)."""
_FORMATTER = string.Formatter()
STORED = '{"msg":'
"""How a stored ``say`` that is a message starts (an old log's English never does)."""


@dataclass(frozen=True, slots=True)
class Money:
    """An amount of an edition's money as a message argument: each reader's own digits."""

    amount: int
    currency: Currency

    def to_json(self) -> dict[str, Any]:
        return {"money": self.amount, "cur": self.currency.to_json()}


@dataclass(frozen=True, slots=True)
class Chance:
    """A chance as a message argument, ``numerator`` in ``denominator``: each reader's words
    and digits ("likely (66.7 %)", "probabile (66,7 %)"); never rounded to certain."""

    numerator: int
    denominator: int

    def to_json(self) -> dict[str, Any]:
        return {"chance": [self.numerator, self.denominator]}


class Word(str):
    """One of the box's own words (a space's name, a card's text, a deck's title, a colour, a
    token, a type): ``str(word)`` is its English, ``key`` names it (``spaces.start.name``) and
    ``words`` holds it in each language the edition's data or the owner's box profile gives
    (docs/translating.md, "The box's words"). A reader whose language it lacks reads English;
    a word the owner typed without a language is the same in every language."""

    key: str
    words: Mapping[str, str]

    def __new__(cls, key: str, words: Mapping[str, str]) -> Word:
        english = words.get(SOURCE) or next(iter(words.values()), "")
        self = str.__new__(cls, english)
        self.key, self.words = key, {SOURCE: english, **words}
        return self

    @classmethod
    def same(cls, key: str, text: str) -> Word:
        """A word that reads ``text`` in every language (the owner's, typed as printed)."""
        return cls(key, {SOURCE: text})

    def __reduce__(self) -> tuple[Any, ...]:  # copies and pickles keep every language
        return Word.from_json, (self.to_json(),)

    def to_json(self) -> dict[str, str]:
        """The word as data: ``{"word": key, "en": ..., "it"?: ..., "es"?: ...}``."""
        return {"word": self.key, **self.words}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Word:
        return cls(str(raw["word"]), {str(k): str(v) for k, v in raw.items() if k != "word"})

    def said(self, lang: str) -> str:
        """The word in ``lang`` (English where the box's data has none)."""
        return self.words.get(lang) or str.__str__(self)

    def each(self, change: Callable[[str], str]) -> Word:
        """The word changed the same way in every language (a card's first sentence)."""
        return Word(self.key, {lang: change(text) for lang, text in self.words.items()})


class Msg(str):
    """A message: ``str(msg)`` is its English text; ``key`` and ``args`` render it anywhere."""

    key: str
    plural: str
    args: Mapping[str, Any]

    def __new__(cls, key: str, /, **args: Any) -> Msg:
        return cls._made(key, "", args)

    @classmethod
    def _made(cls, key: str, plural: str, args: Mapping[str, Any]) -> Msg:
        for value in args.values():
            if isinstance(value, bool) or not isinstance(
                    value, str | int | Money | Chance | list | tuple):
                raise TypeError("a message argument is text, a whole number, Money, a Chance, "
                                f"a Msg or a list of these: {value!r}")
        self = str.__new__(cls, _render(key, plural, args, SOURCE))
        self.key, self.plural, self.args = key, plural, args
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # copies and pickles keep the message
        return Msg.from_json, (self.to_json(),)

    def to_json(self) -> dict[str, Any]:
        """The message as data: ``{"msg", "plural"?, "args"}`` (nested values the same)."""
        out: dict[str, Any] = {"msg": self.key}
        if self.plural:
            out["plural"] = self.plural
        out["args"] = {k: _arg_json(v) for k, v in self.args.items()}
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Msg:
        """A message read back (a log, an export, a phone): its words hold only plain
        ``{name}`` placeholders, as every message the code says does (ValueError otherwise:
        a forged ``{title:>1000000000}`` would take a gigabyte to render)."""
        key, plural = str(raw["msg"]), str(raw.get("plural", ""))
        _plain_placeholders(key)
        _plain_placeholders(plural)
        args = {str(k): _arg_from(v) for k, v in dict(raw.get("args") or {}).items()}
        return cls._made(key, plural, args)


_PLACEHOLDER = re.compile(r"[^\W\d]\w*")


def _plain_placeholders(template: str) -> None:
    """ValueError unless each placeholder of ``template`` is a plain ``{name}`` (no format
    width, conversion, attribute or index)."""
    try:
        fields = [(name, spec, conv) for _, name, spec, conv in _FORMATTER.parse(template)
                  if name is not None]
    except ValueError as exc:
        raise ValueError(f"a message's words are not well formed ({exc})") from None
    for name, spec, conv in fields:
        if spec or conv or not _PLACEHOLDER.fullmatch(name):
            shown = name + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "")
            shown = shown if len(shown) <= 40 else shown[:40] + "..."
            raise ValueError(f"a message's placeholders are plain {{name}}s: {{{shown}}} is not")


def N_(text: str) -> str:  # noqa: N802 - gettext's name for it
    """``text`` marked for the catalogue (scripts/messages extracts it) and returned as it is:
    a label sent as data (the setup form's settings, the card effect editor's words) that the
    page translates where it shows it (``I18n.t(label)``)."""
    return text


def said(exc: BaseException) -> str:
    """What ``exc`` says: the :class:`Msg` it was raised with, else its text."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, Msg) else str(exc)


def Msgs(singular: str, plural: str, n: int, /, **args: Any) -> Msg:  # noqa: N802 - a Msg
    """A message with a plural: ``n`` picks the form (in each language by its own rule) and is
    the ``{n}`` argument."""
    return Msg._made(singular, plural, {"n": n, **args})


def _arg_json(value: Any) -> Any:
    if isinstance(value, Msg | Money | Chance | Word):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [_arg_json(v) for v in value]
    return str.__str__(value) if isinstance(value, str) else value


def _arg_from(raw: Any) -> Any:
    if isinstance(raw, list):
        return [_arg_from(v) for v in raw]
    if isinstance(raw, dict):
        if "msg" in raw:
            return Msg.from_json(raw)
        if "word" in raw:
            return Word.from_json(raw)
        if "id" in raw:  # a message event data stored by id (message_id)
            key, plural = message_by_id(str(raw["id"]))
            return Msg.from_json({"msg": key, "plural": plural, "args": raw.get("args")})
        if "chance" in raw:
            num, den = raw["chance"]
            return Chance(int(num), int(den))
        return Money(int(raw["money"]), Currency.from_json(raw["cur"]))
    return raw


# -- storage: the ``say`` of an event ------------------------------------------------------------
def stored(say: str) -> str:
    """The text the log keeps for ``say``: a message as its JSON, plain text as it is."""
    if isinstance(say, Msg):
        return json.dumps(say.to_json(), ensure_ascii=False, separators=(",", ":"))
    return say


def from_stored(text: str) -> str:
    """A stored ``say`` back: a :class:`Msg`, or the plain text an older version wrote."""
    if text.startswith(STORED):
        return Msg.from_json(json.loads(text))
    return text


def stored_data(data: Mapping[str, Any]) -> str:
    """An event's data as the log keeps it: a message inside (a prompt's text, a to-do's
    label) as its JSON, so a game read back after a restart still speaks each reader's
    language."""
    return json.dumps(_data_json(data), ensure_ascii=False, separators=(",", ":"))


def data_from_stored(text: str) -> dict[str, Any]:
    """Stored event data back, with its messages as :class:`Msg` again."""
    data: dict[str, Any] = json.loads(text)
    return _data_from(data) if '"msg":' in text or '"word":' in text or '"id":' in text \
        else data


# -- message ids: how event data stores a message ------------------------------------------------
RETIRED = "retired.json"
"""Beside each template: every msgid (and plural) the template dropped (``./scripts/messages``
adds them), so a message a log stored by id reads back after its words changed."""


def message_id(key: str, plural: str = "") -> str:
    """The stable id event data stores for message ``key`` (with ``plural``): a hash of its
    words, so it never needs assigning and never changes while the words stay."""
    return hashlib.blake2b(f"{key}\0{plural}".encode(), digest_size=5).hexdigest()


@cache
def known_messages() -> dict[str, tuple[str, str]]:
    """Every message an id can name: each catalogue's template (``messages.pot``: companion's
    and every installed edition's, :func:`catalogue_folders`) and retired ones, by
    :func:`message_id`."""
    out: dict[str, tuple[str, str]] = {}
    for template in templates():
        for key, plural in template_messages(template):
            if key:
                out.setdefault(message_id(key, plural), (key, plural))
    for key, plural in retired_messages():
        out.setdefault(message_id(key, plural), (key, plural))
    return out


def templates() -> list[Traversable]:
    """Each catalogue's template (``messages.pot``), companion's first."""
    return [t for folder in catalogue_folders()
            if (t := folder.joinpath("messages.pot")).is_file()]


def template_messages(path: Traversable) -> list[tuple[str, str]]:
    """The ``(msgid, plural)`` pairs of the template at ``path``: only its ``msgid`` and
    ``msgid_plural`` lines are read (much less work than Babel's full parse)."""
    out: list[tuple[str, str]] = []
    entry: dict[str, str] = {}
    field = ""  # the part being read: "msgid", "msgid_plural" or "" (a msgstr, a comment)
    for line in path.read_text("utf-8").splitlines():
        if line.startswith('"'):  # a continued string
            if field:
                entry[field] += json.loads(line)
            continue
        head, _, rest = line.partition(" ")
        if head == "msgid":
            if entry:
                out.append((entry["msgid"], entry["msgid_plural"]))
            entry = {"msgid": "", "msgid_plural": ""}
        field = head if head in ("msgid", "msgid_plural") else ""
        if field:
            entry[field] += json.loads(rest)
    if entry:
        out.append((entry["msgid"], entry["msgid_plural"]))
    return out


def retired_messages() -> list[tuple[str, str]]:
    """The ``(msgid, plural)`` pairs in every catalogue's :data:`RETIRED` list."""
    out = []
    for folder in catalogue_folders():
        path = folder.joinpath(RETIRED)
        if path.is_file():
            out += [(str(k), str(p)) for k, p in json.loads(path.read_text("utf-8"))]
    return out


def message_by_id(mid: str) -> tuple[str, str]:
    """The words (msgid, plural) of message id ``mid``; ValueError for an unknown id."""
    try:
        return known_messages()[mid]
    except KeyError:
        raise ValueError(f"no message has the id {mid!r}") from None


def _by_id(msg: Msg) -> dict[str, Any]:
    """``msg`` as event data stores it: ``{"id", "args"}`` when the catalogue knows its words
    (a sentence is not stored again in every event), else whole (:meth:`Msg.to_json`)."""
    mid = message_id(msg.key, msg.plural)
    if known_messages().get(mid) != (msg.key, msg.plural):
        return msg.to_json()
    return {"id": mid, "args": {k: _arg_by_id(v) for k, v in msg.args.items()}}


def _arg_by_id(value: Any) -> Any:
    if isinstance(value, Msg):
        return _by_id(value)
    if isinstance(value, list | tuple):
        return [_arg_by_id(v) for v in value]
    return _arg_json(value)


def _data_json(value: Any) -> Any:
    if isinstance(value, Msg):
        return _by_id(value)
    if isinstance(value, Word):
        return value.to_json()
    if isinstance(value, Mapping):
        return {k: _data_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_data_json(v) for v in value]
    return value


def _data_from(value: Any) -> Any:
    if isinstance(value, dict):
        if "msg" in value and "args" in value and value.keys() <= {"msg", "plural", "args"}:
            return Msg.from_json(value)
        if isinstance(value.get("id"), str) and value.keys() == {"id", "args"}:
            key, plural = message_by_id(value["id"])
            return Msg.from_json({"msg": key, "plural": plural, "args": value["args"]})
        if isinstance(value.get("word"), str) and SOURCE in value:
            return Word.from_json(value)
        return {k: _data_from(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_data_from(v) for v in value]
    return value


def localized(value: Any, lang: str) -> Any:
    """A copy of ``value`` (a view: dicts, lists) with every message rendered in ``lang``, for
    a reader of finished text (the OLED); English leaves it as it is."""
    if lang == SOURCE:
        return value
    if isinstance(value, Msg | Word):
        return render(value, lang)
    if isinstance(value, dict):
        return {k: localized(v, lang) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [localized(v, lang) for v in value]
    return value


def wire(value: Any) -> Any:
    """``value`` for a page: a message as its data with its English ``say`` beside it (a page
    that knows no catalogue shows that), anything else unchanged."""
    if isinstance(value, Msg):
        return {"say": str.__str__(value), **value.to_json()}
    if isinstance(value, Word):
        return value.to_json()
    return value


# -- rendering ------------------------------------------------------------------------------------
EDITION_LOCALES: list[Traversable] = []
"""Catalogue folders of the editions (:func:`add_catalogues`), beside companion's own."""
_FINDERS: list[Callable[[], Iterable[Traversable]]] = []


def add_catalogues(folder: Traversable) -> None:
    """Read an edition's own translations (``<lang>/LC_MESSAGES/messages.po`` in ``folder``,
    its template ``messages.pot`` and ``retired.json``) beside companion's: its messages render
    in every language the companion speaks, and a log's message ids name them."""
    if folder not in EDITION_LOCALES:
        EDITION_LOCALES.append(folder)
        _forget()


def find_catalogues_with(finder: Callable[[], Iterable[Traversable]]) -> None:
    """Told by the edition registry (:mod:`companion.plugins.editions`) how to list every
    installed edition's catalogue folder without loading its rules: asked the first time a
    catalogue or a message id is read, so each reader finds every edition's words whatever
    was loaded first (a page's catalogue fetched before any game, a log replayed)."""
    _FINDERS.append(finder)
    _forget()


def catalogue_folders() -> list[Traversable]:
    """Companion's catalogue folder, then each edition's."""
    while _FINDERS:
        for folder in _FINDERS.pop(0)():
            if folder not in EDITION_LOCALES:
                EDITION_LOCALES.append(folder)
    return [LOCALES, *EDITION_LOCALES]


def _forget() -> None:
    """Drop what was read from the catalogues (an edition's were added)."""
    for cached in (catalogue, known_messages, _plural_index, plural_forms):
        cached.cache_clear()


@cache
def catalogue(lang: str) -> Catalog | None:
    """Language ``lang``'s catalogue (companion's, with every edition's own messages), or None
    for English and unknown languages."""
    path = LOCALES / lang / "LC_MESSAGES" / "messages.po"
    if lang == SOURCE or not path.is_file():
        return None
    with path.open("rb") as f:
        cat = read_po(f, locale=lang)
    for folder in catalogue_folders()[1:]:
        extra = folder.joinpath(lang, "LC_MESSAGES", "messages.po")
        if extra.is_file():
            with extra.open("rb") as f:
                for message in read_po(f, locale=lang):
                    if message.id and message.id not in cat:
                        cat[message.id] = message
    return cat


@cache
def _plural_index(lang: str) -> Callable[[int], int]:
    cat = catalogue(lang)
    return gettext.c2py(cat.plural_expr if cat is not None else "(n != 1)")


def environment_language(env: Mapping[str, str]) -> str:
    """The terminal's language (the CLI): the first of LANGUAGE (a colon list), LC_ALL,
    LC_MESSAGES, LANG that is set, as gettext reads them; "C" or "POSIX" is English."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        if var == "LANGUAGE" and env.get("LC_ALL", env.get("LANG", "")) in ("C", "POSIX"):
            continue
        if var != "LANGUAGE" and value.split(".")[0] in ("C", "POSIX"):
            return SOURCE
        for part in value.split(":"):
            tag = part.split(".", 1)[0].split("@", 1)[0].replace("_", "-").lower()
            if tag.split("-", 1)[0] in LANGUAGES:
                return tag.split("-", 1)[0]
        if var != "LANGUAGE":
            return SOURCE
    return SOURCE


def render(value: str, lang: str) -> str:
    """``value`` in language ``lang``: a message or a box's word rendered, plain text as it
    is (the pseudo-language decorates both: ⟦Toy Street⟧)."""
    if isinstance(value, Word):
        return f"⟦{str.__str__(value)}⟧" if lang == PSEUDO else value.said(lang)
    if not isinstance(value, Msg):
        return value
    if lang == PSEUDO:
        return f"⟦{_render(value.key, value.plural, value.args, lang)}⟧"
    if lang == SOURCE or lang not in LANGUAGES:
        return str.__str__(value)
    return _render(value.key, value.plural, value.args, lang)


def _render(key: str, plural: str, args: Mapping[str, Any], lang: str) -> str:
    template = key
    cat = catalogue(lang)
    if plural:
        n = int(args["n"])
        index = _plural_index(lang)(n)
        template = key if index == 0 else plural
        entry = cat.get(key) if cat is not None else None
        if entry is not None and not entry.fuzzy and isinstance(entry.string, tuple):
            forms = entry.string
            if 0 <= index < len(forms) and forms[index]:
                template = forms[index]
    elif cat is not None:
        entry = cat.get(key)
        if entry is not None and not entry.fuzzy and isinstance(entry.string, str):
            template = entry.string or key
    values = {k: _value(v, lang) for k, v in args.items()}
    if lang in JOINED and any(isinstance(v, Msg) for v in args.values()):
        template = _join_articles(template, args, values, lang)
    try:
        return template.format_map(values)
    except (KeyError, IndexError, ValueError):  # a broken translation: the English instead
        return (plural if plural and template == plural else key).format_map(values)


JOINED: dict[str, dict[tuple[str, str], str]] = {
    "it": {(prep, art): stem + tail
           for prep, stem in (("di", "de"), ("a", "a"), ("da", "da"), ("in", "ne"), ("su", "su"))
           for art, tail in (("il", "l"), ("lo", "llo"), ("la", "lla"), ("l'", "ll'"),
                             ("i", "i"), ("gli", "gli"), ("le", "lle"))},
    "es": {("a", "el"): "al", ("de", "el"): "del"},
}
"""A preposition before an article makes one word ("da" + "la Banca": "dalla Banca"; "a" +
"el bote": "al bote"), where our own words (a message: the Bank, the pot) fill a placeholder;
the page gets the same table (:func:`page_catalogue`)."""
_BEFORE = re.compile(r"(?<![\w'’])(\w+) \{(\w+)\}")
_ARTICLE = re.compile(r"(l')|(\w+) ", re.IGNORECASE)


def _join_articles(template: str, args: Mapping[str, Any], values: dict[str, str],
                   lang: str) -> str:
    joined = JOINED[lang]

    def one(m: re.Match[str]) -> str:
        prep, name = m.group(1), m.group(2)
        value = values.get(name)
        if not isinstance(args.get(name), Msg) or value is None:
            return m.group(0)
        art = _ARTICLE.match(value)
        word = art and joined.get((prep.lower(), art.group(0).strip().lower()))
        if not art or not word:
            return m.group(0)
        key = f"_joined{len(values)}"
        rest = value[art.end():]
        values[key] = (word[0].upper() + word[1:] if prep[0].isupper() else word) + (
            "" if word.endswith("'") else " ") + rest
        return "{" + key + "}"

    return _BEFORE.sub(one, template)


def _value(value: Any, lang: str) -> str:
    if isinstance(value, Msg | Word):
        return render(value, lang)
    if isinstance(value, Money):
        return money(value.amount, value.currency, lang)
    if isinstance(value, Chance):
        return chance(value, lang)
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value, lang)
    if isinstance(value, list | tuple):  # "Ann and Bo", "Ann e Bo", "Ann y Bo"
        items = [_value(v, lang) for v in value]
        if lang == SOURCE or lang not in LANGUAGES:  # CLDR's English, as number() does
            return " and ".join(items) if len(items) < 3 else \
                ", ".join(items[:-1]) + ", and " + items[-1]
        return format_list(items, locale=_locale(lang))
    return str(value)


def number(value: int | float, lang: str, decimals: int = 0) -> str:
    """``value`` with ``lang``'s digits: 1,500 in English, 1.500 in Italian and Spanish."""
    if lang == SOURCE or lang not in LANGUAGES:
        # English is every message's own text, made for each line the rules say: Python's
        # format spec writes CLDR's English digits (tests/i18n compares them with Babel's),
        # and Babel's locale data (4.4 MB of CLDR) is loaded only for a reader of another
        # language (the 8-phone memory figure went over its 60 MB budget without this).
        return f"{value:,.{decimals}f}"
    pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
    return format_decimal(value, format=pattern, locale=_locale(lang), group_separator=True)


def chance(c: Chance, lang: str) -> str:
    """``c`` in words and a percentage with as many decimals as it needs not to read 0 % or
    100 % when it is neither (the page's i18n.js says it the same)."""
    num, den = c.numerator, c.denominator
    if den <= 0:
        return ""
    p = 100 * num / den
    k = 0
    while k < 6 and num != den and round(p, k) >= 100:
        k += 1
    while k < 6 and num != 0 and round(p, k) <= 0:
        k += 1
    word = (N_("certain") if num == den else N_("impossible") if num == 0
            else N_("almost certain") if p >= 99 else N_("very likely") if p >= 75
            else N_("likely") if p > 50 else N_("an even chance") if p == 50
            else N_("possible") if p >= 25 else N_("unlikely"))
    return f"{render(Msg(word), lang)} ({number(round(p, k), lang, k)} %)"


def money(amount: int, currency: Currency, lang: str) -> str:
    """``amount`` (minor units) the way ``lang`` writes it: €7,50 / €7.50, ₥1.500 / ₥1,500,
    "3 monete" / "3 coins" (a symbol goes first, as the boxes print it)."""
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    if currency.symbol:
        value = amount / 10**currency.decimals if currency.decimals else amount
        return f"{sign}{currency.symbol}{number(value, lang, currency.decimals)}"
    if "{" in currency.one + currency.many:  # a typed word that is no message: as typed
        return f"{sign}{number(amount, lang)} {currency.one if amount == 1 else currency.many}"
    # counted in things: "{n} coin", "{n} lemon" in the edition's catalogues, which get them
    # from its data (readings.extract_texts); else English words with the reader's digits
    one, many = currency.counted()
    return sign + render(Msg._made(one, many, {"n": amount}), lang)


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang if lang in LANGUAGES else SOURCE)


# -- the page's catalogue -------------------------------------------------------------------------
def page_catalogue(lang: str) -> dict[str, Any]:
    """What the page needs to render messages in ``lang`` (built from the same ``.po``):
    ``{"lang", "name", "languages", "plural", "messages": {msgid: text or [plural forms]}}``.
    The page picks a plural form by the browser's ``Intl.PluralRules`` category and
    ``plural`` (:func:`plural_forms`) and writes numbers with ``Intl.NumberFormat``."""
    messages: dict[str, Any] = {}
    cat = catalogue(lang)
    for entry in cat or ():
        if not entry.id or entry.fuzzy:
            continue
        if isinstance(entry.id, tuple | list):
            forms = [str(f) for f in entry.string or ()]
            if forms and all(forms):
                messages[str(entry.id[0])] = forms
        elif isinstance(entry.string, str) and entry.string:
            messages[entry.id] = entry.string
    return {"lang": lang if cat is not None else SOURCE, "name": NAMES.get(lang, lang),
            "languages": {code: NAMES.get(code, code) for code in LANGUAGES},
            "plural": plural_forms(lang), "messages": messages,
            "joined": [[prep, art, word] for (prep, art), word in JOINED.get(lang, {}).items()]}


SAMPLES = (*range(0, 1100), 10_000, 100_000, 1_000_000, 2_000_000, 1_500_000, 10**7, 10**9)
"""Counts at which each language's plural categories are looked at."""


@cache
def plural_forms(lang: str) -> dict[str, int]:
    """CLDR plural category (what ``Intl.PluralRules`` names) -> the catalogue's form index,
    read off the catalogue's own ``Plural-Forms`` at :data:`SAMPLES` (tests/i18n checks that
    each category always picks one form)."""
    lang = lang if lang in LANGUAGES else SOURCE
    category, index = _locale(lang).plural_form, _plural_index(lang)
    return {category(n): index(n) for n in SAMPLES}


PLACEHOLDER = re.compile(r"\{(\w+)\}")
"""A named argument in a message."""
