"""Master Trainer's first-game help for the questions it asks (``Rules.prompt_help``), and
its moves in a player's words (``Rules.move_words``) and its questions at a glance on the
OLED (``Rules.glance_forms``)."""

from __future__ import annotations

from companion.engine.help import Help
from companion.engine.i18n import N_

PROMPT_HELP: dict[str, Help] = {
    "starter": Help(N_("Each player takes a face-down starter Pokémon chip and turns it over: "
                    "the weakest Pokémon goes first."), "order"),
    "roll": Help(N_("Roll one die: the question says what for (who goes first, a battle, the "
                 "Final Battle, a Dice Challenge)."), "battle"),
    "turn": Help(N_("Your turn: roll one die and move your Ash mover that many spaces along "
                 "the paths."), "move"),
    "land": Help(N_("Move your mover, then say where it landed. You may stop beside another "
                 "player's mover you passed instead."), "occupied"),
    "reveal": Help(N_("Turn over the Pokémon chip on the space you landed on and show it."),
                   "catch"),
    "catch": Help(N_("Try to catch this Pokémon: roll one die and get one of the numbers "
                  "shown. A Poké Ball card, played before the roll, helps."), "catch"),
    "take": Help(N_("Chance: take any Pokémon chip of that colour on the board, no roll "
                 "needed."), "chance-card"),
    "draw_items": Help(N_("Draw Item Cards from the real deck, then tap each on the reader "
                       "or pick it here."), "take-items"),
    "draw_event": Help(N_("Draw an Event Card, then tap it on the reader or pick it here: the "
                       "companion does what it says."), "take-items"),
    "discard": Help(N_("A player may never hold more than 7 Item Cards: discard (or play) the "
                    "extra ones."), "hand-limit"),
    "challenge": Help(N_("You are challenged to a Trainer Battle: accept it (a Poké Doll card "
                      "stops the fight)."), "battle"),
    "fight": Help(N_("Choose the Pokémon you fight with and up to two Attack Bonus cards; "
                  "Attack Strength + die roll + Attack Bonus = Battle total."), "battle"),
    "rival_card": Help(N_("You play the Pokémon Master: draw a Rival Card, keep it secret, "
                       "and name it on your phone (or tap its tag)."), "final-battle"),
    "prize": Help(N_("The winner of the battle takes Item Cards at random from the loser's "
                  "hand."), "battle-prize"),
    "offer": Help(N_("A trade is offered: accept to swap the two Pokémon, or decline. Starter "
                  "Pokémon cannot be traded."), "trade"),
    "forced_trade": Help(N_("The Trade Pokémon card: the trade must happen (a Poké Doll card "
                         "may stop it)."), "trade-card"),
    "trade_event": Help(N_("Trade Pokémon: give one of your Pokémon to another player and "
                        "take one of theirs (not a starter)."), "trade-card"),
    "lets_fight": Help(N_("Let's Fight!: challenge any other player to a Trainer Battle."),
                       "battle"),
    "revive": Help(N_("Pokémon Center: revive one knocked-out Pokémon, or take the Dice "
                   "Challenge (1 or 6 revives all of them)."), "revive-city"),
    "revive_card": Help(N_("Pokémon Center card: revive one of your knocked-out Pokémon."),
                        "revive-card"),
    "time_machine": Help(N_("A Time Machine card lets its holder make someone re-roll their "
                         "die; otherwise keep the dice as rolled."), "time-machine"),
}

MOVES: dict[str, str] = {
    "accept": N_("{player}'s answer"),
    "battle": N_("{player}'s challenge to a battle"),
    "catch": N_("{player}'s catch"),
    "challenge": N_("{player}'s Dice Challenge"),
    "decline": N_("{player}'s answer"),
    "discard": N_("{player}'s discard"),
    "draw": N_("{player}'s card"),
    "fight": N_("{player}'s fight"),
    "keep": N_("{player}'s keeping the dice"),
    "land": N_("{player}'s landing"),
    "poke_doll": N_("{player}'s Poké Doll"),
    "reveal": N_("{player}'s chip turned over"),
    "revive": N_("{player}'s revival"),
    "skip": N_("{player}'s pass"),
    "starter": N_("{player}'s starter"),
    "take": N_("{player}'s chip taken"),
    "time_machine": N_("{player}'s Time Machine"),
    "trade": N_("{player}'s trade"),
    "use": N_("{player}'s card played"),
}
"""Each command as a player names that move (``Rules.move_words``)."""

GLANCES: dict[str, tuple[str, ...]] = {
    "time_machine": (N_("Dice: {rolls}. A Time Machine?"),),
    "catch": (N_("Catch {pokemon}? {odds}"),),
    "draw_items": (N_("{player}: draw an Item Card."),),
    "prize": (N_("{player}: take Item Cards from {other}."),),
    "roll": (N_("{players}: roll one die."),),
    "fight": (N_("{players}: choose a Pokémon."),),
    "starter": (N_("Turn over a starter chip."),),
    "land": (N_("{player} rolled {n}: where did the mover land?"),),
}
"""Each prompt kind's forms on the OLED (``Rules.glance_forms``)."""
