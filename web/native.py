"""The move's own path through the front: ``POST /api/games/<id>/commands`` on the event loop.

A move is the one request whose speed players feel, and its work is on the game service's
thread anyway (decide, commit with fsync, publish). Sending it through a worker thread cost
two extra thread hops and the GIL hand-overs between them. Here the loop first runs the
route's own check functions straight on the request (:meth:`NativeCommands.quick`: Host,
session, CSRF, body, seat, who may act); a move that passes them all goes to the service at
once, and Flask's request context is built only for its answer (the same error handlers,
``after_request`` headers and cookie as the route). Anything else runs Flask's whole path:
the same ``before_request`` checks and :func:`web.api.command_request`, which word the
refusal. Either way a phone gets the route's answer byte for byte; the wait for the service
is an ``await`` instead of a blocked thread. The service thread then posts the answer to the
loop together with the live frames of that version (one wake).

Only moves of a game already in memory take this path while the service thread runs; any
other request (or a game still to load from disk) goes to the WSGI workers as before.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from flask import Flask, Response, request, session
from flask.signals import request_started
from itsdangerous import BadSignature
from werkzeug.http import parse_cookie

from web import api, security
from web.errors import ApiError, outcome_response

COMMAND_PATH = re.compile(r"/api/games/([^/]+)/commands\Z")
WAIT = 30.0
"""Seconds a move waits for the service before it is answered 500 (as ``service.call``)."""

Answer = tuple[str, list[tuple[str, str]], bytes]
Decided = tuple[Any, Exception | None]
"""A move's outcome from the service, or the exception its submission raised."""


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
        self.quick_moves = 0
        """Moves that passed :meth:`quick` (they went to the service before Flask ran)."""

    def game(self, environ: dict[str, Any]) -> str | None:
        """The game this request moves, when it takes the native path (else None)."""
        if environ["REQUEST_METHOD"] != "POST":
            return None
        found = COMMAND_PATH.match(environ["PATH_INFO"])
        if found is None or not self.service.running or not self.service.loaded(found[1]):
            return None
        return found[1]

    async def answer(self, environ: dict[str, Any], game_id: str) -> Answer:
        """Flask's ``wsgi_app`` for the command route, with the service awaited.

        A move in order (:meth:`quick`) goes to the service first and through Flask only
        for its answer; any other request runs Flask's checks first, which word its refusal."""
        app = self.app
        decided: Decided | None = None
        checked = self.quick(environ, game_id)
        if checked is not None:
            self.quick_moves += 1
            try:
                decided = (await self._submit(game_id, *checked), None)
            except Exception as exc:  # answered below as the route answers it
                decided = (None, exc)
        ctx = app.request_context(environ)
        error: BaseException | None = None
        try:
            try:
                ctx.push()
                response = await self._dispatch(game_id, decided)
            except Exception as exc:
                error = exc
                response = app.handle_exception(exc)
            return collect(response, environ)
        finally:
            if error is not None and app.should_ignore_error(error):
                error = None
            ctx.pop(error)

    def quick(self, environ: dict[str, Any],
              game_id: str) -> tuple[dict[str, Any], int | None, str | None] | None:
        """The command, version and key of a move that passes every check of the route
        (Host, session, CSRF token and Origin, body, seat, who may act: the same functions
        Flask's hooks and :func:`web.api.command_request` call), read straight from the
        request: Flask's request context costs more than a move's decision. None when
        anything is not plainly in order: then the Flask path runs and words the refusal,
        so no answer is ever decided here but a move's."""
        app = self.app
        host = environ.get("HTTP_HOST", "")
        if not host or security.host_refusal(host, app.config["ALLOWED_HOSTS"]) is not None:
            return None
        sess = self._session(environ)
        if sess is None or "sid" not in sess or "csrf" not in sess:
            return None  # no session yet: Flask's hook starts one, and the CSRF check fails
        origin = environ.get("HTTP_ORIGIN") or environ.get("HTTP_REFERER")
        if security.csrf_refusal("POST", origin, host, environ.get("HTTP_X_CSRF_TOKEN", ""),
                                 sess.get("csrf", "")) is not None:
            return None
        stream = environ.get("wsgi.input")
        if not isinstance(stream, io.BytesIO) or environ.get("CONTENT_LENGTH") != str(
                len(stream.getbuffer())):
            return None
        mimetype = environ.get("CONTENT_TYPE", "").split(";", 1)[0].strip().lower()
        try:
            with app.app_context():  # web() and current_app, as in a request
                data = api.parse_body(stream.getvalue(), mimetype == "application/json",
                                      keys=api.COMMAND_KEYS)
                return api.checked_command(game_id, data, sess)
        except ApiError:
            return None

    def _session(self, environ: dict[str, Any]) -> dict[str, Any] | None:
        """The request's session as Flask's interface opens it (a verified, unexpired
        cookie), or None without one."""
        app = self.app
        interface = app.session_interface
        serializer = interface.get_signing_serializer(app)  # type: ignore[attr-defined]
        if serializer is None:
            return None
        cookie = parse_cookie(environ.get("HTTP_COOKIE", "")).get(app.config[
            "SESSION_COOKIE_NAME"])
        if not cookie:
            return None
        try:
            data = serializer.loads(cookie, max_age=int(
                app.permanent_session_lifetime.total_seconds()))
        except BadSignature:
            return None
        return data if isinstance(data, dict) else None

    async def _dispatch(self, game_id: str, decided: Decided | None) -> Response:
        """Flask's ``full_dispatch_request`` with the command view inlined; ``decided``: the
        outcome (or failure) of a move :meth:`quick` already sent to the service."""
        app = self.app
        try:
            request_started.send(app, _async_wrapper=app.ensure_sync)
            if decided is not None:
                outcome, failure = decided
                session.accessed = True  # quick() read it, as the route's checks do (Vary)
                if failure is not None:
                    raise failure
                rv: Any = outcome_response(outcome)
            else:
                rv = app.preprocess_request()
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
        """The service's outcome of the move, awaited. Everything the answer needs (the
        future it lands in, its deadline, the callback) is set up before the move is queued:
        once queued, the loop goes straight back to waiting, which lets the service thread
        have the GIL."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        deadline = loop.call_later(WAIT, _expire, done)

        def settled(f: Future[Any]) -> None:  # on the service thread, after the publish
            if not self.post(lambda: _copy(f, done)) and not loop.is_closed():
                loop.call_soon_threadsafe(_copy, f, done)

        try:
            fut = self.service.submit_later(game_id, cmd, version, key, then=settled)
            if fut is None:  # the service stopped: wait on a worker as the route does
                return await loop.run_in_executor(None, self.service.submit, game_id, cmd,
                                                  version, key)
            return await done
        finally:
            deadline.cancel()


def _expire(done: asyncio.Future[Any]) -> None:
    """No outcome within ``WAIT`` seconds: answered 500, as ``service.call`` times out."""
    if not done.done():
        done.set_exception(TimeoutError("the game service did not answer in time"))


def _copy(src: Future[Any], dst: asyncio.Future[Any]) -> None:
    if dst.done():
        return
    exc = src.exception()
    if exc is not None:
        dst.set_exception(exc)
    else:
        dst.set_result(src.result())
