"""The composition root: the one place where the service, the table hardware, the page,
mDNS, the watchdog and the venue are wired together (``companion run``, ``companion venue``,
and the reader ``companion enroll`` listens to). Nothing else in ``companion`` imports
``web`` or ``hardware`` (tests/test_import_graph.py)."""

from __future__ import annotations

import argparse
import errno
import logging
import os
import signal
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.app.config import home_assistant_settings, venue_settings
from companion.engine.i18n import Msg
from companion.engine.i18n import said as reason_of  # "said" is a local name below
from companion.platform import start_backoff
from companion.platform.config import (
    ConfigError,
    default_state_dir,
    on_raspberry_pi,
    volatile_state_problem,
)
from companion.platform.memory import limit_malloc_arenas
from companion.service.game_service import GameService
from companion.service.table import Table
from companion.store.database import StoreError

log = logging.getLogger("companion.run")
DEVICES = {"buttons": Msg("Buttons"), "lights and buzzer": Msg("Lights and buzzer")}
"""The table's devices other than readers, by their name in hardware's status."""


def device_changed(show_error: Callable[[str], None], part: str, working: bool,
                   message: str) -> None:
    """A device came up or went missing: the OLED says so in the table's language (unless it
    is the one missing), as does the page (GET /api/table). The hardware layer logs each
    change, once; undervoltage it shows itself (hardware/power.py)."""
    if working or part in ("screen", "power supply"):
        return
    device = DEVICES.get(part) or Msg("Reader {role}", role=part)
    show_error(Msg("{device}: {problem}. Retrying.", device=device, problem=message))


def run_companion(config: dict[str, Any], args: argparse.Namespace) -> int:
    """Start everything and serve until SIGTERM or Ctrl-C."""
    from companion.platform.config import server_name
    from companion.platform.discovery import Announcer, NetworkFollower, is_loopback, own_names
    from companion.platform.notify import Notifier, WatchdogPinger, WriterTurns, watchdog_interval
    from hardware.table import TableHardware

    limit_malloc_arenas()
    server_cfg = dict(config.get("server", {}))
    host = args.host or server_cfg.get("host", "0.0.0.0")
    port = int(args.port or server_cfg.get("port", 8080))
    state_dir = Path(args.state_dir or config.get("state", {}).get("dir") or default_state_dir())
    simulate = bool(args.simulate or not on_raspberry_pi())

    configured_pin = args.pin or config.get("banker", {}).get("pin")
    if configured_pin:  # refused before anything starts
        from web.security import pin_refusal

        why = pin_refusal(str(configured_pin))
        if why is not None:
            raise ConfigError(why)
    table_ref: dict[str, Table] = {}

    def on_tap(role: str, uid: str) -> None:
        if "t" in table_ref:
            table_ref["t"].tap(role, uid)

    def on_action(action: dict[str, Any], extra: Any) -> None:
        if "t" in table_ref:
            table_ref["t"].press_action(action, extra)

    def on_status(part: str, working: bool, message: str) -> None:
        device_changed(lambda text: hardware.show_error(text), part, working, message)

    try:
        hardware = TableHardware.from_config(config.get("hardware", {}), on_tap=on_tap,
                                             on_action=on_action, simulate=simulate,
                                             on_status=on_status)
    except (ValueError, TypeError) as exc:
        raise ConfigError(Msg("[hardware] in the config: {reason}",
                              reason=reason_of(exc))) from exc
    problem = volatile_state_problem(state_dir)  # e.g. Raspberry Pi OS's overlay mode
    if problem:
        log.error("%s", problem)
        hardware.show_error(Msg("Games would be lost at reboot: state folder in memory. "
                                "See the journal."))
        hardware.stop(keep_screen=True)  # the reason stays on the OLED after the exit
        print(f"companion: {problem}", flush=True)
        return 1
    try:
        service = GameService(state_dir).start()
    except StoreError as exc:
        log.error("%s", exc)
        hardware.show_error(exc.screen)  # damaged, read-only or in use: each says which
        hardware.stop(keep_screen=True)
        print(f"companion: {exc}", flush=True)
        return 1
    pin = banker_pin(service, configured_pin)
    venue = venue_settings(config)
    if venue is not None:  # [venue]: publish to the venue's broker (docs/venue.md)
        from companion.venue.publisher import VenuePublisher

        publisher: VenuePublisher | None = VenuePublisher(service, venue).start()
        log.info("publishing to the venue broker %s as %s/%s", venue.broker, venue.venue,
                 venue.table)
    else:
        publisher = None
    house = home_assistant_settings(config)
    home: Any = None  # [home_assistant]: the house knows a game is on (docs/homeassistant.md)
    if house is not None:
        from companion.venue.homeassistant import HomeAssistantPublisher

        home = HomeAssistantPublisher(service, house).start()
    table = Table(service, hardware)
    table_ref["t"] = table

    name = server_name(config)  # mDNS: http://<name>.local; never on a loopback-only server
    announcer = None if args.no_mdns or is_loopback(host) else Announcer(name=name, port=port)
    shown: dict[str, Any] = {}

    def on_url(new: str) -> None:
        """The network came, went or changed: the page, the QR and systemd follow."""
        if "app" not in shown:
            return
        shown["app"].extensions["companion"].settings["public_url"] = new
        table.public_url = new
        if home is not None:
            home.follow(new)
        notifier.status(f"Serving {new}")
        if service.active_game():
            table.show_active()
        else:
            hardware.show_join(new, "")

    follower = NetworkFollower(host, port, announcer, on_url)
    url = follower.check()
    from companion.platform.hotspot import read_status

    hotspot = read_status()  # the Pi's own Wi-Fi (companion-hotspot.service), or None
    if hotspot is not None:
        url = hotspot.page_url

    from web import create_app
    from web.server import make_server, serve_bound

    app = create_app(service, hardware=hardware, config={
        "banker_pin": pin, "public_url": url, "table": table,
        "allowed_hosts": [*(server_cfg.get("allowed_hosts") or []), *own_names(name)],
        "simulate": simulate,
        "hotspot": hotspot,
    })
    shown["app"] = app
    try:  # bound before systemd hears "ready"
        server = make_server(app, host, port)
    except OSError as exc:
        said = Msg("Cannot serve the page: port {port} is used by another program (see the "
                   "journal).", port=str(port)) if exc.errno == errno.EADDRINUSE else Msg(
            "Cannot serve the page on {host}:{port}: {reason}", host=host, port=str(port),
            reason=exc.strerror or str(exc))
        log.error("%s", said)
        hardware.show_error(said)
        hardware.stop(keep_screen=True)  # the reason stays on the OLED after the exit
        print(f"companion: {said}", flush=True)
        service.stop()
        return 1
    table.public_url = url
    if home is not None:  # the device's link in Home Assistant
        home.follow(url)
    hardware.start()
    join_screens: Any = None
    try:  # the screen is never a reason not to start (TableHardware logs its own faults)
        if service.active_game():
            table.show_active()
        elif hotspot is not None:  # the Wi-Fi's QR code, then the page's, until a game
            from hardware.wifi_screen import JoinScreens

            join_screens = JoinScreens(hardware, hotspot, url,
                                       idle=lambda: service.active_game() is None).start()
        else:
            hardware.show_join(url, "")
    except Exception:
        log.exception("the table's first screen failed; going on without it")
    for notice in service.faults:  # damaged games: named on the OLED until the next move
        try:
            hardware.show_error(notice["text"])
        except Exception:
            log.exception("showing a start-up fault failed")

    notifier = Notifier.from_env()
    interval = watchdog_interval()  # pings only while the game writer turns (WriterTurns)
    pinger = WatchdogPinger(notifier, interval,
                            healthy=WriterTurns(service.enqueue, (interval or 30) / 2))
    stop = threading.Event()

    def on_signal(signum: int, frame: Any) -> None:
        stop.set()
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    mode = "simulated hardware" if simulate else "table hardware"
    print(f"Board Companion ({mode}) on {url}  (state: {state_dir})", flush=True)
    print(f"Banker PIN: {pin}", flush=True)
    notifier.ready(status=f"Serving {url}")
    start_backoff.started()
    pinger.start()
    follower.start()
    try:
        serve_bound(server)
    except KeyboardInterrupt:
        pass
    finally:
        if join_screens is not None:
            join_screens.stop()
        notifier.stopping()
        pinger.stop()
        notifier.close()
        hardware.stop()
        if publisher is not None:
            publisher.stop()
        if home is not None:
            home.stop()
        follower.stop()
        if announcer is not None:
            announcer.close()
        service.stop()
    return 0


