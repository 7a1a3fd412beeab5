"""Every citation's ``code`` pointer names a file that exists and functions defined in it: a
reader of the rulebook's citations who follows one to the code finds the rule there."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def pointers() -> list[tuple[str, str, str, str]]:
    """(seed file, rule id, source path, function name) for every name a ``code`` gives."""
    out = []
    for seed in sorted((ROOT / "seeds").glob("*.toml")):
        cites = tomllib.loads(seed.read_text("utf-8")).get("citations", {})
        for rule, cite in cites.items():
            for part in str(cite.get("code", "")).split(";"):
                if not part.strip():
                    continue
                path, _, names = part.strip().partition(" ")
                out += [(seed.name, rule, path, n.strip()) for n in names.split(",") if n.strip()]
    return out


def test_every_code_pointer_names_a_function_in_an_existing_file() -> None:
    found = pointers()
    assert len(found) > 100  # every edition's citations are read
    wrong = []
    for seed, rule, path, name in found:
        source = ROOT / path
        if not source.is_file():
            wrong.append(f"{seed} {rule}: no file {path}")
        elif not re.search(rf"^\s*def {re.escape(name)}\b|^\s*{re.escape(name)}\s*[:=]",
                           source.read_text("utf-8"), re.M):
            wrong.append(f"{seed} {rule}: {path} defines no {name}")
    assert wrong == []
