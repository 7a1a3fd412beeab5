"""The edition's data (chips, decks, rival cards, evolution groups) read from
``seeds/master-trainer/*.toml``, with the banker's corrections from the game settings."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from companion.engine import readings
from companion.engine.i18n import SOURCE, Msg, Msgs, Word
from companion.engine.types import SetupError
from companion.monopoly import board_edit

COLOURS = ("pink", "green", "blue", "red")
"""Chip colours found on the board's Catch'em spaces (yellow lives in the Unknown Dungeon)."""


RULEBOOK_TOTALS = {"item_deck": 54, "event_deck": 54, "board_spaces": 37}
"""The rulebook's totals: 54 Item Cards, 54 Event Cards, 37 chips on the board's spaces."""
RULEBOOK_DECKS = {"item_deck": Msg("Item Cards"), "event_deck": Msg("Event Cards")}
"""The totals that are decks, in words: a box may have lost some of their cards."""


def check_totals(counts: Mapping[str, Mapping[str, int]]) -> tuple[str, ...]:
    """The board's chip spaces add up to the printed total; a deck may be short of it (a
    real box loses cards), never empty nor above it. Returns each short deck's difference
    in words, to be said once (at setup, in the profile editor)."""
    notes = []
    for name, total in RULEBOOK_TOTALS.items():
        have = sum(counts[name].values())
        if name in RULEBOOK_DECKS and have == 0:
            raise board_edit.field_error(name, Msg("no cards: a deck needs at least one."))
        if name in RULEBOOK_DECKS and have < total:
            notes.append(Msgs("{deck}: {have} in this box, the rulebook has {total} ({n} "
                              "missing).", "{deck}: {have} in this box, the rulebook has "
                              "{total} ({n} missing).", total - have,
                              deck=RULEBOOK_DECKS[name], have=have, total=total))
        elif have != total:
            raise board_edit.field_error(name, Msg("adds up to {have}; the rulebook has "
                                                   "{total}.", have=have, total=total))
    return tuple(notes)


@dataclass(frozen=True, slots=True)
class Chip:
    """One Pokémon chip as printed."""

    number: int
    slug: str
    """Stable id used in commands (``pidgey``, ``nidoran-f``, ``mr-mime``)."""
    name: str
    colour: str
    """``starter``, ``pink``, ``green``, ``blue``, ``red`` or ``yellow``."""
    power: int
    """Power Points counted towards the goal of 20."""
    attack: str
    strength: int
    """Attack Strength used in battles."""
    catch: tuple[int, ...]
    """Die faces that catch it (empty for starters)."""
    label: str = field(init=False, repr=False, compare=False)
    """``#16 Pidgey``: how the chip is offered (made once; every chip choice lists it)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "label", Msg("#{number} {name}", number=self.number,
                                              name=self.name))

    @property
    def tag(self) -> str:
        return f"chip:{self.number}-{self.slug}"


@dataclass(frozen=True, slots=True)
class Ball:
    key: str
    """The Item Card kind (``great_ball``)."""
    name: str
    adjust: tuple[int, ...]
    keep_roll: bool


@dataclass(frozen=True, slots=True)
class Rival:
    key: str
    name: str
    pokemon: str
    strength: int
    bonus: tuple[int, ...]
    """The Master's Attack Bonus for rolls 1 to 6."""
    verified: bool


