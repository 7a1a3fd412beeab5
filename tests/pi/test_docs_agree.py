"""The owner's documents say what pyproject.toml and scripts/install-pi.sh do: the same Pi
drivers, lgpio on every model, and by-hand steps that are the script's own."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "hardware" / "README.md", REPO / "docs" / "raspberry-pi.md"]


def pi_extra() -> list[str]:
    """The names in pyproject's ``pi`` extra."""
    extra = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["pi"]
    return [re.split(r"[<>=!~;\s]", spec, maxsplit=1)[0] for spec in extra]


def test_both_documents_name_every_pi_driver() -> None:
    names = pi_extra()
    assert {"lgpio", "rpi-lgpio", "spidev", "mfrc522"} <= set(names)
    for doc in DOCS:
        text = doc.read_text()
        for name in names:
            assert re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text), (
                f"{doc.name} does not name {name}")


def test_one_gpio_library_for_every_model() -> None:
    """pyproject picks nothing by model or architecture, so no document may tell an owner to
    swap libraries on one model (a Pi 5) or say the extra picks by architecture."""
    extra = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["pi"]
    assert not any("platform_machine" in spec for spec in extra)
    for doc in DOCS:
        text = " ".join(doc.read_text().split())
        assert not re.search(r"on a Pi 5,? `?(sudo )?pip (un)?install", text), doc.name
        assert "by architecture" not in text, doc.name
        assert "RPi.GPIO on 32-bit" not in text, doc.name
        assert "lgpio on every model" in text, doc.name


def test_the_by_hand_steps_are_the_scripts_own() -> None:
    """Each pip command docs/raspberry-pi.md gives for a hand install is one the script runs
    (with its own environment's pip)."""
    doc = (REPO / "docs" / "raspberry-pi.md").read_text()
    script = (REPO / "scripts" / "install-pi.sh").read_text()
    commands = re.findall(r"^(?:PYPI=1 )?\.venv/bin/pip .*$", doc, flags=re.M)
    assert len(commands) >= 3, commands
    for command in commands:
        args = command.replace(".venv/bin/pip", "").replace("PYPI=1", "").split()
        args = [a.strip("'") for a in args]
        if args[:1] == ["install"] and args[-1] == ".[pi]":
            args[-1] = '"${REPO_DIR}[pi]"'
        expected = " ".join(args)
        assert expected in script, f"the script does not run: {command}"
