"""A loaded game as the service holds it (:class:`GameRecord`), the answer to a command
(:class:`Outcome`), the lookup errors, and how a game's view is rendered for a viewer."""

from __future__ import annotations

import hashlib
from array import array
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NotRequired, TypedDict

from companion.engine.i18n import N_, Msg, Msgs, wire
from companion.engine.panels import Panel
from companion.engine.rules import Rules
from companion.engine.state import BaseState
from companion.engine.types import ActionView, Event, PlayerView
from companion.plugins.editions import find_edition
from companion.service import game

RECENT = 12
"""Log lines a view carries."""


@dataclass
class Outcome:
    """The answer to a command: accepted (with the new version and what happened) or not."""

    ok: bool
    version: int
    says: list[str] = field(default_factory=list)
    error: str = ""
    code: str = "ok"
    """``ok``, ``illegal`` (a rule refused it), ``stale`` (the sender's view was out of date),
    ``not_found`` (no such game) or ``bad_request`` (malformed)."""
    game_id: str = ""
    events: list[str] = field(default_factory=list)
    """The types of the events it appended (the table's tunes: ``EventData.SIGNAL``)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": self.ok, "version": self.version, "says": self.says}
        if any(isinstance(s, Msg) for s in self.says):  # for a page in another language
            out["said"] = [wire(s) for s in self.says]
        if not self.ok:
            out.update(error=self.error, code=self.code)
        if self.game_id:
            out["game_id"] = self.game_id
        return out


class GameNotFound(LookupError):
    """No game with that id in this companion's database."""


class GameDamaged(GameNotFound):
    """The game is in the database but its log cannot be read (a damaged page or row)."""


class PromptView(TypedDict):
    """The decision the game waits for, as a phone and the OLED read it
    (:meth:`companion.engine.types.Prompt.to_json`)."""

    kind: str
    to: list[str]
    """The players (or ``banker``) who may answer."""
    text: str
    data: dict[str, Any]


class _EditionPart(TypedDict):
    """What every edition's ``Rules.view`` gives."""

    edition: str
    title: str
    currency: dict[str, Any] | None
    players: list[PlayerView]
    current: str | None
    prompt: PromptView | None
    actions: list[ActionView]
    """What the viewer may do now (:meth:`companion.engine.types.Action.to_json`)."""
    last_roll: list[int]
    finished: bool
    winners: list[str]
    end_reason: str
    board: dict[str, Any] | None
    extra: dict[str, Any]
    """The edition's own values (each edition types them)."""
    panels: NotRequired[list[Panel]]
    """The edition's own sections of the table, in its words (companion/engine/panels.py)."""


class _EndingPart(TypedDict, total=False):
    """What an edition the banker can end gives (``companion.engine.ending``)."""

    end_rule: str
    """How the winner is picked if the banker ends the game now: the words ending "the
    winner is …" (a label of the edition's data, translated like a setting's)."""


class _MonopolyPart(TypedDict, total=False):
    """What the Monopoly family's views add (``companion.monopoly.view``)."""

    family: str
    turn_no: int
    pot: int
    pot_text: str
    pot_label: Any
    """The edition's name for its pot (a message), when it names it (``Rules.pot_label``)."""
    auction: dict[str, Any] | None
    debt: dict[str, Any] | None
    trades: list[dict[str, Any]]


class PhoneView(_EditionPart, _EndingPart, _MonopolyPart):
    """The view a phone receives: ``GET /api/games/<id>``, a stream's ``view`` frame (its
    ``patch`` frames are differences between two of these), the OLED's and the venue's
    source. Declared once: :func:`phone_view` builds every one from an edition's
    ``Rules.view`` and refuses a key not declared here."""

    game_id: str
    version: int
    join_code: str
    log: list[str]
    """The latest lines of the game's history, oldest first (at most ``RECENT``)."""
    log_cites: list[str]
    """Each log line's rule in one line ("" when it cites none)."""
    log_events: list[str]
    """Each log line's event type (``"undone"``, ``"trade_closed"``...): what a page decides
    from, never the line's words."""
    page: dict[str, Any]
    """What the page draws differently for this edition (``Rules.page``): data it reads,
    never the edition's name."""


_SERVICE_KEYS = frozenset({"game_id", "version", "join_code", "log", "log_cites", "log_events",
                           "page"})
_EDITION_KEYS = frozenset(PhoneView.__annotations__) - _SERVICE_KEYS
_REQUIRED = PhoneView.__required_keys__ - _SERVICE_KEYS
_PLAYER_KEYS = PlayerView.__required_keys__
_ACTION_KEYS = ActionView.__required_keys__, frozenset(ActionView.__annotations__)


