"""Values the engine trades in: commands in, events out, prompts and actions in between."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from companion.engine.i18n import Msg, from_stored, stored

BANKER = "banker"
"""The actor id of the banker: the person holding the PIN, who may act for anyone."""

BANK = "bank"
"""The account id of the Bank (money not held by a player)."""


class Score(TypedDict):
    """Points a player counts towards a goal, where an edition has them (a player's
    ``score``; the page and the OLED show it where money would be)."""

    points: int
    goal: int
    label: Msg
    """What the points are called ("Power Points")."""
    count: Msg
    """``points`` in words ("{n} Power Points")."""
    short: Msg
    """``points`` in a few letters, for the OLED ("{n}PP")."""


class _PlayerCore(TypedDict):
    """A player as every phone receives them (``players`` of a view): what every edition
    gives. An edition may add its own keys (declared in its package, on a TypedDict that
    extends this one); the page draws those it knows, and ``score`` (a :class:`Score`)
    from any edition that sends it."""

    id: str
    name: str
    token: str
    colour: str | None
    """The token's colour when the box has one, else None."""
    money: int | None
    """Whole units, or None in an edition without money."""
    money_text: str
    position: int | str
    """The index of a space on a numbered track, or the id of a place on a map."""
    space: str
    """The name of where the player stands (a message, rendered in the reader's language)."""
    in_jail: bool
    bankrupt: bool
    is_current: bool


class PlayerView(_PlayerCore, total=False):
    """A player as every phone receives them (``_PlayerCore``), with what only some editions
    send."""

    score: Score
    """Points towards a goal, in an edition that counts them (shown where money would be)."""


class _ActionCore(TypedDict):
    actor: str
    type: str
    label: str
    args: dict[str, Any]


class ActionView(_ActionCore, total=False):
    """One legal command as a phone receives it (:meth:`Action.to_json`)."""

    input: dict[str, Any]
    """What the actor must add before sending (see :class:`Action`)."""
    ends: str
    """What the move ends for the actor (a front end asks before sending it)."""


class RuleError(ValueError):
    """A command broke a rule. The message names the rule in words a player understands."""


class IllegalCommand(RuleError):
    """The command is not one the game allows right now (out of turn, wrong prompt, bad value)."""


class SetupError(RuleError):
    """A new game's setup (edition, players, settings) is not valid."""


@dataclass(frozen=True, slots=True)
class Command:
    """Something a player, the banker or a tag asks the game to do.

    ``actor`` is a player id or ``"banker"``; ``type`` is the verb (``"roll"``, ``"buy"``,
    ``"bid"``, ...); ``args`` holds its plain-JSON arguments.
    """

    actor: str
    type: str
    args: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Any) -> Command:
        """Build a command from decoded JSON, refusing anything malformed."""
        if not isinstance(data, Mapping):
            raise IllegalCommand("A command must be a JSON object.")
        actor, kind, args = data.get("actor"), data.get("type"), data.get("args", {})
        if not isinstance(actor, str) or not actor:
            raise IllegalCommand("A command needs an 'actor' (a player id or 'banker').")
        if not isinstance(kind, str) or not kind:
            raise IllegalCommand("A command needs a 'type' (for example 'roll' or 'buy').")
        if not isinstance(args, Mapping):
            raise IllegalCommand("A command's 'args' must be a JSON object.")
        return cls(actor, kind, dict(args))

    def to_json(self) -> dict[str, Any]:
        return {"actor": self.actor, "type": self.type, "args": dict(self.args)}


@dataclass(frozen=True, slots=True)
class Event:
    """A fact that happened. ``say`` explains it with the rule that caused it, or is empty
    for bookkeeping events (prompts, the to-do list) that players need not read; ``cite``
    names that rule in the edition's catalogue (the envelope, not the event's data)."""

    type: str
    data: Mapping[str, Any]
    say: str = ""
    cite: str = ""
    """The id of the rule that caused it in the edition's ``[citations]`` catalogue, or ""."""

    def to_json(self) -> dict[str, Any]:
        out = {"type": self.type, "data": dict(self.data), "say": stored(self.say)}
        if self.cite:  # only when there is one, so logs written before citations read the same
            out["cite"] = self.cite
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Event:
        say = raw.get("say", "")
        return cls(str(raw["type"]), dict(raw.get("data", {})),
                   say if isinstance(say, Msg) else from_stored(str(say)),
                   str(raw.get("cite", "")))


