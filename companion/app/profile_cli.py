"""``companion profile list|show|export|import|delete``: box profiles from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.boxes.profiles import ProfileError, Profiles, check, export_text, unverified
from companion.engine import json_text
from companion.engine.i18n import Msg, environment_language, render


def register_cli(sub: Any) -> None:
    """Add the ``profile`` command to the ``companion`` parser."""
    prof = sub.add_parser("profile", help="box profiles: the owner's corrections, per edition")
    psub = prof.add_subparsers(metavar="ACTION", required=True)
    for name, text, func in (
        ("list", "list the saved profiles", _list),
        ("show", "print a profile and its still unverified facts", _show),
        ("export", "print a profile as a file to share (JSON)", _export),
        ("import", "check and save a profile file", _import),
        ("delete", "delete a profile", _delete),
    ):
        p = psub.add_parser(name, help=text)
        if name == "import":
            p.add_argument("file", type=Path)
            p.add_argument("--replace", action="store_true",
                           help="replace a profile of the same name")
        elif name != "list":
            p.add_argument("name")
        p.add_argument("--edition", help="the edition (when names are shared)")
        p.add_argument("--state-dir", type=Path)
        p.set_defaults(func=_closing(func))


_opened: list[Any] = []
"""Stores opened by the running command: closed when it ends (the database is held alone
while open, see companion.store.database)."""


def _closing(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return func(args)
        finally:
            while _opened:
                _opened.pop().close()
    return run


def _open(args: argparse.Namespace) -> Profiles:
    from companion.platform.config import state_dir_of
    from companion.service.game_service import DB_NAME
    from companion.store.database import Store

    store = Store(state_dir_of(args) / DB_NAME)
    _opened.append(store)
    return Profiles(store.conn)


def _list(args: argparse.Namespace) -> int:
    for row in _open(args).list(args.edition):
        print(f"{row['edition']}\t{row['name']}")
    return 0


def _show(args: argparse.Namespace) -> int:
    profile = _open(args).get(args.name, args.edition)
    print(json.dumps(profile | {"unverified": unverified(profile)}, indent=2, ensure_ascii=False))
    return 0


def _export(args: argparse.Namespace) -> int:
    sys.stdout.write(export_text(_open(args).get(args.name, args.edition)))
    return 0


def _import(args: argparse.Namespace) -> int:
    try:
        profile = check(json_text.loads(Path(args.file).read_bytes()))
    except OSError as exc:
        raise ProfileError(Msg("{file}: cannot be read ({reason}).", file=str(args.file),
                               reason=str(exc.strerror))) from None
    except json_text.JsonTextError as exc:
        raise ProfileError(Msg("{file}: not a JSON profile file: {reason}.", file=str(args.file),
                               reason=str(exc))) from None
    if args.edition and args.edition != profile["edition"]:
        _say(Msg("companion: edition: the file is a {edition} profile.",
                 edition=profile["edition"]), sys.stderr)
        return 2
    saved = _open(args).save(profile, replace=args.replace)
    _say(Msg("Saved the {edition} profile “{name}”.", edition=saved["edition"],
             name=saved["name"]))
    return 0


def _say(msg: Msg, out: Any = None) -> None:
    """A line in the terminal's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."""
    import os

    print(render(msg, environment_language(os.environ)), file=out or sys.stdout)


def _delete(args: argparse.Namespace) -> int:
    gone = _open(args).delete(args.name, args.edition)
    _say(Msg("Deleted the {edition} profile “{name}”.", edition=gone["edition"],
             name=gone["name"]))
    return 0