def banker_pin(service: GameService, configured: Any) -> str:
    """The banker's PIN: from the command line or config, else one of 8 digits made up on
    the first run and kept in the database (printed at start, so it reaches the journal).
    The owner's own PIN must be one a guest cannot guess (``pin_refusal``)."""
    from web.security import PIN_DIGITS, new_pin, pin_refusal

    if configured:
        pin = str(configured)
        why = pin_refusal(pin)
        if why is not None:
            raise ConfigError(why)
        return pin

    stored = service.setting("banker_pin")
    if stored and len(stored) >= PIN_DIGITS:
        return stored
    pin = new_pin()  # a short PIN made up by an older version is replaced: it was guessable
    service.set_setting("banker_pin", pin)
    return pin


def reader_uids(config: dict[str, Any], role: str | None) -> Any:
    """A blocking ``read_uid`` over the configured real reader (one tap at a time)."""
    import queue

    from hardware.table import TableHardware

    taps: queue.Queue[str] = queue.Queue()

    def on_tap(reader: str, uid: str) -> None:
        if role in (None, reader):
            taps.put(uid)

    hw = TableHardware.from_config(config.get("hardware", {}), on_tap=on_tap,
                                   on_action=lambda a, e: None, simulate=False)
    hw.start()
    return lambda: taps.get()


def run_venue_screen(args: argparse.Namespace) -> int:
    """``companion venue``: the venue screen's page served, fed by the broker."""
    from companion.platform.config import ConfigError
    from companion.venue.board import Board
    from companion.venue.screen import parse_listen
    from companion.venue.settings import NAME
    from companion.venue.subscriber import ScreenSubscriber
    from web.server import make_venue_server
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
    app = create_venue_app(board, title=title, language=args.language)
    server = make_venue_server(app, host, port)
    sub.start()

    def on_signal(signum: int, frame: Any) -> None:
        server.close()

    signal.signal(signal.SIGTERM, on_signal)
    print(f"Venue screen on http://{host}:{server.effective_port}/  (broker {args.broker})",
          flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        sub.stop()
    return 0
