"""The state of a Monopoly-family game: players, deeds, decks, auction, debt, trades."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar

from companion.engine.i18n import Money, Msg
from companion.engine.state import BaseState, evolve
from companion.monopoly.board import Board

V = TypeVar("V", bound="EditionValues")


@dataclass(frozen=True)
class EditionValues:
    """An edition's own values in a Monopoly-family state. Each edition subclasses it with
    typed fields (Bowser's place, tracker mats, booths left, ...) and reads them with
    :func:`values_of`; the edition's own events change them (``updated`` refuses a name the
    edition did not declare). (Read-only ``values["name"]`` works too, for code written
    against the untyped ``ext`` dict this replaces.)"""

    def updated(self: V, changes: Mapping[str, Any]) -> V:
        return evolve(self, **changes)

    def __getitem__(self, key: str) -> Any:
        try:
            return getattr(self, key)
        except AttributeError:
            raise KeyError(key) from None

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key, default)


@dataclass(frozen=True)
class Player:
    """A player at the table."""

    id: str
    name: str
    token: str
    money: int
    position: int = 0
    in_jail: bool = False
    jail_tries: int = 0
    """Failed attempts to roll out of jail this stay."""
    cards: tuple[str, ...] = ()
    """Card ids kept for later (Get Out of Jail Free)."""
    bankrupt: bool = False


@dataclass(frozen=True, slots=True)
class Deed:
    """Who holds an ownable space."""

    owner: str | None = None


@dataclass(frozen=True, slots=True)
class Auction:
    """A running auction: anyone bids in any order; the banker closes."""

    space: int
    floor: int
    """The lowest opening bid."""
    high: int = 0
    bidder: str | None = None
    passed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Debt:
    """A payment the payer cannot make yet: they must raise money or go bankrupt."""

    player: str
    creditor: str
    """A player id, ``"bank"`` or ``"pot"``."""
    amount: int
    reason: str
    cite: str = ""
    """The citation id of the rule that charged it (paid later, the payment cites it)."""


@dataclass(frozen=True, slots=True)
class Assets:
    """One side of a trade."""

    money: int = 0
    spaces: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()
    extra: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Edition assets by kind (``{"pokemon": ("pikachu",)}``)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"money": self.money, "spaces": list(self.spaces),
                               "cards": list(self.cards)}
        for k, v in self.extra.items():
            out[k] = list(v)
        return out

    @property
    def empty(self) -> bool:
        return not (self.money or self.spaces or self.cards or any(self.extra.values()))


@dataclass(frozen=True, slots=True)
class Trade:
    """A proposed trade, waiting for the other side to accept or decline."""

    id: int
    proposer: str
    to: str
    give: Assets
    take: Assets


@dataclass(frozen=True)
class MonopolyState(BaseState):
    """A Monopoly-family game."""

    board: Board | None = None
    players: tuple[Player, ...] = ()
    """In turn order (after the starting roll)."""
    current: int = 0
    """Index in ``players`` of the player whose turn it is."""
    deeds: Mapping[int, Deed] = field(default_factory=dict)
    """Space index -> deed, for every ownable space."""
    bank: int = 0
    """The Bank's money: players + bank + pot is constant."""
    pot: int = 0
    """Money on the table, an account like the Bank (``money_paid`` to or from ``"pot"``):
    Monopolino's LOTTERY, the Free Parking pot house rule of the other editions."""
    decks: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Deck id -> card ids, top first."""
    deck_tops: Mapping[str, int] = field(default_factory=dict)
    """Physical decks: how many cards at the top of ``decks[id]`` have not been drawn since
    the pile came round (missing or 0: any card of the pile)."""
    doubles: int = 0
    """Doubles rolled in a row this turn."""
    again: bool = False
    """The current player rolls again after this move (doubles)."""
    auction: Auction | None = None
    debt: Debt | None = None
    trades: tuple[Trade, ...] = ()
    next_trade: int = 1
    turn_no: int = 0
    order_rolls: Mapping[str, int] = field(default_factory=dict)
    ext: EditionValues = field(default_factory=EditionValues)
    """The edition's own typed values (see :class:`EditionValues`)."""

    # -- lookups --------------------------------------------------------------------------
    def player(self, pid: str) -> Player:
        for p in self.players:
            if p.id == pid:
                return p
        raise KeyError(pid)

    def index_of(self, pid: str) -> int:
        for i, p in enumerate(self.players):
            if p.id == pid:
                return i
        raise KeyError(pid)

    if TYPE_CHECKING:
        @property
        def b(self) -> Board:
            """The board (set for every game; the rules read it on most steps)."""
    else:
        b = property(attrgetter("board"), doc="The board (a C getter: read ~10 times a command).")

    @property
    def turn_player(self) -> Player:
        return self.players[self.current]

    @property
    def active(self) -> tuple[Player, ...]:
        """The players not bankrupt (remembered per ``players`` tuple, like ``owned_by``)."""
        memo = self.__dict__.get("_active")
        if memo is None or memo[0] is not self.players:
            memo = self.__dict__["_active"] = (
                self.players, tuple(p for p in self.players if not p.bankrupt))
        active: tuple[Player, ...] = memo[1]
        return active

    def owned_by(self, pid: str) -> tuple[int, ...]:
        """The spaces ``pid`` holds, in board order (remembered per ``deeds`` mapping: a new
        state made by ``evolve`` keeps the answer until its deeds change)."""
        memo = self.__dict__.get("_owners")
        if memo is None or memo[0] is not self.deeds:
            table: dict[str | None, list[int]] = {}
            for i, d in self.deeds.items():
                table.setdefault(d.owner, []).append(i)
            memo = self.__dict__["_owners"] = (self.deeds, {k: tuple(v) for k, v in table.items()})
        owned: tuple[int, ...] = memo[1].get(pid, ())
        return owned

    def owner(self, index: int) -> str | None:
        deed = self.deeds.get(index)
        return deed.owner if deed else None

    def has_set(self, pid: str, color: str) -> bool:
        """Whether ``pid`` owns every space of ``color``."""
        members = self.b.colors.get(color, ())
        return bool(members) and all(self.owner(i) == pid for i in members)

    def name(self, pid: str) -> str:
        return ACCOUNTS.get(pid) or self.player(pid).name

    def fmt(self, amount: int) -> str:
        return self.b.currency.format(amount)

    def cash(self, amount: int) -> Money:
        """``amount`` as a message argument (each reader's own digits)."""
        return Money(amount, self.b.currency)


ACCOUNTS = {"bank": Msg("the Bank"), "pot": Msg("the pot"), "banker": Msg("the banker")}
"""The accounts that are no player, by the words a sentence names them with."""


def values_of(state: MonopolyState, kind: type[V]) -> V:
    """``state``'s edition values, typed as the edition declared them."""
    values = state.ext
    if not isinstance(values, kind):
        raise TypeError(f"{state.edition} keeps {type(values).__name__}, not {kind.__name__}")
    return values
