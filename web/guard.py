"""What uvicorn leaves to the app about connections: deadlines, sizes, who may hold sockets.

:class:`Guard` holds one server's limits and connections. ``Guard.protocol`` is the asyncio
protocol uvicorn serves with (``uvicorn.Config(http=...)``): each connection wraps uvicorn's
own HTTP protocol (httptools or h11), built with the arguments uvicorn gives, and sees only
what asyncio hands every protocol (the transport, the bytes, the end of input). ``Guard.app``
wraps the ASGI app and tells each connection when its request's body is whole and when its
answer is done, found by the ``client`` address of the ASGI scope. So the guard reads no
attribute of uvicorn's objects; it relies on uvicorn only for ``Config(http=<class>)`` and
the module paths of its two protocols (hence the upper bound in pyproject.toml).

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
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

LOOPBACK = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})
MAX_HEAD = 16 * 1024
"""Bytes a request's head may take."""

HEAD, BODY, BUSY = "head", "body", "busy"
"""A connection's phases: waiting for a head, for the rest of a request, being answered."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[..., Awaitable[None]]


class Guard:
    """One server's limits and connections (see the module's docstring)."""

    def __init__(self, head_timeout: float, body_timeout: float, per_address: int,
                 max_connections: int, http: str = "auto") -> None:
        self.head_timeout, self.body_timeout = head_timeout, body_timeout
        self.per_address, self.max_connections = per_address, max_connections
        self.held: dict[str, dict[Connection, None]] = {}
        """Each address's connections, oldest first."""
        self.peers: dict[tuple[str, int], Connection] = {}
        """Each connection by its phone's (address, port): the ASGI scope's ``client``."""
        self.protocol: type[asyncio.Protocol] = type(
            "Guarded", (Connection,), {"guard": self, "http": _uvicorn_protocol(http)})

    def app(self, app: ASGIApp) -> ASGIApp:
        """``app``, telling each request's connection when its body is whole and when its
        answer is done."""
        async def guarded(scope: Scope, receive: Callable[[], Awaitable[Message]],
                          send: Callable[[Message], Awaitable[None]]) -> None:
            client = scope.get("client")
            conn = self.peers.get((client[0], client[1])) if client else None
            if conn is None or scope["type"] != "http":
                await app(scope, receive, send)
                return
            conn.phase(BODY)

            async def heard() -> Message:
                message = await receive()
                if message["type"] == "http.request" and not message.get("more_body"):
                    conn.phase(BUSY)
                return message

            async def said(message: Message) -> None:
                if message["type"] == "http.response.start":
                    conn.phase(BUSY)
                    conn.started = True
                await send(message)
                if message["type"] == "http.response.body" and not message.get("more_body"):
                    conn.answered()

            await app(scope, heard, said)
        return guarded


