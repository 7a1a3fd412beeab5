"""Record the golden logs (run once per format change, never to make a failing test pass).

    python tests/golden/record.py              # adds golden logs for new examples/editions
    python tests/golden/record.py --examples   # also refreshes the example scripts' finals
    python tests/golden/record.py --views      # also refreshes every golden log's views

Each example script in examples/ is played to the end and exported as the service exports a
game (a head line, then one JSON line per event). For each edition one game is also stopped
in the middle of a turn (a prompt open and tasks still to do) and exported with the script
steps still to play. ``fingerprint`` says what a replay must reproduce.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

from companion.engine.state import BaseState
from companion.engine.types import Event
from companion.service import game, script
from tests.playing import fingerprint, recorded_views, replay_export, seat_views

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent
LOGS = GOLDEN / "logs"


def export_lines(edition: str, events: list[Event], cmd_of: list[int]) -> list[str]:
    head = {"game": "golden", "edition": edition, "title": edition, "join_code": "0000",
            "version": len(events)}
    lines = [json.dumps(head)]
    for seq, (event, cmd) in enumerate(zip(events, cmd_of, strict=True), 1):
        lines.append(json.dumps({"seq": seq, "cmd": cmd, "time": 0.0, **event.to_json()}))
    return lines


def play(data: dict[str, Any], stop_mid_turn: bool) -> tuple[BaseState, list[Event],
                                                              list[int], int]:
    """Play ``data``'s steps; with ``stop_mid_turn`` stop at the first step that leaves a
    prompt open with tasks waiting. Returns the state, events, command numbers, steps run."""
    setup = {k: v for k, v in data.items() if k != "steps"}
    from companion.engine.types import GameSetup

    events = game.new_game(GameSetup.from_json(setup))
    cmd_of = [0] * len(events)
    state = game.replay(events)
    steps = data["steps"]
    for n, step in enumerate(steps, 1):
        command = script.parse_step(state, step)
        new, state = game.step(state, command)
        events += new
        cmd_of += [n] * len(new)
        if stop_mid_turn and n > len(steps) // 3 and n < len(steps) and mid_turn(state):
            return state, events, cmd_of, n
    return state, events, cmd_of, len(steps)


def mid_turn(state: BaseState) -> bool:
    """A prompt is open and stored tasks wait for its answer (the to-do list, or Master
    Trainer's dice round, which names the task to run once every die is in)."""
    dice = getattr(state, "dice", None)
    return state.prompt is not None and bool(state.todo or (dice is not None and dice.then))


def main(argv: list[str]) -> int:
    """Record golden logs that do not exist yet (never overwrite one: it stands for saved
    games of the version that wrote it) and, with ``--examples``, refresh the recorded final
    state of every example script (after a rule change that is meant to change them); with
    ``--views``, the views each golden log replays to (after the view's shape changes on
    purpose; the logs stay as they are)."""
    LOGS.mkdir(exist_ok=True)
    table = GOLDEN / "finals.json"
    finals: dict[str, Any] = json.loads(table.read_text("utf-8")) if table.exists() else {}
    golden = finals.setdefault("_golden", {})
    views_file = GOLDEN / "views.json.gz"
    views = recorded_views(str(GOLDEN)) if views_file.exists() else {}
    mids = {e["example"] for n, e in golden.items() if n.endswith(".mid-turn")}
    mid_done = {json.loads((ROOT / "examples" / e).read_text("utf-8"))["edition"] for e in mids}
    if "--views" in argv:
        for name, entry in golden.items():
            lines = (LOGS / entry["log"]).read_text("utf-8").splitlines()
            views[name] = seat_views(replay_export(lines))
    added = 0
    for path in sorted((ROOT / "examples").glob("*.json")):
        data = json.loads(path.read_text("utf-8"))
        if "--examples" in argv or path.name not in finals:
            result = script.run_script(data)
            finals[path.name] = json.loads(json.dumps(result.final(), default=str))
        name = path.stem
        if name not in golden:
            state, events, cmds, _ = play(data, stop_mid_turn=False)
            (LOGS / f"{name}.jsonl").write_text(
                "\n".join(export_lines(data["edition"], events, cmds)) + "\n", "utf-8")
            golden[name] = {"log": f"{name}.jsonl", "example": path.name,
                            "steps_run": len(data["steps"]), "fingerprint": fingerprint(state)}
            views[name] = seat_views(state)
            added += 1
        if data["edition"] not in mid_done:
            state, events, cmds, n = play(data, stop_mid_turn=True)
            if mid_turn(state):
                mid_done.add(data["edition"])
                mid = f"{name}.mid-turn"
                (LOGS / f"{mid}.jsonl").write_text(
                    "\n".join(export_lines(data["edition"], events, cmds)) + "\n", "utf-8")
                golden[mid] = {"log": f"{mid}.jsonl", "example": path.name,
                               "steps_run": n, "fingerprint": fingerprint(state)}
                views[mid] = seat_views(state)
                added += 1
    table.write_text(json.dumps(finals, indent=1, sort_keys=True) + "\n", "utf-8")
    views_file.write_bytes(gzip.compress(json.dumps(
        views, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode(), mtime=0))
    missing = {d["edition"] for d in (json.loads(p.read_text("utf-8")) for p in
                                      (ROOT / "examples").glob("*.json"))} - mid_done
    if missing:
        print("no mid-turn game for", sorted(missing), file=sys.stderr)
        return 1
    print(f"{added} golden logs added, {len(golden)} in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
