"""The edition's own tables: wild Pokémon chips, tracker mats, the catching die and its odds.

State lives in ``state.ext`` (:class:`PokemonValues`): ``wild`` (type -> chip ids still
beside the board), ``caught`` (player -> chip ids on or beside their mat), ``ball_faces``,
and the ``catch`` / ``battle`` under way (for the view). A chip id is ``<type>-<n>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import NotRequired, TypedDict

from companion.engine import readings
from companion.engine.i18n import Msg, Msgs
from companion.engine.types import SetupError
from companion.monopoly.board import Board
from companion.monopoly.state import EditionValues, MonopolyState, values_of


def chip_type(chip: str) -> str:
    """The type of a chip id (``"fire-3"`` -> ``"fire"``)."""
    return chip.rsplit("-", 1)[0]


def type_names(board: Board) -> dict[str, str]:
    """Type id -> display name, in board order."""
    return dict(_type_names(board))


def type_name(board: Board, type_id: str) -> str:
    """A type's display name (``"fire"`` -> ``"Fire"``)."""
    return _type_names(board)[type_id]


def _type_names(board: Board) -> Mapping[str, str]:
    return board.derived("pokemon_types", _read_type_names)


def _read_type_names(board: Board) -> Mapping[str, str]:
    return {t: v["name"] for t, v in board.data["types"].items()}  # the box's words


def all_chips(board: Board) -> dict[str, list[str]]:
    n = int(board.rule("chips_per_type"))
    return {t: [f"{t}-{i}" for i in range(1, n + 1)] for t in type_names(board)}


def ball_faces_setting(board: Board, settings: Mapping[str, object]) -> int:
    """The number of Poké Ball faces on the catching die (a setting; the rest are X)."""
    faces = int(board.rule("die_faces"))
    value = settings.get("ball_faces", board.rule("ball_faces"))
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= faces:
        raise SetupError(Msg("'ball_faces' is how many of the catching die's {n} faces show a "
                             "Poké Ball: a whole number from 1 to {n}.", n=faces))
    return value


def wild(state: MonopolyState) -> dict[str, list[str]]:
    return {t: list(c) for t, c in values(state).wild.items()}


def caught(state: MonopolyState, pid: str) -> list[str]:
    return list(values(state).caught.get(pid, ()))


def all_caught(state: MonopolyState) -> dict[str, list[str]]:
    return {p: list(c) for p, c in values(state).caught.items()}


def mat_types(state: MonopolyState, pid: str) -> set[str]:
    """The types filled on a Trainer's tracker mat."""
    return {chip_type(c) for c in caught(state, pid)}


def mat_complete(state: MonopolyState, pid: str) -> bool:
    return pid in complete_mats(state)


def complete_mats(state: MonopolyState) -> frozenset[str]:
    """The players whose tracker mat has every type."""
    v = values(state)
    types = set(v.wild)
    return frozenset(pid for pid, held in v.caught.items()
                     if len(held) >= len(types) and {chip_type(c) for c in held} >= types)


def wild_left(state: MonopolyState, type_id: str) -> bool:
    """Whether any wild Pokémon of the type is still beside the board."""
    return bool(values(state).wild[type_id])


def partner(state: MonopolyState, pid: str) -> str:
    """A Trainer's partner Pokémon: their token, else the box's token of their seat."""
    token = state.player(pid).token
    if token:
        return state.b.token(token)
    tokens, seats = state.b.tokens, [s.id for s in state.setup.players]
    return tokens[seats.index(pid) % len(tokens)]


def battle_strength(state: MonopolyState, pid: str) -> int:
    """What a Trainer adds to a battle roll: 1 per Pokémon held, the partner included."""
    return len(values(state).caught.get(pid, ())) + 1


class Odds(TypedDict):
    """The exact chance of catching, as the prompt and the page show it."""

    chance: str
    """``"numerator/denominator"``, or ``"0"`` / ``"1"``."""
    numerator: int
    denominator: int
    percent: float
    percent_text: str
    rolls: int
    ball_faces: int
    faces: int
    reroll_price: int
    money: int
    nothing_left: NotRequired[bool]


def catch_odds(ball_faces: int, faces: int, money: int, price: int, counts_last: bool = False,
               paid: bool = True) -> Odds:
    """The exact chance of catching within the Poké Balls a Trainer has.

    ``paid``: the next roll is already paid for (exploring); otherwise it is a re-roll still to
    pay. Each re-roll costs ``price``. ``counts_last``: a re-roll paid with the last Poké Ball
    is rolled (setting zero_balls = debt with last_ball_reroll = yes); otherwise spending the
    last Poké Ball catches nothing (the Trainer is out before the roll, or may not spend it)."""
    return Odds(**_catch_odds(ball_faces, faces, money, price, counts_last, paid))


@lru_cache(maxsize=4096)
def _catch_odds(ball_faces: int, faces: int, money: int, price: int, counts_last: bool,
                paid: bool) -> Odds:
    """:func:`catch_odds`, computed once per set of numbers (every catch prompt asks)."""
    if price > 0:
        rerolls = money // price if counts_last else max(0, (money - 1) // price)
    else:
        rerolls = 0
    rolls = rerolls + (1 if paid else 0)
    chance = 1 - (1 - Fraction(ball_faces, faces)) ** rolls
    return _odds(chance, rolls, ball_faces, faces, price, money)


def no_catch(odds: Odds) -> Odds:
    """The same odds when nothing can be caught (no wild Pokémon of the type left)."""
    out = _odds(Fraction(0), odds["rolls"], odds["ball_faces"], odds["faces"],
                odds["reroll_price"], odds["money"])
    out["nothing_left"] = True
    return out


