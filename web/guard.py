"""What uvicorn leaves to the app about connections: deadlines, sizes, who may hold sockets.

:class:`Guard` is mixed into uvicorn's HTTP protocol (httptools or h11) by :func:`guarded`:

- a request's head must arrive whole within ``head_timeout`` and ``MAX_HEAD`` bytes, and its
  body within ``body_timeout`` after the head (a header line or a body byte every few
  seconds never completes): else the connection is closed without a word, and a body cut
  short is never handed to the app;
- one address holds at most ``per_address`` connections (the Pi's own loopback is not
  limited), ``max_connections`` in all. When all are taken, a new connection is not refused
  because strangers hold them: the oldest connection of the address holding the most that
  is only waiting (for a head, or for the rest of a body; never one being answered or
  streaming) is closed to make room. So a phone at the table or the banker on the Pi gets
  in, whoever holds sockets (issue 38);
- a request whose sender shuts its side after sending (``shutdown(SHUT_WR)``) is answered,
  then the connection closed; one that shuts before its request is whole is dropped
  unexecuted, and a live stream ends (a phone closing its socket sends the same FIN).
"""

from __future__ import annotations

import asyncio
import random
import socket
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

LOOPBACK = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})
MAX_HEAD = 16 * 1024
"""Bytes a request's head may take."""


class Guard:
    """The guard mixed before uvicorn's protocol (see the module's docstring). The class
    attributes are set per server by :func:`guarded`."""

    transport: Any

    held: dict[str, dict[Guard, None]]
    """Each address's connections, oldest first (shared by the server's connections)."""
    head_timeout: float
    body_timeout: float
    per_address: int
    max_connections: int

    def connection_made(self, transport: Any) -> None:
        _no_delay(transport)
        super().connection_made(transport)  # type: ignore[misc]
        self._pending, self._tail, self._eof = 0, b"", False
        self._deadline: asyncio.TimerHandle | None = None
        self._phase = ""
        client = getattr(self, "client", None)
        self._addr = str(client[0]) if client else "?"
        mine = len(self.held.get(self._addr, ()))
        if (self._addr not in LOOPBACK and mine >= self.per_address) or (
                sum(map(len, self.held.values())) >= self.max_connections
                and not self._make_room(mine)):
            self._addr = ""
            self._refuse(503, b"busy", b"Too many connections from this address.")
            return
        self.held.setdefault(self._addr, {})[self] = None
        self._arm("head")

    def _make_room(self, mine: int) -> bool:
        """Close the oldest waiting connection of the address holding the most (more than
        this one's address would), so this one fits; False when there is none."""
        for addr, conns in sorted(self.held.items(), key=lambda kv: -len(kv[1])):
            if len(conns) <= mine + 1:
                return False
            if addr in LOOPBACK:
                continue
            victim = next((c for c in conns if c._waiting()), None)
            if victim is not None:
                victim._forget()
                victim.transport.close()
                return True
        return False

    def _forget(self) -> None:
        conns = self.held.get(self._addr)
        if conns is not None:
            conns.pop(self, None)
            if not conns:
                del self.held[self._addr]
        self._addr = ""

    def connection_lost(self, exc: Exception | None) -> None:
        self._forget()
        self._disarm()
        super().connection_lost(exc)  # type: ignore[misc]

    def data_received(self, data: bytes) -> None:
        if self._between():  # a head not yet whole: how long is it?
            end = (self._tail + data).find(b"\r\n\r\n")
            size = self._pending + (len(data) if end < 0 else end - len(self._tail))
            if size > MAX_HEAD:
                self._refuse(431, b"too_large", b"The request's headers are too large.")
                return
        super().data_received(data)  # type: ignore[misc]
        if self.transport.is_closing():
            return
        if self._between():
            self._pending += len(data)
            self._tail = data[-3:]
            self._arm("head")
        else:
            self._pending, self._tail = 0, b""
            if self._body_coming():
                self._arm("body")
            else:
                self._disarm()

    def eof_received(self) -> bool | None:
        """The sender shut its side: a whole request not yet answered is still answered
        (then the connection closes); anything else ends here, a live stream too (a phone
        closing its socket looks the same, and must free its stream at once)."""
        cycle = getattr(self, "cycle", None)
        if self._waiting() or cycle is None or cycle.response_started:
            return None  # asyncio closes the transport
        self._eof = True
        return True

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        if self._eof and not self.transport.is_closing():
            self.transport.close()

    def _between(self) -> bool:
        """No request in flight: waiting for (the rest of) a head."""
        cycle = getattr(self, "cycle", None)
        return cycle is None or bool(cycle.response_complete)

    def _body_coming(self) -> bool:
        """A request in flight whose body is not whole yet."""
        cycle = getattr(self, "cycle", None)
        return cycle is not None and not cycle.response_complete and bool(cycle.more_body)

    def _waiting(self) -> bool:
        """Only waiting for the phone (a head or a body): closing it loses no answer."""
        return self._between() or self._body_coming()

    def _arm(self, phase: str) -> None:
        if self._deadline is not None and self._phase == phase:
            return
        self._disarm()
        loop = asyncio.get_running_loop()
        seconds = self.head_timeout if phase == "head" else self.body_timeout
        self._phase = phase  # between half and all of it: a thousand connections opened at
        # once do not all close (and come back) at once, which stalled the loop for moves
        self._deadline = loop.call_later(seconds * (0.5 + random.random() / 2), self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._phase = ""

    def _expire(self) -> None:
        self._deadline = None
        if self._waiting() and not self.transport.is_closing():
            self.transport.close()  # idle or too slow: closed without a word

    def _refuse(self, status: int, code: bytes, text: bytes) -> None:
        body = b'{"error": "%s", "code": "%s"}' % (text, code)
        reason = {431: b"Request Header Fields Too Large", 503: b"Service Unavailable"}
        self.transport.write(b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\n"
                             b"Content-Length: %d\r\nRetry-After: 5\r\nConnection: close"
                             b"\r\n\r\n%s" % (status, reason[status], len(body), body))
        self.transport.close()


def _no_delay(transport: Any) -> None:
    """Send each write at once (TCP_NODELAY). asyncio sets it only on sockets made with
    ``IPPROTO_TCP``, and ``socket.create_server`` makes ours with protocol 0; uvicorn writes
    an answer's head and body apart, so Nagle's algorithm held the body until the phone
    acknowledged the head: 40-200 ms on every answer after a connection's first."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def guarded(head_timeout: float, body_timeout: float, per_address: int,
            max_connections: int, http: str = "auto") -> type[Guard]:
    """uvicorn's protocol ``http`` (``auto``: httptools if installed, else h11) guarded with
    these limits, counting its own connections."""
    base: Any = AutoHTTPProtocol
    if http == "h11":
        from uvicorn.protocols.http.h11_impl import H11Protocol as base
    elif http == "httptools":
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as base
    return type("Guarded", (Guard, base), {
        "held": {}, "head_timeout": head_timeout, "body_timeout": body_timeout,
        "per_address": per_address, "max_connections": max_connections})
