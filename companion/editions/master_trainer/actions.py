"""Every legal command now, as generic actions a phone page, the OLED buttons or a script
can offer without knowing this edition."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.editions.master_trainer.base import DRAW_ITEMS, RIVAL_CARD, State, data_of
from companion.editions.master_trainer.battles import (
    CHALLENGE,
    FIGHT,
    LETS_FIGHT,
    PRIZE,
    BattleRules,
)
from companion.editions.master_trainer.cards import DRAW_EVENT, REVIVE_CARD, TAKE
from companion.editions.master_trainer.dice import DICE_ROLL, MOVE_ROLL, TIME_MACHINE
from companion.editions.master_trainer.landing import CATCH, REVEAL, REVIVE
from companion.editions.master_trainer.spaces import Space
from companion.editions.master_trainer.trades import FORCED_TRADE, OFFER, TRADE_EVENT
from companion.editions.master_trainer.turns import DISCARD, LAND, STARTER
from companion.engine.i18n import N_, Msg
from companion.engine.registry import handler, prompt_kind
from companion.engine.types import Action


def choice(arg: str, options: list[tuple[str, str]], optional: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "kind": "choice", "arg": arg,
        "options": [{"value": v, "label": label} for v, label in options],
    }
    if optional:
        out["optional"] = True
    return out


_space_options: dict[int, tuple[tuple[Space, ...], dict[str, Any]]] = {}
"""The ``land`` input per tuple of spaces (``land_options``' three constant tuples), by
identity: hashing the spaces' fields cost more than building the options."""


def space_choice(spaces: tuple[Space, ...]) -> dict[str, Any]:
    """The ``land`` input for these spaces (its options built once per tuple of spaces; a
    fresh outer dict each time)."""
    hit = _space_options.get(id(spaces))
    if hit is None or hit[0] is not spaces:
        if len(_space_options) > 16:  # only ever three in play; never grows with other tuples
            _space_options.clear()
        hit = _space_options[id(spaces)] = (spaces, choice("space", [(s.key, s.label)
                                                                     for s in spaces]))
    return dict(hit[1])


class ActionRules(BattleRules):
    """``actions(state)``: the legal commands, prompt by prompt."""

    def chip_options(self, state: State, chips: list[str]) -> list[tuple[str, str]]:
        return [(c, self.chip(state, c).label) for c in chips]

    def player_options(self, state: State, pids: list[str]) -> list[tuple[str, str]]:
        return [(p, self.pname(state, p)) for p in pids]

    def actions(self, state: State) -> list[Action]:
        prompt = state.prompt
        if state.finished:
            return []
        method = handler(self, "prompt", prompt.kind) if prompt is not None else None
        return [*(method(state) if method else ()), self.end_game_action()]

    @prompt_kind(MOVE_ROLL)
    @prompt_kind(DICE_ROLL)
    @prompt_kind(TIME_MACHINE)
    def actions_dice_round(self, state: State) -> list[Action]:
        """A dice round's dice (or the Time Machine); before the move's roll, Potion and Fly."""
        out = self.dice_actions(state)
        if state.dice is not None and state.dice.purpose == "move" and not state.dice.window:
            out += self.item_actions(state, fly=True)
        return out

    def item_actions(self, state: State, fly: bool = False) -> list[Action]:
        """Potion (and before the move roll, Fly) for the player whose turn it is."""
        pid = state.current
        assert pid is not None
        t = state.trainer(pid)
        out = []
        if "potion" in t.items and t.knocked_out:
            out.append(Action(pid, "use", Msg("Potion: revive a knocked-out Pokémon"),
                              {"item": "potion"},
                              choice("chip", self.chip_options(state, list(t.knocked_out)))))
        if fly and "fly" in t.items and self.may_fly(state, pid):
            out.append(Action(pid, "use", Msg("Fly to any city or town"), {"item": "fly"}))
        return out

    @prompt_kind(DRAW_EVENT)
    def actions_draw_event(self, state: State) -> list[Action]:
        return self.pick_card_actions(state, lambda card: Msg("Event Card: {card}", card=card),
                                      data_of(state).event_names)

    @prompt_kind(RIVAL_CARD)
    def actions_rival_card(self, state: State) -> list[Action]:
        """The Rival Cards, one pick each, for the Pokémon Master's phone only."""
        return self.pick_card_actions(state, lambda card: Msg("Rival Card: {card}", card=card),
                                      {k: r.name for k, r in data_of(state).rivals.items()})

    @prompt_kind(DRAW_ITEMS)
    def actions_draw_items(self, state: State) -> list[Action]:
        return self.pick_card_actions(state, lambda card: Msg("Item Card: {card}", card=card),
                                      data_of(state).item_names)

    def pick_card_actions(self, state: State, label: Callable[[str], str],
                          names: Mapping[str, str]) -> list[Action]:
        """One ``draw card=<kind>`` per card the draw prompt offers, named as printed."""
        assert state.prompt is not None
        return [Action(state.prompt.to[0], "draw", label(names[k]), {"card": k})
                for k in state.prompt.data["cards"]]

    @prompt_kind(PRIZE)
    def actions_prize(self, state: State) -> list[Action]:
        """The kinds of Item Card in the loser's real hand, one button each: the winner took
        the card face down from that hand and now holds it, so nothing else can be taken."""
        assert state.prompt is not None
        loser = str(state.prompt.data["loser"])
        hand = state.trainer(loser).items
        name = self.pname(state, loser)
        return [Action(state.prompt.to[0], "draw",
                       Msg("Taken from {player}: {card}", player=name, card=printed), {"card": k})
                for k, printed in data_of(state).item_names.items() if k in hand]

    @prompt_kind(STARTER)
    def actions_starter(self, state: State) -> list[Action]:
        assert state.prompt is not None
        opts = self.chip_options(state, self.free_starters(state))
        return [
            Action(p, "starter", Msg("Turn over a starter"), {},
                   choice("chip", opts, optional=True))
            for p in state.prompt.to
        ]

    @prompt_kind(LAND)
    def actions_land(self, state: State) -> list[Action]:
        pid = state.current
        assert pid is not None
        out = [Action(pid, "land", Msg("Say where you landed"), {},
                      space_choice(self.allowed_spaces(state)))]
        if state.passed:
            targets = self.battle_targets(state, pid)
            if targets:
                out.append(Action(pid, "battle", Msg("Stop and challenge a trainer you passed"), {},
                                  choice("with", self.player_options(state, targets))))
            out += self.trade_actions(state, pid,
                                      Msg("Stop and offer a trade to a trainer you passed"))
        return out + self.item_actions(state)

    def trade_actions(self, state: State, pid: str, label: str) -> list[Action]:
        targets = self.trade_targets(state, pid)
        if not targets:
            return []
        form = {
            "kind": "trade",
            "with": [p for p, _ in self.player_options(state, targets)],
            "give": self.tradeable(state, pid),
            "take": {p: self.tradeable(state, p) for p in targets},
            "items": sorted(state.trainer(pid).items) if state.prompt and (
                state.prompt.kind == LAND.kind) else [],
        }
        return [Action(pid, "trade", label, {}, form)]

    @prompt_kind(REVEAL)
    def actions_reveal(self, state: State) -> list[Action]:
        pid = state.current
        assert pid is not None
        up, down = self.reveal_candidates(state)
        opts = self.chip_options(state, up + down)
        return [
            Action(pid, "reveal", Msg("Name the chip you turned over"), {},
                   choice("chip", opts, optional=bool(down))),
            Action(pid, "skip", Msg("The space is empty / leave it")),
        ]

    @prompt_kind(CATCH)
    def actions_catch(self, state: State) -> list[Action]:
        pid = state.current
        assert pid is not None
        ask = choice("ball", self.catch_choices(state))
        # the roll that follows, so a phone asks the ball and the die in one step (#29 item 17),
        # in this edition's words (message ids the page renders: web/static/app.js ballAndRoll)
        ask["roll"] = {"kind": "dice", "count": 1, "optional": state.setup.dice == "digital",
                       "typed": N_("{action}: roll the die, enter it, then tap the ball you play"),
                       "rolled": N_("{action}: tap the ball you play; the companion rolls"),
                       "missing": N_("Enter the die you rolled (1 to 6), then tap the ball.")}
        return [
            Action(pid, "catch", Msg("Try to catch it"), {}, ask),
            Action(pid, "skip", Msg("Leave it")),
        ]

    @prompt_kind(TAKE)
    def actions_take(self, state: State) -> list[Action]:
        pid = state.current
        assert pid is not None
        chips = self.chance_candidates(state)
        down = any(c not in state.face_up for c in chips)
        return [Action(pid, "take", Msg("Take a chip (Chance)"), {},
                       choice("chip", self.chip_options(state, chips), optional=down))]

    @prompt_kind(REVIVE)
    def actions_revive(self, state: State) -> list[Action]:
        pid = state.current
        assert pid is not None
        out = list(state.trainer(pid).knocked_out)
        return [
            Action(pid, "revive", Msg("Revive one Pokémon"), {},
                   choice("chip", self.chip_options(state, out))),
            Action(pid, "challenge", Msg("Dice Challenge: 1 or 6 revives all")),
        ]

    @prompt_kind(REVIVE_CARD)
    def actions_revive_card(self, state: State) -> list[Action]:
        pid = state.current
        assert pid is not None
        out = list(state.trainer(pid).knocked_out)
        return [Action(pid, "revive", Msg("Revive one Pokémon"), {},
                       choice("chip", self.chip_options(state, out)))]

    @prompt_kind(TRADE_EVENT)
    def actions_trade_event(self, state: State) -> list[Action]:
        pid = state.current
        assert pid is not None
        return self.trade_actions(state, pid, Msg("Trade Pokémon: choose the trade"))

    @prompt_kind(LETS_FIGHT)
    def actions_lets_fight(self, state: State) -> list[Action]:
        pid = state.current
        assert pid is not None
        targets = self.battle_targets(state, pid)
        return [Action(pid, "battle", Msg("Challenge a player"), {},
                       choice("with", self.player_options(state, targets)))]

    def doll_actions(self, state: State, pid: str) -> list[Action]:
        if "poke_doll" in state.trainer(pid).items:
            return [Action(pid, "poke_doll", Msg("Play a Poké Doll to stop it"))]
        return []

    @prompt_kind(CHALLENGE)
    def actions_challenge(self, state: State) -> list[Action]:
        assert state.prompt is not None
        pid = state.prompt.to[0]
        return [Action(pid, "accept", Msg("Accept the battle")), *self.doll_actions(state, pid)]

    @prompt_kind(FORCED_TRADE)
    def actions_forced_trade(self, state: State) -> list[Action]:
        assert state.prompt is not None
        pid = state.prompt.to[0]
        return [Action(pid, "accept", Msg("Make the trade")), *self.doll_actions(state, pid)]

    @prompt_kind(OFFER)
    def actions_offer(self, state: State) -> list[Action]:
        assert state.prompt is not None
        pid = state.prompt.to[0]
        return [Action(pid, "accept", Msg("Accept the trade")),
                Action(pid, "decline", Msg("Decline"))]

    @prompt_kind(FIGHT)
    def actions_fight(self, state: State) -> list[Action]:
        assert state.prompt is not None
        out = []
        for pid in state.prompt.to:
            bonus = sorted(c for c in state.trainer(pid).items if c.startswith("bonus_"))
            form = choice("chip", self.chip_options(state, self.able(state, pid)))
            form["bonus"] = {"max": data_of(state).limits["max_attack_bonus"], "cards": bonus,
                             "names": {c: self.item_name(state, c) for c in bonus},
                             "legend": N_("Attack Bonus cards (up to {n})")}  # n: max
            out.append(Action(pid, "fight", Msg("Choose your Pokémon (and Attack Bonus cards)"),
                              {}, form))
        if state.current in state.prompt.to:  # a Potion first, on the player's own turn
            out += self.item_actions(state)
        return out

    @prompt_kind(DISCARD)
    def actions_discard(self, state: State) -> list[Action]:
        pid = state.current
        assert pid is not None
        held = sorted(set(state.trainer(pid).items))
        opts = [(c, self.item_name(state, c)) for c in held]
        return [Action(pid, "discard", Msg("Discard an Item Card"), {}, choice("item", opts)),
                *self.item_actions(state)]
