"""Checks every request passes: Host header, CSRF token plus Origin, session roles, PIN limits."""

from __future__ import annotations

import hmac
import ipaddress
import json
import secrets
import socket
import threading
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from flask import Flask, current_app, request, session

from companion.engine.i18n import Msg, Msgs
from web.errors import ApiError

if TYPE_CHECKING:
    from companion.service.game_service import ServicePort

CSRF_HEADER = "X-CSRF-Token"
PIN_DIGITS = 8
"""The PIN made up on the first run: 10**8 PINs against at most 30 wrong tries a minute from
all addresses (the flood lock) take 3.2 years on average to guess (docs/reliability.md)."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


MAX_PIN_DIGITS = 12


def new_pin() -> str:
    """A random banker PIN of :data:`PIN_DIGITS` digits."""
    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


def pin_refusal(pin: str) -> Msg | None:
    """Why the owner's own PIN would not hold a year of evenings, or None. A guesser is
    judged at most 30 times a minute (docs/reliability.md): 10**8 PINs take years, 10**4
    an evening; and a guesser tries patterns (12345678, 11111111, 24682468) first."""
    if not pin.isdigit() or not PIN_DIGITS <= len(pin) <= MAX_PIN_DIGITS:
        return Msg("The banker PIN is 8 to 12 digits: a shorter one can be guessed in an "
                   "evening. Choose a longer one, or leave it out and the companion makes one "
                   "up (printed at every start).")
    steps = {int(b) - int(a) for a, b in zip(pin, pin[1:], strict=False)}
    repeats = any(len(pin) % n == 0 and pin == pin[:n] * (len(pin) // n)
                  for n in range(1, len(pin) // 2 + 1))
    if repeats or steps in ({1}, {-1}, {0}):
        return Msg("The banker PIN {pin} is a pattern a guesser tries first (a repeat or a "
                   "count). Choose digits at random, or leave it out and the companion makes "
                   "one up (printed at every start).", pin=pin)
    return None


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
        return ApiError("bad_host", Msg("This companion does not answer to that address."))
    return None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def origin(scheme: str, host: str) -> tuple[str, str, int] | None:
    """``(scheme, host name, port)`` of ``scheme://host`` (the default port filled in), or
    None when it is not a web address."""
    try:
        parts = urlsplit(f"{scheme.lower()}://{host.strip()}")
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80)


def csrf_refusal(method: str, sender: str | None, host: str, sent: str,
                 token: Any, scheme: str = "http") -> ApiError | None:
    """The refusal of a write without this session's ``token`` in its header (``sent``) or
    from another site (``sender``: the Origin, else the Referer header, whose scheme, host
    and port must be this server's: ``scheme://host``), or None."""
    if method in SAFE_METHODS:
        return None
    if sender:
        parts = urlsplit(sender) if sender != "null" else None
        theirs = origin(parts.scheme, parts.netloc) if parts is not None else None
        if theirs is None or theirs != origin(scheme, host):
            return ApiError("csrf", Msg("This request came from another site."))
    if not token or not hmac.compare_digest(str(sent), str(token)):
        return ApiError("csrf", Msg("The page is out of date (missing security token); reload it."))
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
                           session.get("csrf", ""), request.scheme)
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
    keeps the banker logged in. ``until`` is on ``clock`` (:class:`SteadyClock`), so a jump of
    the wall clock neither ends a login nor makes it last longer than :data:`HOURS`."""

    KEY = "web.banker_sessions"
    HOURS = 12.0

    def __init__(self, service: ServicePort, pin: str, secret: str,
                 clock: Callable[[], float] = time.time) -> None:
        self.service = service
        self.clock = clock
        self.digest = hmac.new(secret.encode(), f"pin:{pin}".encode(), "sha256").hexdigest()
        self.device = hmac.new(secret.encode(), f"device:{pin}".encode(), "sha256").hexdigest()
        """The mark a phone's session keeps once it logged in with this PIN (see
        :meth:`known_device`); signed with the session, it cannot be made up."""
        self._lock = threading.Lock()
        raw = service.setting(self.KEY)
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            data = {}
        self._tokens: dict[str, list[Any]] = {}
        latest = self.clock() + self.HOURS * 3600  # a stamp from the future: the clock went back
        for token, entry in (data.items() if isinstance(data, dict) else ()):
            if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], (int, float)):
                self._tokens[token] = [min(float(entry[0]), latest), entry[1]]

    def _save(self) -> None:
        now = self.clock()
        self._tokens = {t: v for t, v in self._tokens.items() if v[0] > now}
        self.service.set_setting(self.KEY, json.dumps(self._tokens))

    def start(self, hours: float | None = None) -> str:
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._tokens[token] = [self.clock() + (hours or self.HOURS) * 3600, self.digest]
            self._save()
        return token

    def valid(self, token: Any) -> bool:
        entry = self._tokens.get(token) if isinstance(token, str) else None
        return (entry is not None and entry[0] > self.clock()
                and hmac.compare_digest(str(entry[1]), self.digest))

    def known_device(self, mark: Any) -> bool:
        """Whether a session's mark says it has been the banker under the current PIN."""
        return isinstance(mark, str) and hmac.compare_digest(mark, self.device)

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
        raise ApiError("forbidden", Msg("Only the banker can do that; log in with the PIN."))


