"""Flask's signed-cookie sessions, stamped on the app's steady clock, re-signed when they change
or grow old rather than on every answer.

Flask re-signs a permanent session on every answer (``SESSION_REFRESH_EACH_REQUEST``); here an
unchanged session's cookie is signed again only once it is :data:`REFRESH` seconds old: a
phone in use keeps a cookie that lasts the whole ``PERMANENT_SESSION_LIFETIME`` after its last
hour of play, and most answers carry no Set-Cookie line. A bad signature is refused as Flask
refuses it.

Cookies are stamped and aged on the app's steady clock (``platform.steady_clock``), not the
wall clock: a Pi's clock jumping back (a cookie "from the future", which itsdangerous refuses)
or forward by days (every cookie "expired") leaves every phone its session. The cookie also
carries ``Max-Age``, so a phone keeps it by its own clock even when the Pi's is months off.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from flask.wrappers import Response
from itsdangerous import BadSignature, TimestampSigner, URLSafeTimedSerializer

REFRESH = 3600
"""Seconds after which an unchanged session's cookie is signed again (with a new expiry)."""


class SteadySigner(TimestampSigner):
    """itsdangerous' timestamp signer with its stamps on ``clock``."""

    def __init__(self, *args: Any, clock: Callable[[], float] = time.time,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.clock = clock

    def get_timestamp(self) -> int:
        return int(self.clock())


class SteadySessions(SecureCookieSessionInterface):
    """The app's session interface: Flask's, on the app's clock (see the module's docstring)."""

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        if not app.secret_key:
            return None
        keys: Any = [*(app.config["SECRET_KEY_FALLBACKS"] or []),
                                   app.secret_key]  # the current key last, as Flask does
        return URLSafeTimedSerializer(
            keys, salt=self.salt, serializer=self.serializer, signer=SteadySigner,
            signer_kwargs={"key_derivation": self.key_derivation,
                           "digest_method": self.digest_method, "clock": _clock(app)})

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """Flask's session, aged on the app's clock (a stamp "from the future", the clock
        having gone back, is young), noting when its cookie was signed."""
        s = self.get_signing_serializer(app)
        if s is None:
            return None
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return self.session_class()
        try:
            data, when = s.loads(cookie, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        signed = int(when.timestamp())
        if _clock(app)() - signed > app.permanent_session_lifetime.total_seconds():
            return self.session_class()  # expired
        session = self.session_class(data)
        session.signed_at = signed  # type: ignore[attr-defined]
        return session

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        """A changed session, or a permanent one whose cookie is :data:`REFRESH` seconds old
        (or was not sent); Flask's own rule otherwise re-signs it on every answer."""
        if session.modified:
            return True
        if not (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            return False
        signed = getattr(session, "signed_at", None)
        return signed is None or not 0 <= _clock(app)() - signed < REFRESH

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


def _clock(app: Flask) -> Callable[[], float]:
    """The app's steady clock (the wall clock for an app without one)."""
    return getattr(app.extensions.get("companion"), "clock", time.time)
