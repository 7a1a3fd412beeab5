"""Flask's signed-cookie sessions, with each cookie verified once instead of on every request.

Every request of a phone carries the same cookie until the server re-signs it, and Flask
re-signs a permanent session on every answer. Both cost more than the rest of a move's checks
together (key derivation, two HMACs, zlib, tagged JSON, the Set-Cookie line). Here a cookie
that verified is remembered with its timestamp, a payload signed within the same second is
reused, and an unchanged session's cookie is re-signed only once it is :data:`REFRESH`
seconds old rather than on every answer: a phone in use keeps a cookie that lasts the whole
``PERMANENT_SESSION_LIFETIME`` after its last hour of play. A bad signature is refused as
Flask refuses it. The memory is bounded and starts over when full.

Cookies are stamped and aged on the app's steady clock (``platform.steady_clock``), not the
wall clock: a Pi's clock jumping back (a cookie "from the future", which itsdangerous refuses)
or forward by days (every cookie "expired") leaves every phone its session. The cookie also
carries ``Max-Age``, so a phone keeps it by its own clock even when the Pi's is months off.
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from flask.wrappers import Response
from itsdangerous import SignatureExpired, TimestampSigner, URLSafeTimedSerializer

LIMIT = 2048
"""Cookies remembered per direction (a game night has a few dozen phones)."""

REFRESH = 3600
"""Seconds after which an unchanged session's cookie is signed again (with a new expiry)."""


class RememberingSerializer(URLSafeTimedSerializer):
    """``URLSafeTimedSerializer`` that remembers what it verified and what it signed, its
    stamps on ``clock``."""

    def __init__(self, *args: Any, clock: Callable[[], float] = time.time,
                 **kwargs: Any) -> None:
        signer = type("SteadySigner", (TimestampSigner,),
                      {"get_timestamp": lambda _self: int(clock())})
        super().__init__(*args, signer=signer, **kwargs)
        self.clock = clock
        self._opened: dict[str, tuple[bytes, int]] = {}
        self._signed: dict[tuple[bytes, int], str] = {}

    def loads(self, s: str | bytes, max_age: int | None = None,  # type: ignore[override]
              return_timestamp: bool = False, salt: str | bytes | None = None) -> Any:
        if return_timestamp or salt is not None:
            return super().loads(s, max_age=max_age, return_timestamp=return_timestamp,
                                 salt=salt)
        key = s if isinstance(s, str) else s.decode("latin-1")
        hit = self._opened.get(key)
        if hit is None:
            obj, when = super().loads(s, return_timestamp=True)
            hit = (pickle.dumps(obj), int(when.timestamp()))
            if len(self._opened) >= LIMIT:
                self._opened.clear()
            self._opened[key] = hit
        if max_age is not None:  # a stamp "from the future" (the clock went back) is young
            age = int(self.clock()) - hit[1]
            if age > max_age:
                raise SignatureExpired(f"Signature age {age} > {max_age} seconds")
        return pickle.loads(hit[0])  # a fresh copy: the request may change its session

    def signed_at(self, s: str) -> int | None:
        """When the cookie ``s`` (verified before) was signed, in Unix seconds."""
        hit = self._opened.get(s)
        return None if hit is None else hit[1]

    def dumps(self, obj: Any, salt: str | bytes | None = None) -> str:
        if salt is not None:
            return str(super().dumps(obj, salt))
        key = (self.dump_payload(obj), int(self.clock()))
        val = self._signed.get(key)
        if val is None:
            val = str(super().dumps(obj))
            if len(self._signed) >= LIMIT:
                self._signed.clear()
            self._signed[key] = val
        return val


class RememberingSessions(SecureCookieSessionInterface):
    """The app's session interface: Flask's, over one :class:`RememberingSerializer`."""

    def __init__(self) -> None:
        self._serializer: tuple[tuple[Any, ...], RememberingSerializer] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        if not app.secret_key:
            return None
        keys: list[str | bytes] = [*(app.config["SECRET_KEY_FALLBACKS"] or []),
                                   app.secret_key]  # the current key last, as Flask does
        held = self._serializer
        if held is None or held[0] != tuple(keys):
            companion = app.extensions.get("companion")
            held = self._serializer = (tuple(keys), RememberingSerializer(
                keys, salt=self.salt, serializer=self.serializer,
                signer_kwargs={"key_derivation": self.key_derivation,
                               "digest_method": self.digest_method},
                clock=getattr(companion, "clock", time.time)))
        return held[1]

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """Flask's session, noting when its cookie was signed (for :meth:`should_set_cookie`)."""
        opened = super().open_session(app, request)
        cookie = request.cookies.get(self.get_cookie_name(app))
        held = self._serializer
        if opened is not None and cookie and held is not None:
            opened.signed_at = held[1].signed_at(cookie)  # type: ignore[attr-defined]
        return opened

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        """A changed session, or a permanent one whose cookie is :data:`REFRESH` seconds old
        (or was not sent); Flask's own rule otherwise re-signs it on every answer."""
        if session.modified:
            return True
        if not (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            return False
        signed = getattr(session, "signed_at", None)
        held = self._serializer
        now = held[1].clock() if held is not None else time.time()
        return signed is None or not 0 <= now - signed < REFRESH

    def save_session(self, app: Flask, session: SessionMixin,
                     response: Response) -> None:
        """Flask's, with ``Max-Age`` beside ``Expires`` on a lasting cookie: a phone then
        keeps it for the lifetime by its own clock (browsers prefer Max-Age), even while the
        Pi's clock, which wrote Expires, is months behind."""
        super().save_session(app, session, response)
        name = f"{self.get_cookie_name(app)}="
        age = int(app.permanent_session_lifetime.total_seconds())
        cookies = response.headers.getlist("Set-Cookie")
        if any(c.startswith(name) and "Max-Age" not in c for c in cookies):
            response.headers.setlist("Set-Cookie", [
                f"{c}; Max-Age={age}" if c.startswith(name) and "Expires=" in c
                and "Max-Age" not in c else c for c in cookies])
