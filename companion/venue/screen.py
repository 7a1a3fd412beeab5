"""``companion venue``: the venue screen on any machine (the broker's, a laptop, a mini PC)."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
from pathlib import Path
from typing import Any

from companion.venue.settings import NAME

log = logging.getLogger("companion.venue.screen")


def add_parser(sub: Any) -> None:
    p = sub.add_parser("venue", help="the venue screen: every table on the MQTT broker, live")
    p.add_argument("--broker", required=True, help="the venue's MQTT broker (host or address)")
    p.add_argument("--port", type=int, default=None, help="broker port (1883, or 8883 with TLS)")
    p.add_argument("--username", default="screen", help="broker user (default: screen)")
    p.add_argument("--password", default=None,
                   help="broker password (default: $COMPANION_VENUE_PASSWORD)")
    p.add_argument("--tls", action="store_true", help="connect to the broker with TLS")
    p.add_argument("--ca-file", type=Path, help="CA certificate for --tls")
    p.add_argument("--venue", default="+", help="show only this venue (default: all)")
    p.add_argument("--title", default=None, help="heading of the page (default: the venue)")
    p.add_argument("--listen", default="0.0.0.0:8090",
                   help="address:port to serve the page on (default 0.0.0.0:8090)")
    p.add_argument("-v", "--verbose", action="store_true")
    p.set_defaults(func=cmd_venue)


def parse_listen(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 <= int(port) < 65536:
        raise ValueError(f"--listen {text!r}: give address:port, e.g. 0.0.0.0:8090.")
    return host or "0.0.0.0", int(port)


def cmd_venue(args: argparse.Namespace) -> int:
    from cheroot import wsgi

    from companion.config import ConfigError
    from companion.venue.board import Board
    from companion.venue.subscriber import ScreenSubscriber
    from web.venue import create_venue_app

    try:
        host, port = parse_listen(args.listen)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if args.venue != "+" and not NAME.match(args.venue):
        raise ConfigError(f"--venue {args.venue!r}: letters, digits, '-' or '_' only.")
    board = Board()
    password = args.password or os.environ.get("COMPANION_VENUE_PASSWORD")
    sub = ScreenSubscriber(board, args.broker, args.port or (8883 if args.tls else 1883),
                           venue=args.venue, username=args.username or None, password=password,
                           tls=args.tls, ca_file=args.ca_file,
                           client_id=f"companion-venue-screen-{socket.gethostname()}")
    title = args.title or ("Venue" if args.venue == "+" else args.venue)
    app = create_venue_app(board, title=title)
    server = wsgi.Server((host, port), app, numthreads=40, max=40, request_queue_size=64,
                         timeout=30, server_name="companion-venue")
    server.prepare()
    sub.start()

    def on_signal(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    print(f"Venue screen on http://{host}:{server.bind_addr[1]}/  (broker {args.broker})",
          flush=True)
    try:
        server.serve()
    except KeyboardInterrupt:
        pass
    finally:
        app.extensions["venue"]["closing"].set()
        server.stop()
        sub.stop()
    return 0