@dataclass(frozen=True, slots=True)
class EditionData:
    """Everything the rules look up, settings already applied."""

    chips: Mapping[str, Chip]
    groups: tuple[tuple[str, ...], ...]
    balls: Mapping[str, Ball]
    item_deck: Mapping[str, int]
    item_names: Mapping[str, str]
    event_deck: Mapping[str, int]
    event_names: Mapping[str, str]
    rivals: Mapping[str, Rival]
    board_spaces: Mapping[str, int]
    city_items: int
    limits: Mapping[str, Any]
    movers: Mapping[str, str]
    unverified: tuple[str, ...]
    """Names of data tables whose values are not printed in the rulebook."""
    deck_notes: tuple[str, ...] = ()
    """A deck short of the rulebook's total (a lost card), each in words, said once."""
    _by_colour: Mapping[str, tuple[Chip, ...]] = field(init=False, repr=False, compare=False)
    _names: Mapping[str, str] = field(init=False, repr=False, compare=False)
    _groups: tuple[tuple[frozenset[str], str, int], ...] = field(init=False, repr=False,
                                                                compare=False)
    _bonuses: dict[tuple[str, ...], Mapping[str, int]] = field(
        init=False, repr=False, compare=False)
    """``evolution_bonuses`` per team already asked about (a view asks once per chip)."""

    def __post_init__(self) -> None:
        by_colour: dict[str, list[Chip]] = {}
        names = {slug: slug for slug in self.chips}  # a slug first, then as chip_arg reads
        for chip in self.chips.values():
            by_colour.setdefault(chip.colour, []).append(chip)
            for name in (str(chip.number), f"{chip.number}-{chip.slug}", chip.name.lower()):
                names.setdefault(name, chip.slug)
        object.__setattr__(self, "_by_colour", {k: tuple(v) for k, v in by_colour.items()})
        object.__setattr__(self, "_names", names)
        object.__setattr__(self, "_groups", tuple(
            (frozenset(g), g[-1], 3 if len(g) == 2 else 5) for g in self.groups))
        object.__setattr__(self, "_bonuses", {})

    def chip(self, slug: str) -> Chip:
        return self.chips[slug]

    def of_colour(self, colour: str) -> list[Chip]:
        return list(self._by_colour.get(colour, ()))

    def group_bonuses(self) -> tuple[tuple[frozenset[str], str, int], ...]:
        """Each Evolution Group as (its members, its last member, the bonus it earns)."""
        return self._groups

    def chip_named(self, text: str) -> str | None:
        """The slug of the chip ``text`` names (slug, number, ``16-pidgey`` or name, lower
        case), or None."""
        return self._names.get(text)


ITEM_WORDS = {
    "bonus_1": Msg("Attack Bonus 1"), "bonus_2": Msg("Attack Bonus 2"),
    "bonus_3": Msg("Attack Bonus 3"), "bonus_4": Msg("Attack Bonus 4"),
    "bonus_5": Msg("Attack Bonus 5"), "great_ball": Msg("Great Ball"),
    "ultra_ball": Msg("Ultra Ball"), "master_ball": Msg("Master Ball"),
    "time_machine": Msg("Time Machine"), "fly": Msg("Fly"), "potion": Msg("Potion"),
    "poke_doll": Msg("Poké Doll"),
}
"""The Item Cards' printed names as messages (each language's own Pokémon terms: Mega Ball,
Superpozione...), by kind; a name the seed spells otherwise stays as the seed has it."""
EVENT_WORDS = {
    "unknown_dungeon": Msg("Unknown Dungeon Pokémon"), "chance": Msg("Chance Card"),
    "pokemon_center": Msg("Pokémon Center"), "trade": Msg("Trade Pokémon"),
    "lets_fight": Msg("Let's Fight!"), "take_1": Msg("Take Item Card 1"),
    "take_2": Msg("Take Item Card 2"), "take_3": Msg("Take Item Card 3"),
}
"""The Event Cards' printed names as messages, by kind."""
CHIP_WORDS = {
    "starter": Msg("starter chip"), "pink": Msg("pink chip"), "green": Msg("green chip"),
    "blue": Msg("blue chip"), "red": Msg("red chip"), "yellow": Msg("yellow chip"),
}
"""A chip of each colour, as a sentence names it ("a {chip}": un gettone rosso, una ficha
roja): the colour agrees with the word for chip in each language."""


def worded(words: Mapping[str, Msg], names: Mapping[str, str]) -> dict[str, str]:
    """``names`` (kind -> printed name) with each name that has a message as that message."""
    return {k: words[k] if k in words and words[k] == v else v for k, v in names.items()}


def _read(name: str) -> dict[str, Any]:
    text = resources.files("seeds").joinpath("master-trainer", f"{name}.toml").read_text("utf-8")
    return tomllib.loads(text)


@cache
def _raw() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    return _read("chips"), _read("rules"), _read("evolution")


