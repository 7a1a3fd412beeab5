"""The sections an edition adds to the phone's table (the view's ``panels``), as data.

An edition says what its sections hold, in its own words (messages, so each phone reads them
in its language); the page draws every edition's sections with the same few blocks
(web/static/panels.js) and never knows which edition sent them. A block is a dict with one
of ``heading``, ``text``, ``lines``, ``meter``, ``glyphs`` or ``cards``.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from companion.engine.i18n import Msg, Word

Text = Msg | Word | str
"""Words for the reader: a message, one of the box's words, or a name as printed."""


class Line(TypedDict):
    """One line of a list."""

    text: Text
    player: NotRequired[str]
    """That player's colour dot before the line."""
    die: NotRequired[int]
    """A die showing this face before the line."""
    ticked: NotRequired[bool]
    """A box to tick (a type on a mat): ● when true, ○ when false."""


class Card(TypedDict):
    """A playing piece shown as a small card (a Pokémon chip): its name, a corner mark, a
    note under it, its colour as a CSS colour, and what a screen reader says of it."""

    title: Text
    label: Text
    corner: NotRequired[str]
    note: NotRequired[str]
    tone: NotRequired[str]
    off: NotRequired[Text]
    """Why the card is out of play (knocked out): shown on it, the card drawn faded."""


class Meter(TypedDict):
    """Progress towards a goal (Power Points), in the section's player's colour."""

    value: int
    max: int
    label: Text


class Glyphs(TypedDict):
    """A row of symbols (a special die's faces): each face's mark; the lit ones stand out."""

    marks: list[str]
    lit: list[bool]
    label: Text


class Block(TypedDict, total=False):
    """One part of a section: a heading, a paragraph, a list, a meter, a die or cards.
    ``player`` puts that player's dot before a heading or a paragraph; ``tone`` is
    ``"muted"`` (small print) or ``"strong"`` (a figure to read across the table)."""

    heading: Text
    text: Text
    player: str
    tone: str
    lines: list[Line]
    label: Text
    """What a screen reader calls the list (it reads the lines after it)."""
    ordered: bool
    grid: bool
    """Lines drawn as a grid of boxes (a mat's types), not a list."""
    meter: Meter
    glyphs: Glyphs
    cards: list[Card]


class Panel(TypedDict):
    """A section of the table: its title, its blocks; ``player`` draws it in that player's
    colour (their own section), ``badge`` is a figure at the title's end. A panel without
    blocks is not drawn."""

    title: Text
    blocks: list[Block]
    player: NotRequired[str]
    badge: NotRequired[Text]


def away() -> Panel:
    """The place of a section that comes and goes (a battle), kept empty while it is away, so
    a phone's update when it comes is that section alone, not every section after it (the
    page's patches follow a list's items by their place). A new one each time: a view's parts
    are never shared."""
    return {"title": "", "blocks": []}
