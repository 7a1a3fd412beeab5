"""First-game mode: what each question the game asks means, in the rulebook's terms, with the
rule it comes from (docs/history.md, "Rules at hand").

One explanation per prompt kind an edition asks (``Prompt.kind``: ``"buy"``, ``"teammate"``,
...): the Monopoly family's shared ones, each edition's own over them. ``cite`` is a rule id
in the edition's citation catalogue (seeds/<edition>.toml ``[citations]``): the page shows
the rulebook's section and words beside the explanation. A kind whose rule the edition never
applies (Monopolino has no auctions: ``never_cites``) is never asked and needs none.
``tests/story/test_prompt_help.py`` fails when an edition asks a kind explained nowhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, NamedTuple

from companion.engine.editions import find_edition
from companion.engine.i18n import N_, Msg, wire


class Help(NamedTuple):
    text: str
    """What the choice means, for a first game (marked for the catalogue: the page reads it
    in its language)."""
    cite: str
    """The rule it comes from (an id in the edition's citation catalogue)."""


FAMILY: dict[str, Help] = {
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

EDITIONS: dict[str, dict[str, Help]] = {
    "mario": {
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
    },
    "pokemon": {
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
    },
    "starwars": {
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
    },
    "monopolino": {
        "turn": Help(N_("Your turn: roll the die and move your token clockwise that many "
                     "spaces."), "move"),
        "draw": Help(N_("A RISK space: draw the top RISK card, then tap it on the reader or pick "
                     "it here: the companion follows its instructions."), "risk"),
        "station": Help(N_("A station: roll the die again and move on that many spaces."),
                        "station"),
        "booth_card": Help(N_("A BOOTH card: without moving, you may place one of your booths on "
                           "a space of the colour shown on the card."), "booth-card"),
    },
    "master-trainer": {
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
    },
}


def _family(edition: str) -> bool:
    from companion.monopoly.rules import MonopolyRules

    return isinstance(find_edition(edition), MonopolyRules)


def explanation(edition: str, kind: str) -> Help | None:
    """The explanation of prompt ``kind`` in ``edition`` (None: none is written)."""
    found = EDITIONS.get(edition, {}).get(kind)
    if found is None and _family(edition):
        found = FAMILY.get(kind)
    return found


@cache
def explanations(edition: str) -> dict[str, dict[str, Any]]:
    """Every explanation for ``edition``, with its rule resolved for players: ``{kind:
    {text, cite, rule}}`` (``rule``: the one-line citation, the rulebook's section and
    words). A kind whose rule this edition never applies is left out: it is never asked."""
    rules = find_edition(edition)
    never: Mapping[str, str] = getattr(rules, "never_cites", {})
    kinds = set(EDITIONS.get(edition, {})) | (set(FAMILY) if _family(edition) else set())
    out = {}
    for kind in sorted(kinds):
        found = explanation(edition, kind)
        if found is None or found.cite in never:
            continue
        cited = rules.citation(found.cite)
        out[kind] = {"text": found.text, "cite": found.cite,
                     "rule": "" if cited is None else wire(quoted(cited))}
    return out


def quoted(cited: Mapping[str, str]) -> str:
    """The one-line rule of a citation (``Rules.citation``): the rulebook's words stay the
    exact English quotation they are (another language says that it quotes the English
    rulebook); the words around them are a message."""
    if "quote" not in cited or "reading" in cited or "house" in cited:
        return cited["text"]  # a message too (Rules.citation)
    return Msg("{game} rulebook, {section}: “{quote}”", game=cited["edition"],
               section=cited.get("section", ""), quote=cited["quote"])
