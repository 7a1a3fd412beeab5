"""Checks every request passes: Host header, CSRF token plus Origin, session roles, PIN limits."""

from __future__ import annotations

import hmac
import ipaddress
import json
import secrets
import socket
import threading
import time
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, current_app, request, session

from web.errors import ApiError

CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def lan_ip() -> str | None:
    """This machine's address on the LAN (no packet is sent), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            return str(s.getsockname()[0])
    except OSError:
        return None


def default_hosts() -> list[str]:
    hosts = ["localhost", "127.0.0.1", "::1", "companion.local"]
    ip = lan_ip()
    if ip:
        hosts.append(ip)
    return hosts


def host_name(host: str) -> str:
    """``"[::1]:8000"`` -> ``"::1"``, ``"Companion.local:80"`` -> ``"companion.local"``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def host_refusal(host: str, allowed: Collection[str]) -> ApiError | None:
    """The refusal of a Host header we do not serve (DNS rebinding), or None. An IP address
    is always served: DNS rebinding needs a name, and the Pi's address may change (Wi-Fi up
    late, a new lease) after the allowed names were listed."""
    name = host_name(host)
    if name not in allowed and not _is_ip(name):
        return ApiError("bad_host", "This companion does not answer to that address.")
    return None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def csrf_refusal(method: str, origin: str | None, host: str, sent: str,
                 token: Any) -> ApiError | None:
    """The refusal of a write without this session's ``token`` in its header (``sent``) or
    from another site (``origin``: the Origin, else the Referer header), or None."""
    if method in SAFE_METHODS:
        return None
    if origin:
        parts = urlsplit(origin)
        if origin == "null" or host_name(parts.netloc) != host_name(host):
            return ApiError("csrf", "This request came from another site.")
    if not token or not hmac.compare_digest(str(sent), str(token)):
        return ApiError("csrf", "The page is out of date (missing security token); reload it.")
    return None


def check_host() -> None:
    """Refuse a Host header we do not serve (DNS rebinding)."""
    refusal = host_refusal(request.headers.get("Host", ""), current_app.config["ALLOWED_HOSTS"])
    if refusal is not None:
        raise refusal


def check_csrf() -> None:
    """A write needs this session's token in a header and, when sent, a same-site Origin."""
    refusal = csrf_refusal(request.method,
                           request.headers.get("Origin") or request.headers.get("Referer"),
                           request.host, request.headers.get(CSRF_HEADER, ""),
                           session.get("csrf", ""))
    if refusal is not None:
        raise refusal


def ensure_session() -> None:
    """Every visitor gets a session id and a CSRF token (the cookie carries both)."""
    if "sid" not in session:
        session["sid"] = secrets.token_urlsafe(18)
        session.permanent = True
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)


class BankerSessions:
    """The banker logins the server still honours: ``token -> (until, PIN digest)``.

    A signed cookie alone cannot be taken back, so the cookie only carries a random token
    and this registry decides: logging out drops the token, and a token made under another
    PIN (the PIN was changed) no longer counts. Kept in the settings table, so a restart
    keeps the banker logged in."""

    KEY = "web.banker_sessions"

    def __init__(self, service: Any, pin: str, secret: str) -> None:
        self.service = service
        self.digest = hmac.new(secret.encode(), f"pin:{pin}".encode(), "sha256").hexdigest()
        self._lock = threading.Lock()
        raw = service.call(service.store.setting, self.KEY)
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            data = {}
        self._tokens: dict[str, list[Any]] = data if isinstance(data, dict) else {}

    def _save(self) -> None:
        now = time.time()
        self._tokens = {t: v for t, v in self._tokens.items() if v[0] > now}
        self.service.call(self.service.store.set_setting, self.KEY, json.dumps(self._tokens))

    def start(self, hours: float) -> str:
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._tokens[token] = [time.time() + hours * 3600, self.digest]
            self._save()
        return token

    def valid(self, token: Any) -> bool:
        entry = self._tokens.get(token) if isinstance(token, str) else None
        return (entry is not None and entry[0] > time.time()
                and hmac.compare_digest(str(entry[1]), self.digest))

    def end(self, token: Any) -> None:
        with self._lock:
            if isinstance(token, str) and self._tokens.pop(token, None) is not None:
                self._save()


def is_banker(sess: Mapping[str, Any] | None = None) -> bool:
    """Whether this session (``sess``, else the request's) holds a banker login still honoured."""
    bankers: BankerSessions = current_app.extensions["companion"].bankers
    return bankers.valid((session if sess is None else sess).get("banker"))


def require_banker() -> None:
    if not is_banker():
        raise ApiError("forbidden", "Only the banker can do that; log in with the PIN.")


@dataclass
class Limiter:
    """Locks a key after ``limit`` failures within ``window`` seconds, for ``lock`` seconds."""

    limit: int = 5
    lock: float = 300.0
    window: float = 900.0
    clock: object = time.monotonic
    _fails: dict[str, list[float]] = field(default_factory=dict)
    _locked: dict[str, float] = field(default_factory=dict)
    _mutex: threading.Lock = field(default_factory=threading.Lock)

    def _now(self) -> float:
        return float(self.clock())  # type: ignore[operator]

    def locked_for(self, key: str) -> float:
        """Seconds left on the lock of ``key`` (0: not locked)."""
        with self._mutex:
            left = self._locked.get(key, 0) - self._now()
            return max(0.0, left)

    def fail(self, key: str) -> None:
        with self._mutex:
            now = self._now()
            fails = [t for t in self._fails.get(key, []) if now - t < self.window] + [now]
            if len(fails) >= self.limit:
                self._locked[key] = now + self.lock
                fails = []
            self._fails[key] = fails

    def succeed(self, key: str) -> None:
        with self._mutex:
            self._fails.pop(key, None)


def guard(limiter: Limiter, global_limiter: Limiter, what: str) -> None:
    """Refuse while this client, or everyone after a flood from many addresses, is locked
    out (the global count lives in ``global_limiter``, where :func:`record_failure` puts it)."""
    for lim, key in ((limiter, request.remote_addr or "?"), (global_limiter, "*")):
        left = lim.locked_for(f"{what}:{key}")
        if left:
            raise ApiError("locked", f"Too many wrong tries; wait {int(left) + 1} seconds.",
                           headers={"Retry-After": str(int(left) + 1)})


def record_failure(limiter: Limiter, global_limiter: Limiter, what: str) -> None:
    limiter.fail(f"{what}:{request.remote_addr or '?'}")
    global_limiter.fail(f"{what}:*")


def install(app: Flask) -> None:
    @app.before_request
    def _checks() -> None:
        check_host()
        ensure_session()
        check_csrf()

    @app.after_request
    def _headers(resp):  # type: ignore[no-untyped-def]
        h = resp.headers
        h.setdefault("X-Content-Type-Options", "nosniff")
        h.setdefault("X-Frame-Options", "DENY")
        h.setdefault("Referrer-Policy", "same-origin")
        h.setdefault("Content-Security-Policy",
                     "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                     "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
                     "base-uri 'none'; form-action 'self'")
        if request.path.startswith("/api/"):
            h.setdefault("Cache-Control", "no-store")
        return resp
