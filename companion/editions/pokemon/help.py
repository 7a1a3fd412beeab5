"""Pokémon's first-game help for the questions it asks (``Rules.prompt_help``)."""

from __future__ import annotations

from companion.engine.help import Help
from companion.engine.i18n import N_

PROMPT_HELP: dict[str, Help] = {
    "order": Help(N_("Each Trainer rolls the numbered die: the highest roller starts and play "
                  "moves to the left."), "order"),
    "buy": Help(N_("An uncontrolled location: take control of it by paying the amount on "
                "the board space. If you cannot afford it, the Banker auctions it."),
                "buy"),
    "auction": Help(N_("The Banker auctions this location: the highest bidder pays the Bank "
                    "and takes the Location Card, but may not explore it this turn."),
                    "auction-win"),
    "draw": Help(N_("Take the top card of the Adventure or Challenge deck, then tap it on "
                 "the reader or pick it here: the companion does what it says."), "cards"),
    "explore": Help(N_("Explore this location: roll the catching die to try to catch its "
                    "wild Pokémon. At a rival's location you pay them the exploration "
                    "cost first. You may also end your turn."), "explore-cost"),
    "catch": Help(N_("Roll the catching die: a Poké Ball face catches the wild Pokémon, an X "
                  "catches nothing."), "catch"),
    "catch_miss": Help(N_("Nothing caught. End your turn, or pay 1 Poké Ball to the Bank and "
                       "roll again."), "reroll"),
    "battle": Help(N_("A battle for this location: roll the die; your Pokémon and partner add "
                   "their strength. Win and you pay nothing and take the Location card "
                   "(unless its Trainer has a complete set); lose or tie and you pay the "
                   "battle fee."), "battle-win"),
    "battle_card": Help(N_("You may play a Challenge card from your hand to change the "
                        "battle's total, or play none."), "cards"),
    "lapras": Help(N_("Lapras: you may ride to any space up to the next Lapras space, or "
                   "stay where you are."), "lapras"),
}