class Connection(asyncio.Protocol):
    """One connection: uvicorn's protocol inside, the guard's rules around it."""

    guard: Guard
    http: type[asyncio.Protocol]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.inner = self.http(*args, **kwargs)  # uvicorn's own, as uvicorn asked for it
        self.transport: Any = None
        self.addr, self.peer = "", ("", 0)
        self.started = self._eof = False
        self._phase, self._pending, self._tail = HEAD, 0, b""
        self._deadline: asyncio.TimerHandle | None = None
        self._armed = ""

    # -- asyncio's protocol ---------------------------------------------------------------------
    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        _no_delay(transport)
        self.inner.connection_made(transport)
        peer = transport.get_extra_info("peername")
        if not isinstance(peer, tuple | list) or len(peer) < 2:
            return  # not TCP: nothing to count
        guard, addr = self.guard, str(peer[0])
        mine = len(guard.held.get(addr, ()))
        if (addr not in LOOPBACK and mine >= guard.per_address) or (
                sum(map(len, guard.held.values())) >= guard.max_connections
                and not self._make_room(mine)):
            self._refuse(503, b"busy", b"Too many connections from this address.")
            return
        self.addr, self.peer = addr, (addr, int(peer[1]))
        guard.held.setdefault(addr, {})[self] = None
        guard.peers[self.peer] = self
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._phase == HEAD:  # a head not yet whole: how long is it?
            end = (self._tail + data).find(b"\r\n\r\n")
            size = self._pending + (len(data) if end < 0 else end - len(self._tail))
            if size > MAX_HEAD:
                self._refuse(431, b"too_large", b"The request's headers are too large.")
                return
            if end < 0:
                self._pending += len(data)
                self._tail = (self._tail + data)[-3:]
            else:
                self.phase(BODY)  # the head is whole: its body (if any) is due
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        """The sender shut its side: a request being (or about to be) answered is still
        answered (then the connection closes); anything else ends here, a live stream too (a
        phone closing its socket looks the same, and must free its stream at once)."""
        if self._phase == HEAD or self.started:
            return self.inner.eof_received()  # None: asyncio closes the transport
        self._eof = True  # a body cut short is closed at its deadline, unexecuted
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self._forget()
        self._disarm()
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    # -- what the ASGI side tells ---------------------------------------------------------------
    def phase(self, phase: str) -> None:
        """Now waiting for a head (``HEAD``), for the rest of a request (``BODY``), or being
        answered (``BUSY``); a waiting phase has its deadline."""
        if phase == self._phase and (phase == BUSY or self._deadline is not None):
            return
        self._phase = phase
        if phase == HEAD:
            self._pending, self._tail, self.started = 0, b"", False
        if phase == BUSY:
            self._disarm()
        else:
            self._arm()

    def answered(self) -> None:
        """The answer is whole: wait for the next head, or close after a half-close."""
        self.phase(HEAD)
        if self._eof and self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    # -- the rules ------------------------------------------------------------------------------
    def _waiting(self) -> bool:
        """Only waiting for the phone (a head or a body): closing it loses no answer."""
        return self._phase != BUSY

    def _make_room(self, mine: int) -> bool:
        """Close the oldest waiting connection of the address holding the most (more than
        this one's address would), so this one fits; False when there is none."""
        for addr, conns in sorted(self.guard.held.items(), key=lambda kv: -len(kv[1])):
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
        guard = self.guard
        conns = guard.held.get(self.addr)
        if conns is not None:
            conns.pop(self, None)
            if not conns:
                del guard.held[self.addr]
        if guard.peers.get(self.peer) is self:
            del guard.peers[self.peer]
        self.addr = ""

    def _arm(self) -> None:
        if self._deadline is not None and self._armed == self._phase:
            return
        self._disarm()
        guard = self.guard
        seconds = guard.head_timeout if self._phase == HEAD else guard.body_timeout
        self._armed = self._phase  # between half and all of it: a thousand connections opened
        # at once do not all close (and come back) at once, which stalled the loop for moves
        self._deadline = asyncio.get_running_loop().call_later(
            seconds * (0.5 + random.random() / 2), self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._armed = ""

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


def _uvicorn_protocol(http: str) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol ``http`` (``auto``: httptools if installed, else h11): the
    classes its own ``--http`` option names."""
    if http == "h11" or (http == "auto" and not _has_httptools()):
        from uvicorn.protocols.http.h11_impl import H11Protocol
        return H11Protocol
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    return HttpToolsProtocol


def _has_httptools() -> bool:
    try:
        import httptools  # noqa: F401
    except ImportError:
        return False
    return True


def _no_delay(transport: Any) -> None:
    """Send each write at once (TCP_NODELAY). asyncio sets it only on sockets made with
    ``IPPROTO_TCP``, and ``socket.create_server`` makes ours with protocol 0; uvicorn writes
    an answer's head and body apart, so Nagle's algorithm held the body until the phone
    acknowledged the head: 40-200 ms on every answer after a connection's first."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