@dataclass
class Limiter:
    """Locks a key for ``lock`` seconds once ``limit`` tries failed within ``window`` seconds
    (then it starts afresh). Times are ``time.monotonic``: a jump of the wall clock neither
    lifts nor stretches a lock."""

    limit: int = 5
    lock: float = 300.0
    window: float = 900.0
    clock: object = time.monotonic
    _fails: dict[str, list[float]] = field(default_factory=dict)
    _mutex: threading.Lock = field(default_factory=threading.Lock)

    def _now(self) -> float:
        return float(self.clock())  # type: ignore[operator]

    def _recent(self, key: str, now: float) -> tuple[list[float], float]:
        """The key's failures that count and the seconds left on its lock (mutex held)."""
        fails = self._fails.get(key, [])
        if len(fails) >= self.limit:
            left = fails[-1] + self.lock - now
            if left > 0:
                return fails, left
            fails = []  # the lock is over: start afresh
        fails = [t for t in fails if now - t < self.window]
        if fails:
            self._fails[key] = fails
        else:
            self._fails.pop(key, None)
        return fails, 0.0

    def locked_for(self, key: str) -> float:
        """Seconds left on the lock of ``key`` (0: not locked)."""
        with self._mutex:
            return self._recent(key, self._now())[1]

    def take(self, key: str) -> tuple[float, float]:
        """Count a try as failed before it is judged (so tries sent at once cannot all slip
        under the limit): ``(its stamp for refund, 0)``, or ``(0, seconds left)`` when
        locked (then nothing is counted)."""
        with self._mutex:
            now = self._now()
            fails, left = self._recent(key, now)
            if left:
                return 0.0, left
            self._fails[key] = [*fails, now]
            return now, 0.0

    def failures(self, key: str) -> int:
        """Wrong tries of ``key`` that still count (within the window, since its last lock)."""
        with self._mutex:
            return len(self._recent(key, self._now())[0])

    def refund(self, key: str, stamp: float) -> None:
        """The try taken at ``stamp`` was right: it no longer counts (nor its lock)."""
        with self._mutex:
            fails = self._fails.get(key, [])
            if stamp in fails:
                fails.remove(stamp)

    def fail(self, key: str) -> None:
        with self._mutex:
            now = self._now()
            fails, left = self._recent(key, now)
            if not left:
                self._fails[key] = [*fails, now]

    def succeed(self, key: str) -> None:
        """Forget the key's failures (the banker logged in from there)."""
        with self._mutex:
            self._fails.pop(key, None)


class Guess:
    """One try at a secret (a PIN, a join code, a seat key), already counted as wrong in each
    of its limiters; :meth:`right` takes it back once the secret was right."""

    def __init__(self, taken: list[tuple[Limiter, str, float]]) -> None:
        self.taken = taken

    def right(self, forget: bool = False) -> None:
        """The secret was right: the try no longer counts; ``forget``: the first limiter's
        earlier failures are forgotten too (a banker who mistyped, then logged in)."""
        for lim, key, stamp in self.taken:
            lim.refund(key, stamp)
        if forget and self.taken:
            self.taken[0][0].succeed(self.taken[0][1])
        self.taken = []


def attempt(what: str, *limits: tuple[Limiter, str, Callable[[int], Msg]]) -> Guess:
    """Take one try of ``what`` from each ``(limiter, key, words when locked)``, or refuse
    with 429 ``locked`` (and those words, with the seconds to wait) when one is locked."""
    taken: list[tuple[Limiter, str, float]] = []
    for lim, key, words in limits:
        stamp, left = lim.take(f"{what}:{key}")
        if left:
            Guess(taken).right()
            wait = int(left) + 1
            raise ApiError("locked", words(wait),
                           headers={"Retry-After": str(wait)})
        taken.append((lim, f"{what}:{key}", stamp))
    return Guess(taken)


def PHONE_LOCKED(seconds: int) -> Msg:  # noqa: N802 - a message
    return Msgs("Too many wrong tries from this phone; wait {n} second.",
                "Too many wrong tries from this phone; wait {n} seconds.", seconds)


def CODES_FLOOD(seconds: int) -> Msg:  # noqa: N802 - a message
    return Msgs("Many wrong codes are being tried at the table, and this phone tried a wrong "
                "one too; wait {n} second.",
                "Many wrong codes are being tried at the table, and this phone tried a wrong "
                "one too; wait {n} seconds.", seconds)


def guess(limiter: Limiter, global_limiter: Limiter, what: str) -> Guess:
    """One try of ``what`` (a join code) from this address, see :func:`attempt`. Every wrong
    try counts from everywhere too (a flood from many addresses), but that count holds back
    only an address that guessed wrong itself lately (within ``limiter``'s window): a right
    code from a phone that tried no wrong one is never refused because others guessed wrong
    (issue 38). Rotating addresses then buys one judged try per address and window."""
    addr = request.remote_addr or "?"
    if limiter.failures(f"{what}:{addr}"):
        return attempt(what, (limiter, addr, PHONE_LOCKED), (global_limiter, "*", CODES_FLOOD))
    tried = attempt(what, (limiter, addr, PHONE_LOCKED))
    stamp, left = global_limiter.take(f"{what}:*")
    if not left:
        tried.taken.append((global_limiter, f"{what}:*", stamp))
    return tried


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
