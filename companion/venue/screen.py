"""``companion venue``: the venue screen on any machine (the broker's, a laptop, a mini PC)."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import Any

from companion.engine.i18n import LANGUAGES, SOURCE

log = logging.getLogger("companion.venue.screen")


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """The ``companion venue`` command line (run by ``companion.app.runner.run_venue_screen``)."""
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
    p.add_argument("--language", default=SOURCE, choices=LANGUAGES,
                   help="the screen's language (default: en)")
    p.add_argument("--listen", default="0.0.0.0:8090",
                   help="address:port to serve the page on (default 0.0.0.0:8090)")
    p.add_argument("-v", "--verbose", action="store_true")
    return p  # type: ignore[no-any-return]


def parse_listen(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 <= int(port) < 65536:
        raise ValueError(f"--listen {text!r}: give address:port, e.g. 0.0.0.0:8090.")
    return host or "0.0.0.0", int(port)
