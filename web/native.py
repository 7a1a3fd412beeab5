"""The move's own path through the front: ``POST /api/games/<id>/commands`` on the event loop.

A move is the one request whose speed players feel, and its work is on the game service's
thread anyway (decide, commit with fsync, publish). Sending it through a worker thread cost
two extra thread hops and the GIL hand-overs between them. Here the loop runs the same Flask
request context, the same ``before_request`` checks (Host, session, CSRF), the same
:func:`web.api.command_request` (body, seat, who may act) and the same error handlers and
``after_request`` headers as the route, so a phone gets the same answer byte for byte; only
the wait for the service is an ``await`` instead of a blocked thread. The service thread then
posts the answer to the loop together with the live frames of that version (one wake).

Only moves of a game already in memory take this path while the service thread runs; any
other request (or a game still to load from disk) goes to the WSGI workers as before.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from flask import Flask, Response, request
from flask.signals import request_started

from web import api
from web.errors import outcome_response
from web.front import within

COMMAND_PATH = re.compile(r"/api/games/([^/]+)/commands\Z")
WAIT = 30.0
"""Seconds a move waits for the service before it is answered 500 (as ``service.call``)."""

Answer = tuple[str, list[tuple[str, str]], bytes]


def collect(app: Any, environ: dict[str, Any]) -> Answer:
    """Run the WSGI callable ``app`` and return its status line, headers and whole body."""
    started: list[Any] = []

    def start_response(status: str, headers: list[tuple[str, str]],
                       exc_info: Any = None) -> Callable[[bytes], None]:
        started[:] = [status, headers]
        return lambda data: None

    result = app(environ, start_response)
    try:
        body = b"".join(result)
    finally:
        if hasattr(result, "close"):
            result.close()
    return started[0], list(started[1]), body


class NativeCommands:
    """Answers moves on the loop. ``post(fn)`` runs ``fn`` on the loop soon (any thread)."""

    def __init__(self, app: Flask, post: Callable[[Callable[[], None]], bool]) -> None:
        self.app = app
        self.service = app.extensions["companion"].service
        self.post = post

    def game(self, environ: dict[str, Any]) -> str | None:
        """The game this request moves, when it takes the native path (else None)."""
        if environ["REQUEST_METHOD"] != "POST":
            return None
        found = COMMAND_PATH.match(environ["PATH_INFO"])
        if found is None or not self.service.running or not self.service.loaded(found[1]):
            return None
        return found[1]

    async def answer(self, environ: dict[str, Any], game_id: str) -> Answer:
        """Flask's ``wsgi_app`` for the command route, with the service awaited."""
        app = self.app
        ctx = app.request_context(environ)
        error: BaseException | None = None
        try:
            try:
                ctx.push()
                response = await self._dispatch(game_id)
            except Exception as exc:
                error = exc
                response = app.handle_exception(exc)
            return collect(response, environ)
        finally:
            if error is not None and app.should_ignore_error(error):
                error = None
            ctx.pop(error)

    async def _dispatch(self, game_id: str) -> Response:
        """Flask's ``full_dispatch_request`` with the command view inlined."""
        app = self.app
        try:
            request_started.send(app, _async_wrapper=app.ensure_sync)
            rv: Any = app.preprocess_request()
            if rv is None:
                if request.routing_exception is not None:
                    app.raise_routing_exception(request)
                cmd, version, key = api.command_request(game_id)
                rv = outcome_response(await self._submit(game_id, cmd, version, key))
        except Exception as exc:
            rv = app.handle_user_exception(exc)
        return app.finalize_request(rv)

    async def _submit(self, game_id: str, cmd: dict[str, Any], version: int | None,
                      key: str | None) -> Any:
        loop = asyncio.get_running_loop()
        fut = self.service.submit_later(game_id, cmd, version, key)
        if fut is None:  # the service stopped meanwhile: wait on a worker as the route does
            return await loop.run_in_executor(None, self.service.submit, game_id, cmd,
                                              version, key)
        done: asyncio.Future[Any] = loop.create_future()

        def settled(f: Future[Any]) -> None:  # on the service thread, after the publish
            if not self.post(lambda: _copy(f, done)) and not loop.is_closed():
                loop.call_soon_threadsafe(_copy, f, done)

        fut.add_done_callback(settled)
        return await within(done, WAIT)


def _copy(src: Future[Any], dst: asyncio.Future[Any]) -> None:
    if dst.done():
        return
    exc = src.exception()
    if exc is not None:
        dst.set_exception(exc)
    else:
        dst.set_result(src.result())
