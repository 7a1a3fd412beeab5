"""The Monopoly family's words for the prompt kinds every Monopoly edition asks: first-game
help, and the OLED's glance (an edition's own ``prompt_help`` and ``glance_forms`` add its
kinds and may word a shared one its way)."""

from __future__ import annotations

from companion.engine.help import Help
from companion.engine.i18n import N_

FAMILY_HELP: dict[str, Help] = {
    "order": Help(N_("Before the first turn everyone rolls to decide who starts: the highest roll "
                  "goes first, then play goes round the table."), "order"),
    "turn": Help(N_("Your turn: roll the dice (or type what the real dice show) and move your "
                 "token that many spaces. The companion works out where you land and what "
                 "happens there."), "move"),
    "buy": Help(N_("You stopped on a space nobody owns. Buy it for the price on the board, or "
                "say no and it is auctioned: anyone may bid for it."), "buy"),
    "auction": Help(N_("An auction: every player may bid, any amount above the last bid. The "
                    "highest bidder pays the Bank and owns the space. Passing is fine."),
                    "auction"),
    "debt": Help(N_("You owe more than you have. Raise it by selling to the Bank or trading with "
                 "a player; if you cannot, you are bankrupt and out of the game."),
                 "sell-to-bank"),
    "draw": Help(N_("Take the top card of that pile on the table, then tap it on the reader (or "
                 "pick it here): the companion does what it says."), "chance"),
}
"""Prompt kind -> its help (``Rules.prompt_help``)."""

FAMILY_GLANCES: dict[str, tuple[str, ...]] = {
    "draw": (N_("{player}: draw a {deck} card."),),
}
"""Prompt kind -> its forms on the OLED (``Rules.glance_forms``)."""
