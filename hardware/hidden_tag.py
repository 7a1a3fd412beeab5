"""A tag left on a reader hides the next one: the reader hears two tags answer at once and
keeps reading the one it read last (hardware/nfc.py, ``crowded``). :class:`HiddenTag` says when
that has lasted ``HINT_S`` (and when it has been over as long), so the table can say why a tag
put down gives no tap."""

from __future__ import annotations

from companion.engine.i18n import Msg

HINT_S = 0.4
"""A reader hears a hidden tag beside the one it reads (or stops hearing it) for this long
before the table is told (or the hint goes): a hand passing by is no reason."""
TAG_HIDDEN = "tag_hidden"
"""The hint of a reader whose resting tag hides another one (``status()``'s ``hint``)."""


def hint_words(role: str) -> Msg:
    """What the OLED and the page say about reader ``role``."""
    return Msg("Two tags on reader {role}: the one left on it hides the other. Lift it.",
               role=role)


class HiddenTag:
    """The hint of one reader, fed each poll's ``crowded``."""

    def __init__(self) -> None:
        self.hint: str | None = None
        self._since: float | None = None  # since when it has (or has not) heard two tags

    def feed(self, now: float, crowded: bool) -> bool:
        """Whether the hint changed with this poll (``hint`` says to what)."""
        if crowded == (self.hint is not None):
            self._since = None
            return False
        if self._since is None:
            self._since = now
        if now - self._since < HINT_S:
            return False
        self._since = None
        self.hint = TAG_HIDDEN if crowded else None
        return True
