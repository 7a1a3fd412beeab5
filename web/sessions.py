"""Flask's signed-cookie sessions, with each cookie verified once instead of on every request.

Every request of a phone carries the same cookie until the server re-signs it (at most once a
second: the signature's timestamp counts seconds), and every answer re-signs it (the session
is permanent and refreshed on each request). Both cost more than the rest of a move's checks
together (key derivation, two HMACs, zlib, tagged JSON). Here a cookie that verified is
remembered with its timestamp, and a payload signed within the same second is reused: the
cookies, their lifetimes and every refusal (a bad signature, an expired cookie) are exactly
Flask's, only computed less often. The memory is bounded and starts over when full.
"""

from __future__ import annotations

import pickle
import time
from typing import Any

from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import SignatureExpired, URLSafeTimedSerializer

LIMIT = 2048
"""Cookies remembered per direction (a game night has a few dozen phones)."""


class RememberingSerializer(URLSafeTimedSerializer):
    """``URLSafeTimedSerializer`` that remembers what it verified and what it signed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
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
            obj, when = super().loads(s, max_age=max_age, return_timestamp=True)
            hit = (pickle.dumps(obj), int(when.timestamp()))
            if len(self._opened) >= LIMIT:
                self._opened.clear()
            self._opened[key] = hit
        elif max_age is not None:  # itsdangerous's own age check, on the remembered stamp
            age = int(time.time()) - hit[1]
            if age > max_age:
                raise SignatureExpired(f"Signature age {age} > {max_age} seconds")
            if age < 0:
                raise SignatureExpired(f"Signature age {age} < 0 seconds")
        return pickle.loads(hit[0])  # a fresh copy: the request may change its session

    def dumps(self, obj: Any, salt: str | bytes | None = None) -> str:
        if salt is not None:
            return str(super().dumps(obj, salt))
        key = (self.dump_payload(obj), int(time.time()))
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
            held = self._serializer = (tuple(keys), RememberingSerializer(
                keys, salt=self.salt, serializer=self.serializer,
                signer_kwargs={"key_derivation": self.key_derivation,
                               "digest_method": self.digest_method}))
        return held[1]
