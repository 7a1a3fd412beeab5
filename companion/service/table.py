"""The table: the game service wired to the hardware (taps, buttons, OLED) and the tag registry.

Every tap and button press becomes work on the service thread, so the registry and the game
log have one writer. A tap that means nothing now is answered on the OLED (and to listeners such
as the page) with the reason; nothing changes.

The table (readers, buttons, OLED) serves one game at a time: the newest game when it is
created, or the open game the banker chooses (:meth:`Table.serve`). A button press carries the
game and version of the prompt the OLED showed: if the game moved on since, or the table now
serves another game, the press is refused and changes nothing.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.boxes.tags import TagAlreadyEnrolled, TagError
from companion.engine import i18n, story
from companion.engine.event_format import signal
from companion.engine.i18n import Msg, said
from companion.engine.types import Command, RuleError
from companion.plugins.editions import find_edition
from companion.service.game_service import GameNotFound, GameRecord, GameService, Outcome

log = logging.getLogger("companion.service.table")


class Table:
    """Connects the game service with a hardware facade (or None) and the tag registry."""

    def __init__(self, service: GameService, hardware: Any = None) -> None:
        self.service = service
        self.hardware = hardware
        self.registry = service.tag_registry()
        """The enrolled tags: used on the service thread (inside ``service.call``)."""
        self.enrolling: str | None = None
        """The edition being enrolled, or None during play."""
        self.move_tags = False
        """While enrolling: a tag already enrolled as something else moves to the object asked
        for (the banker chose to), instead of being refused."""
        self.last_notice: dict[str, Any] | None = None
        self.public_url = ""
        """The page's address phones can reach (for the OLED's join QR code)."""
        self.taps = 0
        self.last_tap: dict[str, Any] | None = None
        """The latest tag seen during play: ``{n, uid, edition, object}`` (object None when
        the tag is unknown). The setup form uses it to give players their tapped tokens."""
        service.subscribe(self._changed)

    # -- inputs ---------------------------------------------------------------------------
    def tap(self, role: str, uid: str) -> Outcome:
        """A tag appeared on reader ``role``: enroll it, or play what it means now."""
        return self.service.call(self._tap, role, uid)

    def press_action(self, action: dict[str, Any], extra: Any) -> Outcome:
        """The buttons chose one of the view's actions (with its input, if any). The action
        carries the ``game_id`` and ``version`` of the view the OLED showed (navigator)."""
        served = self.served_game()
        if served is None:
            return self._tell(Msg("No game is running."))
        game_id = action.get("game_id") or served
        if game_id != served:
            return self._tell(Msg("The table serves another game now; nothing was done. "
                                  "Check the screen and press again."))
        args = dict(action.get("args", {}))
        spec = action.get("input") or {}
        if extra is not None:
            kind = str(spec.get("kind", ""))
            key = {"dice": "dice", "amount": "amount"}.get(kind, str(spec.get("arg", "option")))
            args[key] = extra
        version = action.get("version")
        out = self.service.submit(game_id, {"actor": action["actor"], "type": action["type"],
                                            "args": args},
                                  version if isinstance(version, int) else None)
        if not out.ok:
            self._tell(out.error, game_id)
        self._feedback(out)
        return out

    # -- which game the table serves ------------------------------------------------------
    def served_game(self) -> str | None:
        """The game the readers, buttons and OLED serve: the banker's choice, else the newest
        open game (a game the banker creates is served from then on)."""
        return self.service.active_game()

    def served(self) -> dict[str, Any] | None:
        """``{game_id, title, edition, finished}`` of the served game, or None."""
        game_id = self.served_game()
        if game_id is None:
            return None
        try:
            rec = self.service.record(game_id)
        except GameNotFound:
            return None
        return {"game_id": rec.id, "title": rec.title, "edition": rec.edition,
                "finished": bool(rec.state.finished)}

    def serve(self, game_id: str) -> dict[str, Any]:
        """The banker chooses which open game the table serves (kept across restarts).
        Raises GameNotFound for an unknown game and RuleError for an ended one."""

        def choose() -> GameRecord:
            rec = self.service.record(game_id)
            if rec.state.finished:
                raise RuleError(Msg("That game has ended: the table can only serve an open game."))
            self.service.serve_game(rec.id)
            return rec

        self.service.call(choose)
        log.info("the table now serves game %s", game_id)
        self.show_active()
        served = self.served()
        assert served is not None
        return served

    # -- enrollment -----------------------------------------------------------------------
    def objects(self, edition: str) -> list[tuple[str, str]]:
        rules: Any = find_edition(edition)
        return list(rules.tag_objects())

    def start_enrollment(self, edition: str, move: bool = False) -> dict[str, Any]:
        find_edition(edition)
        self.enrolling = edition
        self.move_tags = move
        return self.enrollment()

    def stop_enrollment(self) -> None:
        self.enrolling = None
        self.show_active()

    def enrollment(self) -> dict[str, Any]:
        """Progress of the enrollment running now (also drawn on the OLED)."""
        if self.enrolling is None:
            return {"enrolling": None}
        out = self.progress_for(self.enrolling)
        if self.hardware is not None:
            self.hardware.show_enrollment(out)
        return out

    def progress_for(self, edition: str) -> dict[str, Any]:
        """How many of ``edition``'s objects have a tag, and which to tap next."""
        progress = self.service.call(self.registry.progress, edition, self.objects(edition))
        return {"edition": edition, "enrolling": self.enrolling, "move": self.move_tags,
                "done": progress.done,
                "total": progress.total, "next": progress.next_object,
                "prompt": progress.prompt, "text": progress.text}

    # -- on the service thread --------------------------------------------------------------
    def _tap(self, role: str, uid: str) -> Outcome:
        if self.enrolling is not None:
            return self._enroll(uid)
        found = self._read(uid)
        self.taps += 1
        self.last_tap = {"n": self.taps, "uid": uid, "edition": found[0] if found else None,
                         "object": found[1] if found else None}
        if found is None:
            return self._notice(Msg("Unknown tag {uid}: the banker can enroll it.", uid=uid),
                                "error")
        edition, obj = found
        game_id = self.served_game()
        if game_id is None:
            return self._notice(Msg("No game is running: start one on the page."), "error")
        rec = self.service.record(game_id)
        if rec.edition != edition:
            return self._notice(Msg("That tag belongs to {game}.",
                                    game=find_edition(edition).title), "error")
        rules: Any = find_edition(edition)
        try:
            command: Command = rules.interpret_tap(rec.state, obj, role)
        except RuleError as exc:
            return self._notice(said(exc), "error", game_id)
        out = self.service.decide_here(game_id, command)
        if not out.ok:
            self._notice(out.error, "error", game_id)
        self._feedback(out)
        return out

    def _read(self, uid: str) -> tuple[str, str] | None:
        """What the tag stands for at this table: the served game's box profile first
        (companion/boxes/card_tags.py)."""
        game_id = self.served_game()
        game = None
        if game_id is not None and self.service.loaded(game_id):
            game = (game_id, self.service.record(game_id).edition)
        return self.service.read_tag(uid, game)

    def _enroll(self, uid: str) -> Outcome:
        assert self.enrolling is not None
        progress = self.registry.progress(self.enrolling, self.objects(self.enrolling))
        if progress.finished:
            return self._notice(Msg("Every tag of this edition is enrolled."), "ok")
        assert progress.next_object is not None
        try:
            self.registry.enroll(uid, self.enrolling, progress.next_object,
                                 progress.next_label or "", move=self.move_tags)
        except TagAlreadyEnrolled as exc:
            return self._notice(Msg("That tag is already {thing}: tap another, or choose to "
                                    "move enrolled tags.", thing=exc.label or exc.object),
                                "error")
        except TagError as exc:
            return self._notice(said(exc), "error")
        self.enrollment()
        return self._notice(Msg("Enrolled {thing}.", thing=progress.next_label or ""), "ok")

    def _tell(self, text: str, game_id: str = "") -> Outcome:
        """A refusal from off the service thread (a button), told like a tap's."""
        try:
            return self.service.call(self._notice, text, "error", game_id)
        except Exception:  # noqa: BLE001 - telling must never stop a button
            log.exception("could not tell the table: %s", text)
            return Outcome(False, 0, error=text, code="illegal")

    def _notice(self, text: str, level: str, game_id: str = "") -> Outcome:
        """Tell the table (OLED, LEDs, page listeners) something that changed nothing."""
        self.service.notify(game_id, text, level)
        return Outcome(level != "error", 0, [text] if level != "error" else [],
                       error=text if level == "error" else "", code="illegal")

    def _feedback(self, out: Outcome) -> None:
        if self.hardware is None:
            return
        if not out.ok:
            self.hardware.signal("error")
            return
        tunes = {signal(kind) for kind in out.events}
        self.hardware.signal(next((t for t in ("win", "catch") if t in tunes), "ok"))

    def _changed(self, game_id: str, version: int, notice: dict[str, Any] | None) -> None:
        if notice is not None:  # a refusal or a fault (from a tap, a phone or the disk)
            self.last_notice = notice
            if self.hardware is not None:
                error = notice.get("level") == "error"
                if error:
                    self.hardware.show_error(notice["text"])
                self.hardware.signal("error" if error else "ok")
            return
        if self.hardware is not None and self.enrolling is None:
            if game_id == self.served_game():
                self._show(game_id)

    def show_active(self) -> None:
        """The served game on the OLED (never raises: a screen fault is logged)."""
        game_id = self.served_game()
        if game_id and self.hardware is not None:
            try:
                self._show(game_id)
            except Exception:  # noqa: BLE001 - the screen must never stop the table
                log.exception("showing game %s on the table failed", game_id)

    def _show(self, game_id: str) -> None:
        """The game on the OLED; until its first move, the join screen (QR code and code)
        so every phone at the table can come in."""
        assert self.hardware is not None
        rec = self.service.record(game_id)
        if rec.commands <= 1 and self.public_url and not rec.state.finished:
            url = f"{self.public_url.rstrip('/')}/?code={rec.join_code}"
            self.hardware.show_join(url, rec.join_code)
        elif rec.state.finished:  # the end screen tells the game's story (engine/story.py)
            told = self.service.story(game_id)
            lang = getattr(self.hardware, "language", i18n.SOURCE)  # the table's language
            lines = story.screen_lines(told, find_edition(rec.edition), lang=lang)
            self.hardware.show({**self.service.view(game_id), "story": lines})
        else:
            self.hardware.show(self.service.view(game_id))