def phone_view(edition_view: dict[str, Any], game_id: str, version: int, join_code: str,
               log: list[str], log_cites: list[str], log_events: list[str] | None = None,
               page: dict[str, Any] | None = None) -> PhoneView:
    """The :class:`PhoneView` of an edition's view (its ``log``, if any, is the service's);
    ValueError naming a key the edition left out or added without declaring it here."""
    keys = edition_view.keys()
    if not _REQUIRED <= keys or not keys <= _EDITION_KEYS | {"log"}:
        missing = sorted(_REQUIRED - keys)
        unknown = sorted(keys - _EDITION_KEYS - {"log"})
        raise ValueError(f"{edition_view.get('edition')}'s view: missing {missing}, "
                         f"not declared in PhoneView {unknown}")
    for player in edition_view["players"]:
        if not _PLAYER_KEYS <= player.keys():
            raise ValueError(f"{edition_view.get('edition')}'s view: a player lacks "
                             f"{sorted(_PLAYER_KEYS - player.keys())} (PlayerView)")
    required, declared = _ACTION_KEYS
    for action in edition_view["actions"]:
        if not required <= action.keys() <= declared:
            raise ValueError(f"{edition_view.get('edition')}'s view: an action with keys "
                             f"{sorted(action)}, not those of ActionView")
    out: dict[str, Any] = {k: v for k, v in edition_view.items() if k != "log"}
    out.update(game_id=game_id, version=version, join_code=join_code, log=log,
               log_cites=log_cites, log_events=log_events or [], page=page or {})
    return out  # type: ignore[return-value]  # keys checked above


def _render(rec: GameRecord, rules: Any, version: int, state: BaseState, key: str | None,
            recent: tuple[tuple[int, str, str], ...], cites: dict[int, str]) -> PhoneView:
    """The view of ``state`` (version ``version``) for ``key`` with the game's log lines."""
    return phone_view(game.view(state, key), rec.id, version, rec.join_code,
                      [say for _, say, _ in recent],
                      [_cite_text(rules, cites.get(seq, "")) for seq, _, _ in recent],
                      [kind for _, _, kind in recent], page_of(rules))


def page_of(rules: Any) -> dict[str, Any]:
    """The edition's page declaration (``Rules.page``, {} when it declares none)."""
    return dict(getattr(rules, "page", None) or {})


def _shared_view(rules: Any) -> bool:
    """Whether the edition shows every viewer the same view (``view_per_viewer`` False)."""
    return not getattr(rules, "view_per_viewer", True)


def _view_key(rules: Any, viewer: str | None) -> str | None:
    """Whose view ``viewer`` sees: itself, or None when every viewer sees the same one."""
    return None if _shared_view(rules) else viewer


def _cite_text(rules: Any, rule: str) -> str:
    """The one-line citation of ``rule`` ("" when none); remembered on the rules object (a
    view asks again for the same dozen lines after every move)."""
    if not rule:
        return ""
    cache = getattr(rules, "__dict__", {}).setdefault("_cite_texts", {})
    text = cache.get(rule)
    if text is None:
        found = rules.citation(rule)
        text = cache[rule] = "" if found is None else found["text"]
    return text  # type: ignore[no-any-return]


@dataclass
class GameRecord:
    """A loaded game: its current state and where its log stands."""

    id: str
    edition: str
    title: str
    join_code: str
    current: tuple[int, BaseState]
    """(version, state), replaced in one assignment so readers on other threads never see a
    state with another version's number. The version is the sequence number of the last row
    in the log (undone rows included)."""
    commands: int
    recent: deque[tuple[int, str, str]]
    """The latest said events: (sequence number, line, event type)."""
    since_snapshot: int = 0
    views: dict[str | None, PhoneView] = field(default_factory=dict)
    history: MoneyChart = field(default_factory=lambda: MoneyChart())
    """Balances after each command since the game was loaded, for the page's chart."""
    cites: dict[int, str] = field(default_factory=dict)
    """Citation ids of the events in ``recent``, by sequence number (the view's
    ``log_cites``; :meth:`keep_recent_cites` drops older ones)."""
    told: tuple[int, dict[str, Any]] | None = None
    """(version, the story told at it): the OLED and every phone share it."""

    def keep_recent_cites(self) -> None:
        """Forget the citations of events no longer in ``recent`` (a long game would
        otherwise hold one per event; an undo rebuilds them from the log)."""
        if self.recent and len(self.cites) > 2 * RECENT:
            oldest = self.recent[0][0]
            self.cites = {s: c for s, c in self.cites.items() if s >= oldest}

    @property
    def version(self) -> int:
        return self.current[0]

    @property
    def state(self) -> BaseState:
        return self.current[1]