def _odds(chance: Fraction, rolls: int, ball_faces: int, faces: int, reroll_price: int,
          money: int) -> Odds:
    return {"chance": f"{chance.numerator}/{chance.denominator}" if 0 < chance < 1
            else str(chance.numerator), "numerator": chance.numerator,
            "denominator": chance.denominator, "percent": _percent(chance),
            "percent_text": _percent_text(chance), "rolls": rolls, "ball_faces": ball_faces,
            "faces": faces, "reroll_price": reroll_price, "money": money}


def _percent(chance: Fraction) -> float:
    """One decimal, never rounded to a certainty (0 or 100) that is not one."""
    value = round(float(chance) * 100, 1)
    if 0 < chance < 1:
        value = min(max(value, 0.1), 99.9)
    return value


def _percent_text(chance: Fraction) -> str:
    if chance in (0, 1):
        return f"{int(chance) * 100}%"
    value = round(float(chance) * 100, 1)
    if value >= 100:
        return ">99.9%"
    if value <= 0:
        return "<0.1%"
    return f"{value}%"


def counts_last(state: MonopolyState) -> bool:
    """Is a re-roll paid with the last Poké Ball rolled? (the two reading settings)"""
    return reading(state, "zero_balls") == "debt" and reading(state, "last_ball_reroll") == "yes"


def reading(state: MonopolyState, name: str) -> str:
    """The banker's choice for reading setting ``name`` in this game (or its default)."""
    return readings.chosen("pokemon", state.setup.settings, name)


def odds_for(state: MonopolyState, pid: str) -> Odds:
    b = state.b
    return catch_odds(values(state).ball_faces, int(b.rule("die_faces")),
                      state.player(pid).money, int(b.rule("reroll_price")), counts_last(state))


def odds_text(odds: Odds) -> Msg:
    """The odds in words, in each reader's language (the percentage with their digits)."""
    if odds.get("nothing_left"):
        return Msg("no wild Pokémon of this type are left: exploring catches nothing")
    return Msgs("chance to catch within your Poké Balls: {chance} ({percent}, {n} roll)",
                "chance to catch within your Poké Balls: {chance} ({percent}, {n} rolls)",
                odds["rolls"], chance=odds["chance"],
                percent=percent_msg(Fraction(odds["numerator"], odds["denominator"])))


def percent_msg(chance: Fraction) -> Msg:
    """``_percent_text`` as a message: one decimal, the reader's decimal sign (16.7% /
    16,7%), never rounded to a certainty that is not one."""
    if chance in (0, 1):
        return Msg("{n}%", n=int(chance) * 100)
    tenths = round(round(float(chance) * 100, 1) * 10)
    if tenths >= 1000:
        return Msg(">99.9%")
    if tenths <= 0:
        return Msg("<0.1%")
    whole, tenth = divmod(tenths, 10)
    return Msg("{whole}.{tenth}%", whole=whole, tenth=tenth)


class Catch(TypedDict):
    """A catch under way: who rolls the catching die where, and the odds shown."""

    player: str
    space: int
    type: str
    odds: Odds
    after_reroll: NotRequired[bool]
    """The last roll missed: the odds are those of a re-roll still to pay."""


class Battle(TypedDict):
    """A battle under way between a challenger and a location's owner."""

    challenger: str
    owner: str
    space: int
    rolls: dict[str, int]
    """Player id -> their die roll so far."""
    bonus: dict[str, int]
    """Player id -> the Challenge cards played."""


class BattleChange(TypedDict, total=False):
    rolls: dict[str, int]
    bonus: dict[str, int]


@dataclass(frozen=True)
class PokemonValues(EditionValues):
    """Pokémon's own state: the tracker mats and the catch or battle in progress."""

    wild: Mapping[str, list[str]]
    """Type -> chip ids still beside the board."""
    caught: Mapping[str, list[str]]
    """Player id -> chip ids on their tracker mat."""
    ball_faces: int
    """Die faces that catch (the game's setting)."""
    catch: Catch | None = None
    battle: Battle | None = None


class CatchingDie(TypedDict):
    faces: list[str]
    """``"ball"`` or ``"x"`` per face."""
    ball_faces: int
    reroll_price: int


class MatView(TypedDict):
    types: list[str]
    count: int


class PokemonView(TypedDict):
    """Pokémon's values on the page (``view["extra"]``)."""

    types: dict[str, str]
    wild: dict[str, int]
    """Type -> wild Pokémon left beside the board."""
    catching_die: CatchingDie
    catch: Catch | None
    battle: Battle | None
    mats: dict[str, MatView]


def values(state: MonopolyState) -> PokemonValues:
    ext = state.ext
    if type(ext) is PokemonValues:  # the rules ask several times a command
        return ext
    return values_of(state, PokemonValues)


def battle(state: MonopolyState) -> Battle:
    """The Pokémon battle under way (the rules only ask during one)."""
    b = values(state).battle
    assert b is not None, "no battle under way"
    return b


def catch(state: MonopolyState) -> Catch:
    """The catch under way (the rules only ask during one)."""
    c = values(state).catch
    assert c is not None, "no catch under way"
    return c


def battle_total(state: MonopolyState, pid: str) -> int:
    """A player's total in the battle under way: their roll, their strength, their bonus."""
    b = battle(state)
    return int(b["rolls"].get(pid, 0)) + battle_strength(state, pid) + int(b["bonus"][pid])
