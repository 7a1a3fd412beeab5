"""The one harness to play any edition through the public engine API (tests and examples).

>>> g = TableGame.start("mario", ["Mario", "Luigi"])
>>> g.roll(3, 4)            # the current prompt's actor rolls physical dice 3 and 4
>>> g.do("buy")             # the prompted player buys
>>> g.by("luigi", "bid", amount=3)   # an actor named first
>>> g.arrange("money_paid", source="bank", to="mario", amount=5)  # set up a position
>>> g.state.players[0].money

Tests get it from the ``play`` fixture (conftest.py): ``play("pokemon", ["Ash", "Misty"])``.
Edition test helpers subclass it with that edition's vocabulary (tests/<edition>/...).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.engine.state import BaseState
from companion.engine.types import Action, Command, Event, GameSetup
from companion.plugins.editions import find_edition
from companion.service import game


@dataclass
class TableGame:
    """A game plus its full event log; every step goes through decide/apply."""

    state: Any
    events: list[Event] = field(default_factory=list)
    batches: list[list[Event]] = field(default_factory=list)

    @classmethod
    def start(cls, edition: str, players: list[str] | list[dict[str, str]], *,
              dice: str = "physical", seed: int = 1, order: str = "seated",
              settings: Mapping[str, Any] | None = None) -> TableGame:
        raw_settings = dict(settings or {})
        declared = {str(s["name"]) for s in find_edition(edition).setup_info()["settings"]}
        if order and "order" in declared:  # editions with a seating order setting
            raw_settings.setdefault("order", order)
        setup = GameSetup.from_json({"edition": edition, "players": players, "dice": dice,
                                     "seed": seed, "settings": raw_settings})
        events = game.new_game(setup)
        return cls(game.replay(events), list(events), [list(events)])

    # -- acting ---------------------------------------------------------------------------
    def send(self, command: Command) -> list[Event]:
        """Decide and apply one command; a refusal raises and changes nothing."""
        new, self.state = game.step(self.state, command)
        self.events += new
        self.batches.append(new)
        return new

    def do(self, type: str, actor: str | None = None, **args: Any) -> list[Event]:
        """``type`` by ``actor`` (default: the first actor the prompt waits for)."""
        return self.send(Command(actor or self.prompted(type), type, args))

    def by(self, actor: str, type: str, **args: Any) -> list[Event]:
        """``type`` by ``actor``."""
        return self.send(Command(actor, type, args))

    def arrange(self, type: str, **data: Any) -> None:
        """Set up a position with an ordinary event (tests only; a name from any earlier
        version is upcast), so replaying ``events`` still rebuilds the state."""
        event = Event(type, data)
        self.state = game.apply(self.state, event)
        self.events.append(event)

    def roll(self, *dice: int, actor: str | None = None) -> list[Event]:
        """Answer the current roll prompt with physical dice values."""
        return self.by(actor or self.prompted("roll"), "roll", dice=list(dice))

    def choose(self, option: Any, actor: str | None = None) -> list[Event]:
        return self.by(actor or self.prompted("choose"), "choose", option=option)

    def prompted(self, type: str = "") -> str:
        legal = self.actions()
        if self.state.prompt is not None:
            for who in self.state.prompt.to:
                if not type or any(a.actor == who and a.type == type for a in legal):
                    return str(who)
            return str(self.state.prompt.to[0])
        raise AssertionError("nothing is being asked")

    # -- looking --------------------------------------------------------------------------
    def actions(self, actor: str | None = None) -> list[Action]:
        legal = game.legal_actions(self.state)
        return [a for a in legal if actor is None or a.actor == actor]

    def says(self, last: int | None = None) -> list[str]:
        """What happened, in words (the last ``last`` command's worth when given)."""
        events = self.events if last is None else [e for b in self.batches[-last:] for e in b]
        return [e.say for e in events if e.say]

    def player(self, pid: str) -> Any:
        return self.state.player(pid)

    p = player

    def index(self, space: str) -> int:
        """A space's index on a ring board, by id."""
        return int(self.state.b.find(space).index)

    def replayed(self) -> BaseState:
        return game.replay(self.events)

    def patch(self, **changes: Any) -> None:
        """Arrange a situation directly (tests only): replace state fields."""
        self.state = replace(self.state, **changes)

    def patch_player(self, pid: str, **changes: Any) -> None:
        players = tuple(replace(p, **changes) if p.id == pid else p for p in self.state.players)
        self.state = replace(self.state, players=players)


# -- golden logs (tests/golden) ----------------------------------------------------------------
def fingerprint(state: BaseState) -> dict[str, Any]:
    """What a replayed game must show: every seat's view, the prompt, the to-do list, the
    generator and the legal actions (the view is the contract with the front ends)."""
    import hashlib
    import json

    views = {"": game.view(state)}
    for seat in state.setup.players:
        views[seat.id] = game.view(state, seat.id)
    for v in views.values():
        v.pop("actions", None)
    return {
        "views_sha256": hashlib.sha256(
            json.dumps(views, sort_keys=True, default=str).encode()).hexdigest(),
        "prompt": None if state.prompt is None else state.prompt.to_json(),
        "todo": [t.to_json() for t in state.todo],
        "rng": state.rng,
        "finished": state.finished,
        "winners": list(state.winners),
        "actions": sorted(json.dumps(a.to_json(), sort_keys=True)
                          for a in game.legal_actions(state)),
    }


def seat_views(state: BaseState) -> dict[str, Any]:
    """Every seat's view and the spectators' (``""``), without the actions, as plain JSON."""
    import json

    views = {"": game.view(state)}
    for seat in state.setup.players:
        views[seat.id] = game.view(state, seat.id)
    for v in views.values():
        v.pop("actions", None)
    out: dict[str, Any] = json.loads(json.dumps(views, sort_keys=True, default=str))
    return out


def action_changes(recorded: list[str], current: list[str]) -> list[str]:
    """Where the legal ``current`` actions (fingerprint JSON strings) differ from those a
    golden log ``recorded``: every recorded action must still be offered as it was; a later
    version may only add the banker's (a new tool, such as ending any edition's game), never
    change what a player may do."""
    import json

    out = [f"no longer offered: {a}" for a in recorded if a not in current]
    out += [f"newly offered to a player: {a}" for a in current
            if a not in recorded and json.loads(a).get("actor") != "banker"]
    return out


def view_changes(recorded: Any, current: Any, path: str = "") -> list[str]:
    """Where ``current`` no longer shows what ``recorded`` showed: a changed value, a missing
    key, a list of another length. Keys a later version adds are allowed (the page may learn
    more about a game; it must not forget or change what a saved game showed). ``unverified``
    lists name the box's facts still to be confirmed, not the game, and may change."""
    if isinstance(recorded, dict) and isinstance(current, dict):
        out = []
        for key, value in recorded.items():
            where = f"{path}.{key}" if path else key
            if key == "unverified":
                continue
            if key not in current:
                out.append(f"{where}: missing")
            else:
                out.extend(view_changes(value, current[key], where))
        return out
    if isinstance(recorded, list) and isinstance(current, list):
        if len(recorded) != len(current):
            return [f"{path}: {len(recorded)} items, now {len(current)}"]
        return [c for i, (r, n) in enumerate(zip(recorded, current, strict=True))
                for c in view_changes(r, n, f"{path}[{i}]")]
    return [] if recorded == current else [f"{path}: {recorded!r} is now {current!r}"]


def recorded_views(folder: str) -> dict[str, Any]:
    """The seat views each golden log showed when it was recorded (views.json.gz)."""
    import gzip
    import json
    from pathlib import Path

    raw = gzip.decompress((Path(folder) / "views.json.gz").read_bytes())
    out: dict[str, Any] = json.loads(raw)
    return out


def replay_export(lines: list[str]) -> BaseState:
    """The state an exported log (``GameService.export`` lines) replays to, as an import does."""
    import json

    rows = [json.loads(line) for line in lines[1:] if line.strip()]
    log = [(int(r["seq"]), Event.from_json(r)) for r in rows]
    return game.replay(e for _, e in game.effective(log))


def resume(lines: list[str], script: Mapping[str, Any], steps_run: int) -> BaseState:
    """Replay a saved game's export, then play the rest of ``script`` on it."""
    from companion.service.script import parse_step

    state = replay_export(lines)
    for step in script["steps"][steps_run:]:
        _, state = game.step(state, parse_step(state, step))
    return state


def check_golden(folder: str) -> list[str]:
    """Replay every golden log in ``folder`` (tests/golden) and list what differs; a game
    saved mid-turn is also played on with its example's remaining steps, which runs the
    tasks its to-do list names, and must end as the uninterrupted game did."""
    import json
    from pathlib import Path

    from companion.service.script import run_script

    root = Path(folder)
    examples = root.resolve().parents[1] / "examples"
    table = json.loads((root / "finals.json").read_text("utf-8"))["_golden"]
    views = recorded_views(folder)
    problems = []
    for name, entry in sorted(table.items()):
        lines = (root / "logs" / entry["log"]).read_text("utf-8").splitlines()
        try:
            replayed = replay_export(lines)
            got = fingerprint(replayed)
        except Exception as exc:  # report every log, not just the first failure
            problems.append(f"{name}: replay failed: {exc!r}")
            continue
        for key, want in entry["fingerprint"].items():
            if key == "actions":
                problems.extend(f"{name}: {c}" for c in action_changes(want, got[key]))
            elif key != "views_sha256" and got.get(key) != want:
                problems.append(f"{name}: {key} differs")
        problems.extend(f"{name}: view {c}"
                        for c in view_changes(views[name], seat_views(replayed))[:5])
        if name.endswith(".mid-turn"):
            script = json.loads((examples / entry["example"]).read_text("utf-8"))
            try:
                state = resume(lines, script, entry["steps_run"])
                whole = run_script(script).state
            except Exception as exc:
                problems.append(f"{name}: resuming failed: {exc!r}")
                continue
            if fingerprint(state) != fingerprint(whole):
                problems.append(f"{name}: the resumed game ends unlike the uninterrupted one")
    return problems


def main(argv: list[str] | None = None) -> int:
    """``python -m tests.playing GOLDEN_DIR``: replay the golden logs (exit 1 on a diff)."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    problems = check_golden(args[0] if args else "tests/golden")
    print("\n".join(problems) or "golden logs replay")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
