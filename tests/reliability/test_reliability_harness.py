"""The harness that starts a real ``companion run`` for the attacks: it must never take
another program on the same port (another test's companion, on a busy machine) for its own."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from reliability import harness  # noqa: E402
from reliability.harness import Server  # noqa: E402


class _Stranger(BaseHTTPRequestHandler):
    """Answers every GET 200, as another companion on the port would."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def stranger() -> Iterator[int]:
    """A port on which another program answers."""
    srv = HTTPServer(("127.0.0.1", 0), _Stranger)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield int(srv.server_address[1])
    srv.shutdown()
    srv.server_close()


def test_a_port_someone_else_answers_on_is_not_taken_for_the_companion(
        tmp_path: Path, stranger: int) -> None:
    srv = Server(tmp_path / "state", port=stranger)
    with pytest.raises(RuntimeError, match="used by another program"):
        srv.start()
    srv.stop()


def test_a_free_port_taken_before_the_companion_binds_it_is_replaced(
        tmp_path: Path, stranger: int, monkeypatch: pytest.MonkeyPatch) -> None:
    ports = iter([stranger])
    real = harness.free_port
    monkeypatch.setattr(harness, "free_port", lambda: next(ports, None) or real())
    with Server(tmp_path / "state") as srv:
        assert srv.port != stranger
        assert "csrf" in httpx.get(f"{srv.url}/api/session", timeout=30).json()
