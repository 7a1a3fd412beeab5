"""Star Wars' first-game help for the questions it asks (``Rules.prompt_help``)."""

from __future__ import annotations

from companion.engine.help import Help
from companion.engine.i18n import N_

PROMPT_HELP: dict[str, Help] = {
    "draw": Help(N_("Take the top Chance card, read it out loud, then tap it on the reader or "
                 "pick it here: the companion follows the instructions."), "chance"),
    "force": Help(N_("Use the Force: roll one die; the number decides which power of the "
                  "Force you use."), "force"),
    "force_swap_mine": Help(N_("Mind Trick: choose which of your properties you give away in "
                            "the swap."), "force-mind-trick-swap"),
    "force_swap_theirs": Help(N_("Mind Trick: choose the other player's property you take "
                              "in exchange."), "force-mind-trick-swap"),
    "force_stealth": Help(N_("Force Stealth: move to any unowned space and buy it for free "
                          "(no ₥200 for passing GO)."), "force-stealth"),
    "force_levitate": Help(N_("Force Levitate: swap the place of your ship with any other "
                           "ship on the board."), "force-levitate"),
    "force_pull_who": Help(N_("Force Pull: choose the player you pull onto one of your "
                           "properties (they pay you rent)."), "force-pull"),
    "force_pull_where": Help(N_("Force Pull: choose which of your properties the player is "
                             "pulled to; they pay its rent."), "force-pull"),
}
