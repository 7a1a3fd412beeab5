"""The front door of the game service: the phones' web app and the table use only what
:class:`companion.service.port.ServicePort` declares, never a ``_private`` member, and are typed
with it (so mypy holds every new use to the Protocol)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import get_type_hints

from companion.service.game_service import GameService, ServicePort
from web.context import Web

ROOT = Path(__file__).resolve().parents[1]
FRONT = sorted((ROOT / "web").glob("*.py"))
"""The page: the one adapter that holds the port (the table, companion/service/table.py, is
the service's own: it runs a tap on the service thread as one step)."""
OUTSIDE = [*FRONT, *sorted((ROOT / "companion" / "venue").glob("*.py")),
           *sorted((ROOT / "companion" / "app").glob("*.py"))]


def _is_service(node: ast.expr) -> bool:
    """``service``, ``svc``, ``self.service``, ``web().service``, ``w.service``."""
    if isinstance(node, ast.Name):
        return node.id in ("service", "svc")
    return isinstance(node, ast.Attribute) and node.attr == "service"


def _uses(path: Path) -> list[tuple[int, str]]:
    """(line, name) of every attribute taken of the service in ``path``, and of every
    ``getattr``/``hasattr`` asked of it (duck typing around the Protocol)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and _is_service(node.value):
            out.append((node.lineno, node.attr))
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr") and node.args
                and _is_service(node.args[0])):
            out.append((node.lineno, f"{node.func.id}()"))
    return out


def _declared() -> set[str]:
    return {n for n in vars(ServicePort) if not n.startswith("_")} | set(
        ServicePort.__annotations__)


def test_the_web_app_and_the_table_use_only_what_the_port_declares() -> None:
    declared = _declared()
    outside = [f"{p.relative_to(ROOT)}:{line} {name}" for p in FRONT
               for line, name in _uses(p) if name not in declared]
    assert outside == [], "not in ServicePort: " + ", ".join(outside)


def test_the_port_has_no_side_door() -> None:
    """No database, no hook set from outside, no function run on the writer's turn."""
    assert not {"store", "tap_handler", "call"} & _declared()


def test_nothing_outside_the_service_touches_its_private_members() -> None:
    private = [f"{p.relative_to(ROOT)}:{line} {name}" for p in OUTSIDE
               for line, name in _uses(p) if name.startswith("_")]
    assert private == []


def test_the_front_door_is_typed_with_the_port() -> None:
    assert get_type_hints(Web)["service"] is ServicePort


def test_the_service_has_every_member_the_port_declares() -> None:
    missing = [n for n in _declared()
               if not hasattr(GameService, n) and n not in inspect.signature(
                   GameService.__init__).parameters and n not in _set_in_init()]
    assert missing == []


def _set_in_init() -> set[str]:
    """Attributes GameService (and its writer thread) set on ``self`` in ``__init__``."""
    names: set[str] = set()
    for cls in GameService.__mro__[:-1]:
        init = vars(cls).get("__init__")
        if init is None:
            continue
        tree = ast.parse(inspect.getsource(init).strip().replace("\n    ", "\n"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "self"):
                names.add(node.attr)
    return names
