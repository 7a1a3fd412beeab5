"""The venue screen is served by the page's server: its live streams hold no thread, so many
screens (a big screen, the organisers' laptops, players' phones) follow one venue at once."""

from __future__ import annotations

import socket
from contextlib import closing

import httpx
from venue_helpers import ScreenServer

from companion.venue.board import Board


def test_fifty_screens_follow_the_venue_and_the_page_still_loads() -> None:
    """50 streams open, each gets the venue's state; the page and its state still load (a
    thread per stream, as cheroot gave, ran out at its pool's size)."""
    server = ScreenServer(Board())
    port = int(server.url.rsplit(":", 1)[1])
    streams: list[socket.socket] = []
    try:
        for _ in range(50):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"GET /api/venue/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            streams.append(s)
        for s in streams:
            data = b""
            while b"event: state" not in data:
                chunk = s.recv(65536)
                assert chunk, data
                data += chunk
        with closing(httpx.Client(base_url=server.url, timeout=10)) as client:
            assert client.get("/").status_code == 200
            assert client.get("/api/venue").json()["tables"] == []
    finally:
        for s in streams:
            s.close()
        server.close()
