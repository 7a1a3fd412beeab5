"""The household's side tables and the past behind the service: settings, enrolled tags, box
profiles, logs read in pages and the history's kept summaries.

A part of :class:`companion.service.game_service.GameService`: each method runs on the
writer's turn (the database's one connection), so a page or the table never holds SQL."""

from __future__ import annotations

from typing import Any

from companion.boxes import card_tags
from companion.boxes.profiles import Profiles
from companion.boxes.tags import TagRegistry
from companion.service.writer_thread import WriterThread
from companion.store import household, log_reads, past_reads, tag_table
from companion.store.database import Store
from companion.store.past_reads import RawRow


class Household(WriterThread):
    """Settings, tag counts and box profiles, each on the writer's turn."""

    store: Store

    def setting(self, key: str) -> str | None:
        """A stored setting (a session secret, the banker's PIN), or None."""
        return self.call(lambda: self.store.setting(key))

    def set_setting(self, key: str, value: str) -> None:
        """Store a setting (committed when this returns)."""
        self.call(lambda: self.store.set_setting(key, value))

    def tag_registry(self) -> TagRegistry:
        """The enrolled tags, on the database's connection: use it on the writer's turn."""
        return TagRegistry(self.store.conn)

    def read_tag(self, uid: str, game: tuple[str, str] | None) -> tuple[str, str] | None:
        """``(edition, object)`` the tag stands for at a table serving ``game`` =
        ``(game_id, edition)`` (its box profile first), or None for an unknown tag."""
        def read() -> tuple[str, str] | None:
            conn = self.store.conn
            served = None if game is None else (
                game[1], tag_table.setup_profile(conn, game[0]))
            return card_tags.read_tag(conn, uid, served)
        return self.call(read)

    def tag_counts(self) -> dict[str, int]:
        """How many tags are enrolled, per edition."""
        return self.call(lambda: household.tag_counts(self.store.conn))

    # the box profiles (companion/boxes/profiles.py), each raising its ProfileError
    def profiles(self, edition: str | None = None) -> list[dict[str, Any]]:
        """The saved box profiles (of ``edition``): edition, name, when updated."""
        return self.call(lambda: Profiles(self.store.conn).list(edition))

    def profile(self, name: str, edition: str | None = None) -> dict[str, Any]:
        """The profile called ``name`` (``edition`` needed only when two editions share it)."""
        return self.call(lambda: Profiles(self.store.conn).get(name, edition))

    def save_profile(self, raw: Any, *, replace: bool = True) -> dict[str, Any]:
        """Check and save a profile (all or nothing); ``replace``: one of that name."""
        return self.call(lambda: Profiles(self.store.conn).save(raw, replace=replace))

    def delete_profile(self, name: str, edition: str | None = None) -> dict[str, Any]:
        """Delete a profile; the profile it was."""
        return self.call(lambda: Profiles(self.store.conn).delete(name, edition))

    def confirm_profile_fact(self, name: str, edition: str | None, fact: str
                             ) -> dict[str, Any]:
        """Confirm one unverified fact of a profile (its mark clears); the saved profile."""
        return self.call(lambda: Profiles(self.store.conn).confirm(name, edition, fact))

    def last_command_times(self) -> dict[str, float]:
        """Per game, the wall-clock time of its last command (how long it has been idle)."""
        return self.call(lambda: log_reads.last_command_times(self.store.conn))

    # the past (companion/service/past.py reads it in short turns of the writer)
    def past_rows(self, game_id: str, after: int, limit: int) -> list[RawRow]:
        """Up to ``limit`` of a game's event rows after sequence number ``after``, raw."""
        return self.call(lambda: past_reads.rows_after(self.store.conn, game_id, after, limit))

    def last_seq(self, game_id: str) -> int:
        """A game's last event's sequence number (0: no such game, or no event)."""
        return self.call(lambda: past_reads.last_seq(self.store.conn, game_id))

    def finished_games(self) -> list[tuple[dict[str, Any], int]]:
        """Every finished game's row with its last sequence number."""
        def read() -> list[tuple[dict[str, Any], int]]:
            conn = self.store.conn
            return [(g, past_reads.last_seq(conn, g["id"])) for g in self.store.games("finished")]
        return self.call(read)

    def setup_profiles(self) -> dict[str, str]:
        """Per game, the box profile its setup named."""
        return self.call(lambda: past_reads.setup_profiles(self.store.conn))

    def kept_summaries(self) -> dict[str, tuple[int, dict[str, Any]]]:
        """The history's kept summaries: per game, the version it was computed at, and it."""
        return self.call(lambda: past_reads.kept_summaries(self.store.conn))

    def keep_summary(self, game_id: str, version: int, kept: dict[str, Any]) -> None:
        """Keep a finished game's summary, computed at ``version``."""
        self.call(lambda: past_reads.keep_summary(self.store.conn, game_id, version, kept))
