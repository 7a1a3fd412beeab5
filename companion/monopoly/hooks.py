"""What an edition may provide: the declared hooks and policies, nothing else.

An edition composes the engine and the Monopoly family; it never overrides one of their
internals. It may define a method that the family or the engine also has only when that
method is listed here (``ENGINE_INTERFACE``, ``FAMILY_HOOKS``, or a ``refuse_<command>``), or
when it re-declares, with the decorator, a handler of a kind the data and the prompts name
(``DECLARABLE``: what a space kind, a card effect or a prompt kind does on its board). It
never re-declares a family ``@task``: the to-do list is the family's turn flow, and an
edition changes it through these hooks. ``tests/engine/test_edition_hooks.py`` lists every
method each edition defines that a base also has and fails on one this module does not allow.

Policies are plain class attributes (``dice_count``, ``order_dice``, ``dice_names``,
``jail_tries``, ``jail_exit_words``, ``jail_exit_say``, ``jail_exit_lands``, ``without``,
``quiet_kinds``, ``deck_policy``, ``short_payment``, ``board_fields``, ``cite_as``,
``never_cites``, ``ends_after``, ``live_prompts``, ``rent_cites``): an edition declares them,
the family reads them.
"""

from __future__ import annotations

from collections.abc import Mapping

ENGINE_INTERFACE: Mapping[str, str] = {
    "initial_state": "the state a new game starts from",
    "start": "the first tasks of a new game",
    "actions": "every legal command now",
    "view": "the JSON a front end shows",
    "setup_info": "what the setup form offers",
    "check": "the data checked when the edition loads",
    "citations": "the citation catalogue",
    "reading_topic": "a reading's topic in words",
    "interpret_tap": "what a tag tap means now",
    "tag_objects": "the objects that can carry a tag",
    "note_said": "keep an event's words in the edition's state (Master Trainer's last lines)",
    "roll_in_round": "a roll for the edition's own dice round (Master Trainer: a die each)",
    "refresh_prompt": "ask a standing prompt of ``live_prompts`` again (Pokémon's odds)",
    "story_counters": "what the game's story counts for each player",
    "end_cite": "the rule that ended a game whose log stored none",
}
"""The engine's edition interface (``companion.engine.rules.Rules``)."""

FAMILY_HOOKS: Mapping[str, str] = {
    # setup and the turn
    "edition_setup": "the edition's own starting values (typed ``EditionValues``)",
    "turn_prompt": "the turn prompt's text and roll label",
    "turn_actions": "extra things the player may do before rolling",
    "turn_rolled": "the turn's roll was just made (Mario: unclaimed rent is lost)",
    "before_move": "tasks between the roll and the move (Mario: Bowser moves)",
    "move_dice": "the dice that move the token",
    "rolls_out_of_jail": "whether a roll frees a player from Jail",
    "jail_exit_msg": "the line when a roll frees a player from Jail (Pokémon: a 6)",
    "jail_stay_msg": "the line when a roll does not free a player from Jail",
    "before_landing": "tasks before the space landed on is followed (Mario: meeting Bowser)",
    "on_turn_end": "a player's turn just ended",
    # spaces, money and deeds
    "price": "what a space costs",
    "rent": "the rent due and the rule that set it",
    "rent_claimed_later": "record a rent the owner must ask for instead of charging it",
    "may_take_space": "whether a player may take another space (Star Wars' markers)",
    "bank_payee": "where a payment to the Bank goes (the Free Parking pot house rule)",
    "after_buy": "a player just bought the space landed on (Pokémon: explore it)",
    "after_gain": "a player just gained a space",
    "after_auction": "an auction just closed",
    "after_bank_bankruptcy": "spaces just returned to the Bank by a bankruptcy",
    "hand_over_extras": "a bankrupt player's edition assets",
    "check_holds_extra": "a trade's edition assets are checked",
    "hand_over_extra": "a trade's edition assets change hands",
    "describe": "one side of a trade in words",
    "standing_actions": "edition actions open at any time (Mario: rent to ask for)",
    # the end and the page
    "board_marks": "words on spaces, pieces and lines on the board (Mario: Bowser, GAME OVER)",
    "ended": "the winners once the game is over",
    "end_cite": "the rule that ended the game",
    "final_ranking": "the winners when the banker ends the game early",
    "extra_view": "the edition's own values for the page",
    "panels": "the edition's own sections of the table, in its words",
}
"""The Monopoly family's hooks (``companion.monopoly``): each has a default there."""

DECLARABLE = frozenset({"space", "effect", "prompt"})
"""Declared handler kinds an edition may declare again for its own board and prompts."""


def allowed(name: str) -> bool:
    """Whether an edition may define method ``name`` that a base also defines."""
    return name in ENGINE_INTERFACE or name in FAMILY_HOOKS or name.startswith("refuse_")