def _counts(table: Mapping[str, Any], override: Any, what: str) -> dict[str, int]:
    counts = {k: int(v) for k, v in table.items() if k not in ("verified",)}
    if override is None:
        return counts
    if not isinstance(override, Mapping):
        raise SetupError(f"Setting {what!r} must map names to counts.")
    for key, value in override.items():
        if key not in counts:
            raise SetupError(f"Setting {what!r}: unknown name {key!r}.")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise SetupError(f"Setting {what!r}: {key} must be a whole number, 0 or more.")
        counts[key] = value
    return counts


def _rivals(table: Mapping[str, Any], override: Any) -> dict[str, Rival]:
    override = override or {}
    if not isinstance(override, Mapping):
        raise SetupError("Setting 'rivals' must map rival names to their printed values.")
    out = {}
    for key, raw in table.items():
        fix = override.get(key, {})
        if not isinstance(fix, Mapping):
            raise SetupError(f"Setting 'rivals': {key} needs 'strength' and/or 'bonus'.")
        strength = fix.get("strength", raw["strength"])
        bonus = fix.get("bonus", raw["bonus"])
        if not isinstance(strength, int) or isinstance(strength, bool) or strength < 0:
            raise SetupError(f"Setting 'rivals': {key}'s strength must be a whole number.")
        if (
            not isinstance(bonus, list | tuple)
            or len(bonus) != 6
            or not all(isinstance(b, int) and not isinstance(b, bool) for b in bonus)
        ):
            raise SetupError(f"Setting 'rivals': {key}'s bonus must list 6 numbers (rolls 1-6).")
        verified = bool(raw.get("verified", True)) or ("strength" in fix and "bonus" in fix)
        out[key] = Rival(key, box_word(f"rivals.{key}.name", raw["name"]),
                         box_word(f"rivals.{key}.pokemon", raw["pokemon"]), strength,
                         tuple(bonus), verified)
    unknown = set(override) - set(table)
    if unknown:
        raise SetupError(f"Setting 'rivals': unknown rival {sorted(unknown)[0]!r}.")
    return out


def box_word(key: str, name: str) -> Word:
    """A name printed on the box (a Pokémon's, a Rival's), the same in Italian and Spanish,
    as the box's word: every reader reads it as printed, and the pseudo-language marks it
    (docs/translating.md, "The box's words")."""
    return Word(key, {SOURCE: str(name)})


def extract_attacks(fileobj: Any, keywords: Any, comment_tags: Any, options: Any
                    ) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extraction method for ``seeds/master-trainer/chips.toml`` (babel.cfg): each
    chip's attack, a game term a child reads in their language (Leech Seed: Parassiseme,
    Drenadoras), as the Pokémon games name it (docs/translating.md)."""
    for chip in tomllib.loads(fileobj.read().decode("utf-8")).get("chip", ()):
        if chip.get("attack"):
            yield 0, "N_", str(chip["attack"]), []


def load(settings: Mapping[str, Any] | None = None) -> EditionData:
    """The edition's data with the banker's corrections from ``settings`` (SetupError if bad).

    Immutable, so built once per settings (remembered by their JSON text) and shared."""
    key = board_edit.json_key(settings or {})
    if key is None:  # not plain JSON data: built each time
        return _build(settings)
    return _remembered(key)


@lru_cache(maxsize=32)
def _remembered(settings_json: str) -> EditionData:
    return _build(json.loads(settings_json))


def _build(settings: Mapping[str, Any] | None) -> EditionData:
    settings = settings or {}
    chips_raw, rules, evolution = _raw()
    chips = {
        c["slug"]: Chip(
            c["number"], c["slug"], box_word(f"chips.{c['slug']}.name", c["name"]), c["colour"],
            c["power"], c["attack"], c["strength"], tuple(c["catch"]),
        )
        for c in chips_raw["chip"]
    }
    may_keep = readings.chosen("master-trainer", settings, "ball_adjust") == "may"
    readings.check("master-trainer", settings)
    balls = {
        f"{k}_ball": Ball(f"{k}_ball", worded(ITEM_WORDS, {f"{k}_ball": v["name"]})[f"{k}_ball"],
                          tuple(v["adjust"]), v["keep_roll"] and may_keep)
        for k, v in rules["balls"].items()
    }
    unverified = [
        name
        for name in ("item_deck", "event_deck", "board_spaces", "city_items")
        if not rules[name].get("verified", True) and name not in settings
    ]
    rivals = _rivals(rules["rivals"], settings.get("rivals"))
    unverified += [f"rivals.{k}" for k, r in rivals.items() if not r.verified]
    city = settings.get("city_items", rules["city_items"]["count"])
    if not isinstance(city, int) or isinstance(city, bool) or not 0 <= city <= 3:
        raise SetupError("Setting 'city_items' must be a whole number from 0 to 3.")
    counts = {name: _counts(rules[name], settings.get(name), name)
              for name in ("item_deck", "event_deck", "board_spaces")}
    notes = check_totals(counts)  # the rulebook's totals, for every game
    groups = board_edit.evolution_groups(settings.get("evolution_groups"), chips,
                                         tuple(tuple(g) for g in evolution["groups"]))
    if "evolution_groups" not in settings:
        unverified.append("evolution_groups")
    return EditionData(
        chips=chips,
        groups=groups,
        balls=balls,
        item_deck=counts["item_deck"],
        item_names=worded(ITEM_WORDS, rules["item_names"]),
        event_deck=counts["event_deck"],
        event_names=worded(EVENT_WORDS, rules["event_names"]),
        rivals=rivals,
        board_spaces=counts["board_spaces"],
        city_items=city,
        limits=dict(rules["limits"]),
        movers=dict(rules["movers"]),
        unverified=tuple(unverified),
        deck_notes=notes,
    )


BONUS_MEMO = 512
"""Teams whose Evolution Bonuses one edition's data keeps (a game sees a few hundred)."""


