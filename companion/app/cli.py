"""The ``companion`` command: run the table, play scripts, enroll tags, export and import."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from companion import __version__
from companion.app.config import load_config
from companion.engine.i18n import Msg, environment_language, render, said
from companion.engine.types import RuleError
from companion.platform.config import ConfigError, on_raspberry_pi, state_dir_of
from companion.platform.log_lines import RUN_LEVEL, configure
from companion.store.database import StoreError

log = logging.getLogger("companion")


def say(msg: str, out: Any = None) -> None:
    """A line for the terminal, in its language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."""
    print(render(msg, environment_language(os.environ)), file=out or sys.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is cmd_run:  # the service: what it does, for the journal
        configure(logging.DEBUG if args.verbose else RUN_LEVEL)
    else:
        configure(logging.WARNING)
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    try:
        return int(args.func(args))
    except (RuleError, ConfigError, StoreError) as exc:
        say(Msg("companion: {reason}", reason=said(exc)), sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(metavar="COMMAND")

    run = sub.add_parser("run", help="run the companion: game service, page, table hardware")
    run.add_argument("--config", help="TOML config file (default: built-in defaults)")
    run.add_argument("--state-dir", type=Path, help="where the database lives")
    run.add_argument("--host", help="address to serve the page on (default 0.0.0.0)")
    run.add_argument("--port", type=int, help="port to serve the page on (default 8080)")
    run.add_argument("--simulate", action="store_true",
                     help="fake hardware (the default on a machine that is not a Raspberry Pi)")
    run.add_argument("--pin", help="the banker's PIN, 8 to 12 random digits (default: from the "
                     "config, else the one made up on the first run and printed at every start)")
    run.add_argument("--no-mdns", action="store_true", help="do not announce companion.local")
    run.add_argument("-v", "--verbose", action="store_true", help="debug lines too")
    run.set_defaults(func=cmd_run)

    play = sub.add_parser("play", help="play a scripted game headless and print its final state")
    play.add_argument("--script", required=True, type=Path, help="the script (JSON)")
    play.add_argument("--state-dir", type=Path,
                      help="keep the game in this state dir (default: a temporary one)")
    play.set_defaults(func=cmd_play)

    eds = sub.add_parser("editions", help="list the editions this build referees")
    eds.set_defaults(func=cmd_editions)

    exp = sub.add_parser("export", help="print a game's log as JSON lines")
    exp.add_argument("game")
    exp.add_argument("--state-dir", type=Path)
    exp.set_defaults(func=cmd_export)

    imp = sub.add_parser("import", help="import a game exported as JSON lines")
    imp.add_argument("file", type=Path)
    imp.add_argument("--state-dir", type=Path)
    imp.add_argument("--unchecked", action="store_true",
                     help="an export made before commands were recorded: replay its events "
                     "without deciding them again (only for a file you trust)")
    imp.set_defaults(func=cmd_import)

    enroll = sub.add_parser("enroll", help="enroll NFC tags for an edition's objects")
    enroll.add_argument("edition")
    enroll.add_argument("--config")
    enroll.add_argument("--state-dir", type=Path)
    enroll.add_argument("--role", default=None, help="reader role to read from (default: first)")
    enroll.add_argument("--simulate", action="store_true",
                        help="type UIDs on standard input instead of tapping")
    enroll.set_defaults(func=cmd_enroll)

    from companion.app import profile_cli
    from companion.platform import backup
    from companion.venue import screen

    backup.register_cli(sub)
    profile_cli.register_cli(sub)
    screen.add_parser(sub).set_defaults(func=cmd_venue)
    return parser


def cmd_play(args: argparse.Namespace) -> int:
    from companion.service.game_service import GameService
    from companion.service.script import (
        ScriptError,
        load_script,
        parse_step,
        step_refused,
        with_profile_file,
    )

    data = load_script(args.script)
    steps = data.get("steps", [])
    if not isinstance(steps, list):
        raise ScriptError(Msg("'steps' must be a list."))
    setup = with_profile_file({k: v for k, v in data.items() if k != "steps"})
    with tempfile.TemporaryDirectory() as tmp:
        state_dir = args.state_dir or Path(tmp)
        service = GameService(state_dir).start()
        try:
            created = service.create_game(setup)
            if not created.ok:
                raise ScriptError(created.error)
            game_id = created.game_id
            for n, step in enumerate(steps, 1):
                _, state = service.state(game_id)
                try:
                    command = parse_step(state, step)
                except RuleError as exc:
                    raise ScriptError(step_refused(n, step, said(exc))) from exc
                out = service.submit(game_id, command)
                if not out.ok:
                    raise ScriptError(step_refused(n, step, out.error))
            view = dict(service.view(game_id))
            view.pop("actions", None)
            view["steps_run"] = len(steps)
            print(json.dumps(view, indent=2, ensure_ascii=False))
        finally:
            service.stop()
    return 0


def cmd_editions(args: argparse.Namespace) -> int:
    from companion.plugins.editions import available, find_edition

    for name in available():
        print(f"{name:15} {find_edition(name).title}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from companion.service.game_service import GameNotFound, GameService

    # The running service holds the database alone (companion.store.database): refused clearly then.
    try:
        service = GameService(state_dir_of(args), purpose="companion export")
    except StoreError as exc:
        say(Msg("companion export: {reason} While it runs, download the export from the page "
                "(GET /api/games/<id>/export, as the banker).", reason=said(exc)), sys.stderr)
        return 2
    try:
        for line in service.export(args.game):
            print(line)
    except GameNotFound as exc:
        say(Msg("companion: {reason}", reason=said(exc)), sys.stderr)
        return 2
    finally:
        service.stop()
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from companion.service.exports import MAX_IMPORT_BYTES
    from companion.service.game_service import GameService
    from companion.store.database import StoreError

    try:
        size = args.file.stat().st_size
        handle = args.file.open(encoding="utf-8", newline="")
    except OSError as exc:
        say(Msg("companion: cannot read {file}: {reason}", file=str(args.file),
                reason=str(exc.strerror or exc)), sys.stderr)
        return 2
    with handle:
        if size > MAX_IMPORT_BYTES:
            say(Msg("companion: {file} is {size} MB; an export is at most {most} MB (no game "
                    "is that long). Nothing was imported.", file=str(args.file),
                    size=size >> 20, most=MAX_IMPORT_BYTES >> 20), sys.stderr)
            return 2
        try:  # refused while the service runs: one writer per state directory
            service = GameService(state_dir_of(args), purpose="companion import")
        except StoreError as exc:
            say(Msg("companion import: refused: {reason}", reason=said(exc)), sys.stderr)
            return 2
        try:  # read line by line as the import decides them: memory stays flat
            out = service.import_game((line.rstrip("\r\n") for line in handle),
                                      unchecked=args.unchecked)
        except UnicodeDecodeError as exc:
            say(Msg("companion: cannot read {file}: {reason}", file=str(args.file),
                    reason=str(exc)), sys.stderr)
            return 2
        finally:
            service.stop()
    if not out.ok:
        say(Msg("companion: {reason}", reason=out.error or ""), sys.stderr)
        return 2
    print(out.game_id)
    return 0


def cmd_enroll(args: argparse.Namespace) -> int:
    from companion.boxes.tags import enroll_interactive
    from companion.plugins.editions import find_edition
    from companion.service.game_service import GameService

    rules: Any = find_edition(args.edition)
    service = GameService(state_dir_of(args), purpose="companion enroll")
    registry = service.tag_registry()
    try:
        if args.simulate or not on_raspberry_pi():
            def read_uid() -> str | None:
                print("UID> ", end="", flush=True)
                line = sys.stdin.readline()
                return line.strip() or None
        else:
            from companion.app.runner import reader_uids

            read_uid = reader_uids(load_config(args.config), args.role)
        lang = environment_language(os.environ)
        yes = render(Msg("y"), lang)  # the terminal's "yes" letter (s: sì, sí), y always
        enroll_interactive(registry, (args.edition, rules.tag_objects()), read_uid, sys.stdout,
                           confirm=lambda q: input(render(Msg("{question} [{yes}/N] ",
                                                              question=q, yes=yes), lang)
                                               ).strip().lower()[:1] in ("y", yes),
                           commit=lambda: None, lang=lang, title=rules.title)
    finally:
        service.stop()
    return 0


def cmd_venue(args: argparse.Namespace) -> int:
    from companion.app.runner import run_venue_screen

    return run_venue_screen(args)


def cmd_run(args: argparse.Namespace) -> int:
    from companion.app.runner import run_companion
    from companion.platform import start_backoff

    # a start that fails waits longer each time in a row before exiting (systemd restarts it)
    return start_backoff.run(lambda: run_companion(load_config(args.config), args))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