def code_tag() -> str:
    """A fingerprint of the rules code and data: snapshots from other code are not trusted."""
    root = Path(__file__).resolve().parents[2]
    h = hashlib.sha256()
    for base in (root / "companion", root / "seeds"):
        for path in sorted(base.rglob("*")):
            if path.suffix in (".py", ".toml"):
                h.update(path.as_posix().encode())
                h.update(path.read_bytes())
    return h.hexdigest()[:16]


class MoneyChart:
    """Every player's money after each command (the page's money chart), kept as flat arrays
    of machine integers: a point costs 8 bytes per player, where a dict per point kept a
    dozen small objects alive for the whole game, scattered through the heap between each
    command's garbage (the process's memory crept up over a long game)."""

    def __init__(self) -> None:
        self.players: tuple[str, ...] = ()
        self.versions = array("q")
        self.money = array("q")
        """``len(players)`` amounts per point, in the order of ``players``."""

    def add(self, version: int, state: BaseState) -> None:
        """The point after ``version``."""
        held = [p for p in getattr(state, "players", ()) if hasattr(p, "money")]
        ids = tuple(p.id for p in held)
        if ids != self.players:  # never within a game; a chart starts afresh if it did
            self.players = ids
            del self.versions[:], self.money[:]
        self.versions.append(version)
        self.money.extend(int(p.money) for p in held)

    def keep_until(self, version: int) -> None:
        """Drop the points after ``version`` (an undo)."""
        n = sum(1 for v in self.versions if v <= version)
        del self.versions[n:]
        del self.money[n * len(self.players):]

    def points(self) -> list[dict[str, Any]]:
        """``[{"version", "money": {player: amount}}]``, oldest first."""
        k = len(self.players)
        return [{"version": v, "money": dict(zip(self.players, self.money[i * k:(i + 1) * k],
                                                 strict=True))}
                for i, v in enumerate(self.versions)]


def decide_undo(rows: list[Any], commands: list[dict[str, Any]], cmd: int | None
                ) -> tuple[Event, BaseState, int] | str:
    """The banker's undo of command ``cmd`` (None: the last one still in force) over a game's
    stored ``rows`` and ``commands``: the ``undone`` event, the state it leaves and the last
    sequence number kept; or why it cannot be undone. The same decision for a live undo and
    for an imported one (companion.service.exports)."""
    kept = game.effective((r.seq, r.event) for r in rows)
    kept_seqs = {seq for seq, _ in kept}
    live = [c for c in commands
            if c["body"].get("type") not in ("undo",) and c["first_seq"] in kept_seqs]
    if not live or live[-1]["cmd"] == 0:
        return Msg("There is nothing to undo.")
    target = live[-1] if cmd is None else next((c for c in live if c["cmd"] == cmd), None)
    if target is None or target["cmd"] == 0:
        return Msg("That step cannot be undone (it is the start of the game or was already "
                   "undone).")
    to_seq = int(target["first_seq"]) - 1
    state = game.replay(e for seq, e in kept if seq <= to_seq)
    names = {p.id: p.name for p in state.setup.players}
    later = sum(1 for c in live if c["cmd"] > target["cmd"])
    event = Event(game.UNDONE, {"to_seq": to_seq, "cmd": target["cmd"]},
                  undo_words(move_words(target["body"], names,
                                        find_edition(state.setup.edition)), later))
    return event, state, to_seq


MOVES = {
    "choose": N_("{player}'s choice"),
    "end_game": N_("{player}'s end of the game"),
    "roll": N_("{player}'s roll"),
}
"""The engine's commands as a player names that move ("Anna's roll"), each a message of its
own (its translation places the name and the noun's article: "il tiro di Anna"); an
edition's rules name theirs (``Rules.move_words``); others read "{player}'s move"."""
ANY_MOVE = N_("{player}'s move")


def move_words(body: dict[str, Any], names: dict[str, str], rules: Rules[Any]) -> Msg:
    """The move a command made in a game of ``rules``, in a player's words: "Anna's roll",
    "the banker's transfer"."""
    actor = str(body.get("actor") or "banker")
    who: str = names.get(actor) or Msg("the banker")
    kind = str(body.get("type", ""))
    return Msg(rules.move_words.get(kind) or MOVES.get(kind, ANY_MOVE), player=who)


def undo_words(move: Msg, later: int) -> Msg:
    """The banker's undo of ``move`` and the ``later`` moves after it, as the log says it."""
    if later <= 0:
        return Msg("The banker undoes {move}.", move=move)
    if later == 1:
        return Msg("The banker undoes {move} and the move after it.", move=move)
    return Msgs("The banker undoes {move} and the {n} move after it.",  # never one
                "The banker undoes {move} and the {n} moves after it.", later, move=move)