@dataclass(frozen=True, slots=True)
class Action:
    """One legal command for one actor, as every front end renders it.

    ``input`` tells a front end what the actor must add before sending, or is None:
    ``{"kind": "dice", "count": 2, "optional": True}`` (physical dice values; optional
    when the companion may roll), ``{"kind": "amount", "min": 1, "max": 30}``,
    ``{"kind": "choice", "options": [{"value": ..., "label": ...}], "arg": "name"}``,
    ``{"kind": "trade"}`` (a trade offer form).

    ``ends`` (words, or "") says what the move ends for the actor (a re-roll with the last
    Poké Ball puts the player out of the game): a front end asks before sending it.
    """

    actor: str
    type: str
    label: str
    args: Mapping[str, Any] = field(default_factory=dict)
    input: Mapping[str, Any] | None = None
    ends: str = ""

    def to_json(self) -> ActionView:
        out: ActionView = {
            "actor": self.actor,
            "type": self.type,
            "label": self.label,
            "args": dict(self.args),
        }
        if self.input is not None:
            out["input"] = dict(self.input)
        if self.ends:
            out["ends"] = self.ends
        return out


@dataclass(frozen=True, slots=True)
class Prompt:
    """The decision the game is waiting for: who must answer, what to show, which kind.

    The legal answers themselves come from ``legal_actions(state)``; a prompt only says
    what is being asked. ``kind`` is a stable machine name (``"turn"``, ``"buy"``,
    ``"auction"``, ``"teammate"``, ``"debt"``, ...), ``to`` the actors who may answer.
    """

    kind: str
    to: tuple[str, ...]
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "to": list(self.to), "text": self.text, "data": dict(self.data)}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Prompt:
        text = raw["text"]  # a message made in this process stays one (docs/translating.md)
        return cls(str(raw["kind"]), tuple(raw["to"]), text if isinstance(text, Msg) else str(text),
                   dict(raw.get("data", {})))


@dataclass(frozen=True, slots=True)
class PlayerSeat:
    """A player as set up at the table: a stable id, a display name and a token."""

    id: str
    name: str
    token: str = ""


@dataclass(frozen=True, slots=True)
class GameSetup:
    """What the banker chose when starting a game."""

    edition: str
    players: tuple[PlayerSeat, ...]
    seed: int = 0
    dice: str = "digital"
    """``"digital"``: the companion rolls from the seeded generator; ``"physical"``: players
    enter the values of their own dice."""
    settings: Mapping[str, Any] = field(default_factory=dict)
    """Edition settings and banker corrections of data the rulebook does not give."""

    def to_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition,
            "players": [{"id": p.id, "name": p.name, "token": p.token} for p in self.players],
            "seed": self.seed,
            "dice": self.dice,
            "settings": dict(self.settings),
        }

    @classmethod
    def from_json(cls, raw: Any) -> GameSetup:
        if not isinstance(raw, Mapping):
            raise SetupError("A game setup must be a JSON object.")
        edition = raw.get("edition")
        if not isinstance(edition, str):
            raise SetupError("A game setup needs an 'edition' name.")
        if len(edition) > 40:
            raise SetupError("An edition name is at most 40 characters.")
        players_raw = raw.get("players")
        if not isinstance(players_raw, list) or not players_raw:
            raise SetupError("A game setup needs a list of 'players'.")
        if len(players_raw) > 12:
            raise SetupError("A game has at most 12 players.")
        seats = []
        for i, p in enumerate(players_raw):
            if isinstance(p, str):
                p = {"name": p}
            if not isinstance(p, Mapping) or not isinstance(p.get("name"), str):
                raise SetupError(f"Player {i + 1} needs a 'name'.")
            name = p["name"].strip()
            if not name or len(name) > 24:
                raise SetupError(f"Player {i + 1}'s name must be 1 to 24 characters.")
            pid, token = p.get("id") or _slug(name), p.get("token") or ""
            if not isinstance(pid, str) or len(pid) > 32 or set(p) - {"id", "name", "token"}:
                raise SetupError(f"Player {i + 1}: an 'id' of at most 32 characters, a "
                                 "'name' and a 'token', nothing else.")
            if not isinstance(token, str) or len(token) > 32:
                raise SetupError(f"Player {i + 1}'s token is a name of at most 32 characters.")
            seats.append(PlayerSeat(pid, name, token))
        if len({s.id for s in seats}) != len(seats):
            raise SetupError("Two players have the same name; give each player their own.")
        if any(s.id in (BANKER, BANK) for s in seats):
            raise SetupError("'banker' and 'bank' are reserved; choose another player name.")
        dice = raw.get("dice", "digital")
        if dice not in ("digital", "physical"):
            raise SetupError("'dice' must be 'digital' or 'physical'.")
        seed = raw.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise SetupError("'seed' must be a whole number from 0 to 2**64 - 1.")
        settings = raw.get("settings", {})
        if not isinstance(settings, Mapping):
            raise SetupError("'settings' must be a JSON object.")
        return cls(edition, tuple(seats), seed, dice, dict(settings))


def _slug(name: str) -> str:
    out = "".join(c.lower() if c.isalnum() else "-" for c in name).strip("-")
    return out or "player"