def evolution_bonuses(team: tuple[str, ...], data: EditionData) -> Mapping[str, int]:
    """Attack Strength bonuses earned by complete Evolution Groups in ``team``:
    +3 for a group of two, +5 for a group of three, on the group's last member.
    Remembered per team (the same answer object: never change it)."""
    memo = data._bonuses
    found = memo.get(team)
    if found is None:
        owned = set(team)
        out: dict[str, int] = {}
        for members, top, bonus in data.group_bonuses():
            if members <= owned:
                out[top] = max(out.get(top, 0), bonus)
        if len(memo) >= BONUS_MEMO:
            memo.clear()
        found = memo[team] = out
    return found


_CHIP = {"number": int, "slug": str, "name": str, "colour": str, "power": int, "attack": str,
         "strength": int, "catch": [int]}
_TABLE = {"*": True}
SEED_SCHEMA: dict[str, dict[str, Any]] = {
    "chips": {"chip": [_CHIP]},
    "evolution": {"groups": [[str]]},
    "rules": {**{name: _TABLE for name in ("limits", "city_items", "board_spaces", "balls",
                                             "item_deck", "item_names", "event_deck",
                                             "event_names", "rivals", "movers")},
              "readings?": [_TABLE], "citations?": _TABLE},
}
"""The shape of ``seeds/master-trainer/*.toml``."""


def check_seed(rules: object) -> None:
    """Validate the three data files and check that every Event Card they name has a
    declared ``event_card`` handler (SeedError naming the file and field if not)."""
    from companion.engine.seeds import check_names, validate

    for name, raw in zip(("chips", "rules", "evolution"), _raw(), strict=True):
        validate(raw, SEED_SCHEMA[name], f"seeds/master-trainer/{name}.toml")
    rules_raw = _raw()[1]
    for table in ("event_deck", "event_names"):
        for card in rules_raw[table]:
            if card != "verified":
                check_names(rules, "event_card", card,
                            f"seeds/master-trainer/rules.toml: {table}.{card}")


_UNVERIFIED_WORDS = {
    "item_deck": Msg("how many of each Item Card the deck holds"),
    "event_deck": Msg("how many of each Event Card the deck holds"),
    "board_spaces": Msg("how many chips lie face down on the board, by colour"),
    "city_items": Msg("how many Item Cards a city or town gives"),
    "evolution_groups": Msg("which Pokémon evolve into which"),
}


def unverified_words(data: EditionData) -> list[str]:
    """The guessed values in words a player reads (``rivals.lorelei`` is Lorelei's card)."""
    out: list[str] = []
    for key in data.unverified:
        if key.startswith("rivals."):
            out.append(Msg("{rival}'s Pokémon Master card", rival=key.split(".", 1)[1].title()))
        else:
            out.append(_UNVERIFIED_WORDS.get(key, key.replace("_", " ")))
    return out
