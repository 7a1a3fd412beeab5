"""Mario's first-game help for the questions it asks (``Rules.prompt_help``)."""

from __future__ import annotations

from companion.engine.help import Help
from companion.engine.i18n import N_

PROMPT_HELP: dict[str, Help] = {
    "draw": Help(N_("Take the top card of that pile (Question Block or Bowser's Fury), then "
                 "tap it on the reader or pick it here: the companion does what it says."),
                 "question-block"),
    "teammate": Help(N_("Bowser landed on you: you must battle him. Pick another player as "
                     "your teammate; you both roll one die against Bowser."), "battle"),
    "battle": Help(N_("The battle against Bowser: roll one die. Win and you and your teammate "
                   "each get 2 coins and Bowser goes back to GO; lose and you go to Jail."),
                   "battle"),
    "super_star": Help(N_("Super Star: roll one die and take that many coins from the Bank."),
                       "super-star"),
    "piranha_plant": Help(N_("Piranha Plant: roll one die and pay that many coins."),
                          "piranha-plant"),
}
