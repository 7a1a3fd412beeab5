"""The Monopoly family's commands as a player names that move ("Anna's purchase"), each a
message of its own (``Rules.move_words``; companion/service/game_record.py says the move an
undo takes back with it)."""

from __future__ import annotations

from companion.engine.i18n import N_

FAMILY_MOVES: dict[str, str] = {
    "accept_trade": N_("{player}'s yes to a trade"),
    "auction": N_("{player}'s auction"),
    "bid": N_("{player}'s bid"),
    "buy": N_("{player}'s purchase"),
    "cancel_trade": N_("{player}'s withdrawn trade"),
    "close_auction": N_("{player}'s closing of the auction"),
    "declare_bankruptcy": N_("{player}'s bankruptcy"),
    "decline_trade": N_("{player}'s no to a trade"),
    "draw": N_("{player}'s card"),
    "pass": N_("{player}'s pass"),
    "pay_jail_fine": N_("{player}'s Jail fine"),
    "propose_trade": N_("{player}'s trade offer"),
    "sell_to_bank": N_("{player}'s sale to the Bank"),
    "transfer": N_("{player}'s transfer"),
    "use_jail_card": N_("{player}'s Get Out of Jail Free card"),
}
