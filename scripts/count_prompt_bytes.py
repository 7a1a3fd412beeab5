#!/usr/bin/env python3
"""How much of the log the question a command leaves takes: per edition, the share of events
and of event bytes that ``prompt_asked`` and ``prompt_cleared`` take in the example games.

Plays every script in examples/ (``companion.service.script``) and measures each event as the
store writes it (``Store.append``: type, data, say and cite as UTF-8 text). Also prints what a
prompt event's bytes are spent on (prompt text, prompt data, to-do list). Counts, not time: the
same on any machine.

Usage: .venv/bin/python scripts/count_prompt_bytes.py [--each] [--games examples/*.json]
(``--each``: one line per game instead of per edition)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.engine.i18n import stored, stored_data  # noqa: E402
from companion.engine.types import Event  # noqa: E402
from companion.service import script  # noqa: E402

PROMPT_EVENTS = ("prompt_asked", "prompt_cleared")


def size(event: Event) -> int:
    """The bytes the store writes for ``event`` (its four text columns)."""
    return sum(len(s.encode()) for s in (event.type, stored_data(event.data), stored(event.say),
                                         event.cite))


def is_prompt(event: Event) -> bool:
    return event.type.split("@", 1)[0] in PROMPT_EVENTS


def parts(event: Event) -> dict[str, int]:
    """A prompt event's bytes by top-level field (its stored JSON)."""
    data = json.loads(stored_data(event.data))
    out = {}
    for key, value in data.items():
        if key == "prompt" and isinstance(value, dict):  # version 1: the whole prompt
            for k, v in value.items():
                out[f"prompt.{k}"] = len(json.dumps(v, ensure_ascii=False,
                                                    separators=(",", ":")).encode())
        else:
            out[key] = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", type=Path,
                        default=sorted((ROOT / "examples").glob("*.json")))
    parser.add_argument("--each", action="store_true", help="one line per game")
    args = parser.parse_args(argv)
    totals: dict[str, Counter[str]] = defaultdict(Counter)
    spent: dict[str, Counter[str]] = defaultdict(Counter)
    for path in args.games:
        data = script.load_script(path)
        events = script.run_script(data).events
        name = path.stem if args.each else str(data["edition"])
        t = totals[name]
        for e in events:
            n = size(e)
            t["events"] += 1
            t["bytes"] += n
            if is_prompt(e):
                t["prompt events"] += 1
                t["prompt bytes"] += n
                spent[name].update(parts(e))
    print(f"{'game' if args.each else 'edition':30} {'events':>7} {'prompt':>7} {'share':>6}  "
          f"{'bytes':>9} {'prompt':>9} {'share':>6}  prompt bytes spent on")
    for edition, t in sorted(totals.items()):
        where = ", ".join(f"{k} {v * 100 // max(1, t['prompt bytes'])} %"
                          for k, v in spent[edition].most_common(4))
        print(f"{edition:30} {t['events']:7} {t['prompt events']:7} "
              f"{_share(t['prompt events'], t['events']):>6}  {t['bytes']:9} "
              f"{t['prompt bytes']:9} {_share(t['prompt bytes'], t['bytes']):>6}  {where}")
    return 0


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


if __name__ == "__main__":
    raise SystemExit(main())
