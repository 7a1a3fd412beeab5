"""The phone page: a Flask app over the game service (:class:`service.port.ServicePort`).

``create_app(service, hardware=None, config=None)`` builds it; :func:`web.server.serve` runs it.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from flask import Flask

from companion.platform.steady_clock import SteadyClock
from companion.service.join_codes import LastMoves
from web import compression, errors, security
from web.claims import Claims
from web.context import StreamSlots, Web
from web.security import BankerSessions, Limiter
from web.sessions import SteadySessions

if TYPE_CHECKING:
    from companion.service.game_service import ServicePort

SECRET_SETTING = "web.secret_key"


def _secret(service: ServicePort, given: str | None) -> str:
    """The configured key, else the one kept in the settings table, else a new persisted one."""
    if given:
        return given
    key = service.setting(SECRET_SETTING)
    if not key:
        key = secrets.token_hex(32)
        service.set_setting(SECRET_SETTING, key)
    return str(key)


def create_app(service: ServicePort, hardware: Any = None,
               config: dict[str, Any] | None = None) -> Flask:
    """The app. ``config`` keys: ``banker_pin`` (str), ``allowed_hosts`` (extra host names),
    ``secret_key``, ``public_url`` (the join QR's address), ``stream_slots`` (max open event
    streams), ``stream_seconds`` (a stream ends after this; the page reconnects),
    ``heartbeat`` (seconds between keep-alive comments), ``pin_limit``/``pin_lock`` (tries,
    seconds), ``clock`` (the steady clock, default :class:`SteadyClock`; tests pass their
    own)."""
    cfg = dict(config or {})
    app = Flask(__name__)
    app.debug = False
    hosts = {security.host_name(h) for h in security.default_hosts()}
    hosts |= {security.host_name(h) for h in cfg.get("allowed_hosts", [])}
    app.config.update(
        SECRET_KEY=_secret(service, cfg.get("secret_key")),
        SESSION_COOKIE_NAME="companion",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_SECURE=bool(cfg.get("secure_cookies", False)),
        PERMANENT_SESSION_LIFETIME=timedelta(days=2),
        MAX_CONTENT_LENGTH=256 * 1024,
        ALLOWED_HOSTS=hosts,
        JSON_SORT_KEYS=False,
        DEBUG=False,
        PROPAGATE_EXCEPTIONS=False,
    )
    pin = cfg.get("banker_pin")
    clock = cfg.get("clock") or SteadyClock(service)
    app.extensions["companion"] = Web(
        service=service, hardware=hardware, claims=Claims(service),
        pin=Limiter(limit=int(cfg.get("pin_limit", 5)), lock=float(cfg.get("pin_lock", 300))),
        join=Limiter(limit=10, lock=60, window=3600),
        flood=Limiter(limit=30, lock=60),
        streams=StreamSlots(int(cfg.get("stream_slots", 40))),
        bankers=BankerSessions(service, str(pin or ""), app.config["SECRET_KEY"], clock),
        clock=clock, last_moves=LastMoves(service, clock),
        settings={"banker_pin": str(pin) if pin else "",
                  "public_url": str(cfg.get("public_url", "")),
                  "stream_seconds": float(cfg.get("stream_seconds", 300)),
                  "heartbeat": float(cfg.get("heartbeat", 15)),
                  "table": cfg.get("table")},
    )
    app.session_interface = SteadySessions()
    security.install(app)
    errors.install(app)
    compression.install(app)
    from web import api, captive, events, hardware_api, history_api, pages, profiles_api

    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(events.bp)
    app.register_blueprint(hardware_api.bp)
    app.register_blueprint(profiles_api.bp)
    app.register_blueprint(history_api.bp)
    captive.install(app, cfg.get("hotspot"))  # the Pi's own Wi-Fi: companion/platform/hotspot.py
    return app
