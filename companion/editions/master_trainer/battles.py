"""Trainer Battles and the Final Battle against a Pokémon Master (trades: :mod:`trades`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.editions.master_trainer.base import RIVAL_CARD, State, data_of
from companion.editions.master_trainer.cards import CardArgs
from companion.editions.master_trainer.state import Battle
from companion.editions.master_trainer.trades import TradeRules
from companion.editions.master_trainer.turns import LAND, chip_arg
from companion.engine.commands import Id, NoArgs, Small, Smalls, takes
from companion.engine.event_format import EventData, fact
from companion.engine.i18n import Msg, Msgs
from companion.engine.prompts import CommandPrompt
from companion.engine.registry import declare, task
from companion.engine.rules import Ctx, cites
from companion.engine.state import evolve
from companion.engine.types import IllegalCommand

CHALLENGE = CommandPrompt("challenge")
"""A Trainer Battle challenge: accept, or stop it with a Poké Doll."""

FIGHT = CommandPrompt("fight")
"""Send out a Pokémon with Attack Bonus cards."""

PRIZE = CommandPrompt("prize")
"""Name the Item Card taken from the loser's hand."""

LETS_FIGHT = CommandPrompt("lets_fight")
"""Let's Fight! card: challenge a player."""


def bonus_cards(raw: Any) -> list[str]:
    """Attack Bonus cards named as ``[2, 3]``, ``3``, ``"2,3"`` or ``["bonus_2"]``."""
    if raw in (None, "", []):
        return []
    if isinstance(raw, str):
        raw = [p for p in raw.replace(" ", ",").split(",") if p]
    if not isinstance(raw, list | tuple):
        raw = [raw]
    out = []
    for v in raw:
        text = str(v).lower().removeprefix("bonus_").removeprefix("bonus")
        if text not in ("1", "2", "3", "4", "5"):
            raise IllegalCommand(Msg("{card} is not an Attack Bonus card (1 to 5).", card=repr(v)))
        out.append(f"bonus_{text}")
    return out


@dataclass(frozen=True)
class BattleArgs:
    """Challenge the player on your space to a battle (or answer how)."""

    with_: Id | None = None
    """The player challenged (the argument ``with``)."""
    option: Small = None


@dataclass(frozen=True)
class FightArgs:
    """Send a chip into the battle, with Attack Bonus cards."""

    chip: Small = None
    bonus: Smalls = None
    """Attack Bonus cards played (at most the rulebook's two)."""


# -- Master Trainer's battles (applied by BattleRules' ``on_`` handlers) ------------------------
@fact("trainer_challenged")
class TrainerChallenged(EventData):
    """``challenger`` challenged ``defender`` to a Trainer Battle (``kind``: ``passing``,
    after passing their mover, or ``fight``, a Let's Fight! card)."""

    kind: str
    challenger: str
    defender: str


@fact("final_battle_begun")
class FinalBattleBegun(EventData):
    """``challenger`` reached Indigo Plateau: ``master`` plays the Pokémon Master with the
    secret Rival Card ``rival``."""

    challenger: str
    master: str
    rival: str


@fact("fighter_sent_out")
class FighterSentOut(EventData):
    """``player`` sent out ``chip`` with the secret Attack Bonus cards ``bonus``."""

    player: str
    chip: str
    bonus: list[str]


@fact("rival_card_shown")
class RivalCardShown(EventData):
    """The Pokémon Master showed the Rival Card."""


@fact("battle_finished")
class BattleFinished(EventData):
    """The battle is over (or was stopped by a Poké Doll)."""



class BattleRules(TradeRules):
    """``battle``, ``accept``, ``poke_doll`` and ``fight``."""

    def on_trainer_challenged(self, state: State, e: TrainerChallenged) -> State:
        return evolve(state, battle=Battle(e.kind, e.challenger, e.defender))

    def on_final_battle_begun(self, state: State, e: FinalBattleBegun) -> State:
        return evolve(state, battle=Battle("final", e.challenger, e.master, rival=e.rival))

    def on_fighter_sent_out(self, state: State, e: FighterSentOut) -> State:
        b = state.battle
        assert b is not None
        return evolve(state, battle=evolve(b, fighters={**b.fighters, e.player: e.chip},
                                           bonus={**b.bonus, e.player: tuple(e.bonus)}))

    def on_rival_card_shown(self, state: State, e: RivalCardShown) -> State:
        assert state.battle is not None
        return evolve(state, battle=evolve(state.battle, revealed=True))

    def on_battle_finished(self, state: State, e: BattleFinished) -> State:
        return evolve(state, battle=None)

    # -- who may be challenged ------------------------------------------------------------
    def battle_targets(self, state: State, pid: str) -> list[str]:
        """Players ``pid`` may challenge: both sides need a Pokémon able to fight."""
        if not self.able(state, pid):
            return []
        return [t.id for t in state.trainers if t.id != pid and self.able(state, t.id)]

    # -- challenging -----------------------------------------------------------------------
    @takes(BattleArgs)
    def cmd_battle(self, ctx: Ctx[State], actor: str, args: BattleArgs) -> None:
        """``battle <player>``: challenge a player to a Trainer Battle (after passing their
        mover, or with a Let's Fight! card)."""
        pid, other = actor, str(args.with_ or "")
        if other not in self.battle_targets(ctx.state, pid):
            raise IllegalCommand(Msg("A Trainer Battle needs a Pokémon able to fight on both "
                                     "sides (knocked-out Pokémon cannot fight)."))
        kind = "passing" if ctx.state.prompt and ctx.state.prompt.kind == LAND.kind else "fight"
        ctx.clear_prompt()
        name = self.pname(ctx.state, other)
        ctx.emit("trainer_challenged", Msg("{player} challenges {other} to a Trainer Battle.",
                                           player=self.pname(ctx.state, pid), other=name),
                 kind=kind, challenger=pid, defender=other)
        ctx.ask(CHALLENGE, (other,), Msg(
            "{player}: accept the challenge or stop the fight with a Poké Doll.", player=name)
            if "poke_doll" in ctx.state.trainer(other).items else
            Msg("{player}: accept the challenge.", player=name))

    @cites("trade")
    def cmd_accept(self, ctx: Ctx[State], actor: str, args: NoArgs) -> None:
        """``accept``: accept the challenge or the trade offered to you."""
        kind = ctx.state.prompt.kind if ctx.state.prompt else ""
        ctx.clear_prompt()
        if kind == CHALLENGE.kind:
            ctx.say(Msg("{player} accepts the challenge.",
                        player=self.pname(ctx.state, actor)))
            self.ask_fight(ctx)
            return
        offer = ctx.state.offer
        assert offer is not None
        if offer.items:
            ctx.emit("items_given", Msg("{player} also gets the Item Cards offered.",
                                        player=self.pname(ctx.state, offer.to)),
                     **{"from": offer.by, "to": offer.to},
                     cards=list(offer.items))
        ctx.emit("traded", Msg("Trade: {player} gets {pokemon}, {other} gets {theirs}. Both "
                               "movers share the space and the turn ends.",
                               player=self.pname(ctx.state, offer.by),
                               pokemon=self.chip(ctx.state, offer.take).name,
                               other=self.pname(ctx.state, offer.to),
                               theirs=self.chip(ctx.state, offer.give).name),
                 a=offer.by, b=offer.to, give=offer.give, take=offer.take)
        ctx.emit("trade_offer_closed")
        self.end_turn(ctx)

    def cmd_poke_doll(self, ctx: Ctx[State], actor: str, args: NoArgs) -> None:
        """``poke_doll``: play a Poké Doll to stop a battle challenge or a forced trade."""
        kind = ctx.state.prompt.kind if ctx.state.prompt else ""
        pid = actor
        name = self.pname(ctx.state, pid)
        self.return_items(ctx, pid, ["poke_doll"],
                          Msg("{player} plays a Poké Doll and stops the Trainer Battle.",
                              player=name) if kind == CHALLENGE.kind else
                          Msg("{player} plays a Poké Doll and stops the forced trade.",
                              player=name))
        ctx.clear_prompt()
        battle = ctx.state.battle
        ctx.emit("battle_finished")
        ctx.emit("trade_offer_closed")
        if kind == CHALLENGE.kind and battle is not None and battle.kind == "passing":
            self.back_to_landing(ctx)
        else:
            self.end_turn(ctx)

    # -- fighting -------------------------------------------------------------------------
    def fight_waiting(self, state: State) -> list[str]:
        b = state.battle
        assert b is not None
        sides = [b.challenger] if b.kind == "final" else [b.challenger, b.defender]
        return [p for p in sides if p not in b.fighters]

    def ask_fight(self, ctx: Ctx[State]) -> None:
        waiting = self.fight_waiting(ctx.state)
        names = [self.pname(ctx.state, p) for p in waiting]
        ctx.ask(FIGHT, waiting, Msg("{players}: choose a Pokémon and up to two Attack Bonus "
                                      "cards (they stay secret until the dice are rolled).",
                                      players=names))

    @takes(FightArgs)
    def cmd_fight(self, ctx: Ctx[State], actor: str, args: FightArgs) -> None:
        """``fight <chip> [bonus=2,3]``: your Pokémon for the battle and up to two Attack Bonus
        cards, kept secret until after the roll."""
        state, pid = ctx.state, actor
        chip = chip_arg(args.chip, data_of(state))
        t = state.trainer(pid)
        if chip not in t.team:
            raise IllegalCommand(Msg("{pokemon} is not in your team.",
                                     pokemon=self.chip(state, chip).name))
        if chip in t.knocked_out:
            raise IllegalCommand(Msg("A knocked-out Pokémon cannot fight until it is revived."))
        cards = bonus_cards(args.bonus)
        if len(cards) > data_of(state).limits["max_attack_bonus"]:
            raise IllegalCommand(Msg("At most two Attack Bonus cards can be used per battle."))
        hand = list(t.items)
        for card in cards:
            if card not in hand:
                raise IllegalCommand(Msg("You hold no {card} card.",
                                         card=self.item_name(state, card)))
            hand.remove(card)
        battle = state.battle
        assert battle is not None
        n = len(cards)
        ctx.emit("fighter_sent_out",
                 Msgs("{player} sends out {pokemon} with {n} secret Attack Bonus card.",
                      "{player} sends out {pokemon} with {n} secret Attack Bonus cards.", n,
                      player=self.pname(state, pid), pokemon=self.chip(state, chip).name),
                 player=pid, chip=chip, bonus=list(cards))
        ctx.clear_prompt()
        if self.fight_waiting(ctx.state):
            self.ask_fight(ctx)
        elif battle.kind == "final":
            self.reveal_rival(ctx)
        else:
            self.start_dice(ctx, "battle", [battle.challenger, battle.defender], "battle_rolled")

    def side_total(self, state: State, pid: str, roll: int) -> tuple[int, Msg]:
        """Attack Strength (with Evolution Bonus) + die + Attack Bonus cards, and the sum
        spelled out."""
        b = state.battle
        assert b is not None
        chip = b.fighters[pid]
        c = self.chip(state, chip)
        strength = self.strength(state, pid, chip)
        cards = [int(x.removeprefix("bonus_")) for x in b.bonus.get(pid, ())]
        parts: list[str] = [f"{c.name} {c.strength}"]
        if strength != c.strength:
            parts.append(Msg("evolution bonus {n}", n=strength - c.strength))
        parts.append(Msg("die {n}", n=roll))
        parts += [Msg("Attack Bonus {n}", n=v) for v in cards]
        total = strength + roll + sum(cards)
        summed = parts[-1]
        for part in reversed(parts[:-1]):
            summed = Msg("{first} + {rest}", first=part, rest=summed)
        return total, Msg("{player}: {sum} = {total}", player=self.pname(state, pid), sum=summed,
                          total=total)

    @task("battle_rolled")
    def task_battle_rolled(self, ctx: Ctx[State], rolls: dict[str, int]) -> None:
        b = ctx.state.battle
        assert b is not None
        a_total, a_text = self.side_total(ctx.state, b.challenger, rolls[b.challenger])
        d_total, d_text = self.side_total(ctx.state, b.defender, rolls[b.defender])
        if a_total == d_total:
            ctx.say(Msg("{first}; {second}. A tie: both players roll again.", first=a_text,
                        second=d_text))
            self.start_dice(ctx, "battle", [b.challenger, b.defender], "battle_rolled")
            return
        winner, loser = (b.challenger, b.defender) if a_total > d_total else (
            b.defender, b.challenger)
        ctx.say(Msg("{first}; {second}. {player} wins the battle.", first=a_text, second=d_text,
                    player=self.pname(ctx.state, winner)))
        self.use_bonus_cards(ctx)
        self.take_prize(ctx, winner, loser)
        self.knock_out(ctx, loser, b.fighters[loser], "knock-out")
        ctx.emit("battle_finished")
        self.end_turn(ctx)

    def use_bonus_cards(self, ctx: Ctx[State]) -> None:
        b = ctx.state.battle
        assert b is not None
        for pid, cards in b.bonus.items():
            if cards:
                self.return_items(ctx, pid, list(cards),
                                  Msg("{player}'s Attack Bonus cards are used and go under the "
                                      "Item deck.", player=self.pname(ctx.state, pid)))

    @cites("battle-prize")
    def take_prize(self, ctx: Ctx[State], winner: str, loser: str) -> None:
        """The winner takes two Item Cards at random from the loser, the rest from the deck.
        With the real decks the winner picks them from the loser's hand and names them."""
        hand = list(ctx.state.trainer(loser).items)
        if hand and self.physical_decks(ctx.state):
            n = min(2, len(hand))
            self.ask_prize(ctx, winner, loser, n, 2 - n)
            return
        picks = []
        for _ in range(min(2, len(hand))):
            picks.append(hand.pop(ctx.draw(len(hand))))
        w, lo = self.pname(ctx.state, winner), self.pname(ctx.state, loser)
        if picks:
            ctx.emit("items_taken", Msgs("{player} takes {n} Item Card(s) at random from {other}.",
                                         "{player} takes {n} Item Card(s) at random from "
                                         "{other}.", len(picks), player=w, other=lo),
                     winner=winner, loser=loser, cards=picks)
        if len(picks) < 2:
            self.draw_items(ctx, winner, 2 - len(picks),
                            Msg("{player} had fewer than two Item Cards", player=lo),
                            "battle-prize")

    def ask_prize(self, ctx: Ctx[State], winner: str, loser: str, count: int,
                  from_deck: int) -> None:
        w, lo = self.pname(ctx.state, winner), self.pname(ctx.state, loser)
        text = Msg("{player} takes an Item Card at random from {other}'s hand (face down): tap "
                   "each or pick it.", player=w, other=lo) if count == 1 else \
            Msgs("{player} takes {n} Item Card at random from {other}'s hand (face down): tap "
                 "each or pick it.", "{player} takes {n} Item Cards at random from {other}'s "
                 "hand (face down): tap each or pick it.", count, player=w, other=lo)
        ctx.ask(PRIZE, (winner,), text, loser=loser, count=count, deck=from_deck)

    def why_not_prize(self, state: State, card: str) -> str | None:
        prompt = state.prompt
        assert prompt is not None
        names = data_of(state).item_names
        if card not in names:
            return Msg("There is no Item Card {card} in this game.", card=repr(card))
        loser = str(prompt.data["loser"])
        if card not in state.trainer(loser).items:
            return Msg("{player} holds no {card} card.", player=self.pname(state, loser),
                       card=names[card])
        return None

    def refuse_draw(self, state: State, actor: str, args: CardArgs) -> str | None:
        if state.prompt is not None and state.prompt.kind == PRIZE.kind:
            return self.why_not_prize(state, str(args.card))
        return super().refuse_draw(state, actor, args)

    @takes(CardArgs)
    def cmd_draw(self, ctx: Ctx[State], actor: str, args: CardArgs) -> None:
        """``draw card=<kind>``: the card drawn from a real pile (Event or Item Card), or the
        Item Card a battle's winner took from the loser's hand."""
        prompt = ctx.state.prompt
        if prompt is None or prompt.kind != PRIZE.kind:
            super().cmd_draw(ctx, actor, args)
            return
        winner, loser = prompt.to[0], str(prompt.data["loser"])
        count, from_deck = int(prompt.data["count"]), int(prompt.data["deck"])
        ctx.clear_prompt()
        ctx.emit("items_taken", Msg("{player} takes an Item Card from {other}.",
                                    player=self.pname(ctx.state, winner),
                                    other=self.pname(ctx.state, loser)), winner=winner, loser=loser,
                 cards=[str(args.card)], cite="battle-prize")
        if count > 1:
            self.ask_prize(ctx, winner, loser, count - 1, from_deck)
        elif from_deck:
            self.draw_items(ctx, winner, from_deck,
                            Msg("{player} had fewer than two Item Cards",
                                player=self.pname(ctx.state, loser)), "battle-prize")

    def knock_out(self, ctx: Ctx[State], pid: str, chip: str, cite: str) -> None:
        ctx.emit("knocked_out", Msg("{player}'s {pokemon} is knocked out: it cannot fight or "
                                    "count Power Points until revived.",
                                    player=self.pname(ctx.state, pid),
                                    pokemon=self.chip(ctx.state, chip).name),
                 player=pid, chip=chip, cite=cite)

    # -- the Final Battle -----------------------------------------------------------------
    def enter_final(self, ctx: Ctx[State]) -> None:
        pid = ctx.state.current
        assert pid is not None
        others = [p for p in ctx.state.order if p != pid]
        if len(others) == 1:
            self.set_master(ctx, others[0], Msg("{player} (the other player) draws a Rival Card "
                                                "and looks at it secretly.",
                                                player=self.pname(ctx.state, others[0])))
            return
        ctx.say(Msg("ENTER Final Battle! The other players roll: the highest plays the Pokémon "
                    "Master."))
        self.start_dice(ctx, "rival", others, "rival_rolled")

    @task("rival_rolled")
    def task_rival_rolled(self, ctx: Ctx[State], rolls: dict[str, int]) -> None:
        best = max(rolls.values())
        top = [p for p, v in rolls.items() if v == best]
        if len(top) > 1:
            ctx.say(Msg("Tie for the highest roll: those players roll again."))
            self.start_dice(ctx, "rival", top, "rival_rolled")
            return
        self.set_master(ctx, top[0], Msg("{player} (the highest roll) draws a Rival Card and "
                                         "looks at it secretly.",
                                         player=self.pname(ctx.state, top[0])))

    def set_master(self, ctx: Ctx[State], master: str, say: str) -> None:
        pid = ctx.state.current
        assert pid is not None
        if not self.able(ctx.state, pid):
            ctx.emit("mover_placed",
                     Msg("{player} has no Pokémon able to fight the Final Battle and goes back "
                         "to Cinnabar Island.", player=self.pname(ctx.state, pid)),
                     player=pid, place="cinnabar", on_plateau=False, cite="final-lose")
            self.end_turn(ctx)
            return
        rivals = list(data_of(ctx.state).rivals)
        if self.physical_decks(ctx.state):  # drawn from the real pile: the Master names it
            ctx.ask(RIVAL_CARD, (master,), Msg(
                "{player}: draw a Rival Card, keep it secret, and name it on your phone or tap "
                "its tag.", player=self.pname(ctx.state, master)), cards=rivals, say=say)
            return
        rival = rivals[ctx.draw(len(rivals))]
        ctx.emit("final_battle_begun", say, challenger=pid, master=master, rival=rival)
        self.ask_fight(ctx)

    def reveal_rival(self, ctx: Ctx[State]) -> None:
        b = ctx.state.battle
        assert b is not None
        r = data_of(ctx.state).rivals[b.rival]
        name = self.pname(ctx.state, b.defender)
        ctx.emit("rival_card_shown", Msg(
            "{player} shows the Rival Card: {rival} with {pokemon}, Attack Strength {n}.",
            player=name, rival=r.name, pokemon=r.pokemon, n=r.strength) if r.verified else Msg(
            "{player} shows the Rival Card: {rival} with {pokemon}, Attack Strength {n} (values "
            "not verified from the printed card).", player=name, rival=r.name,
            pokemon=r.pokemon, n=r.strength))
        self.start_dice(ctx, "final", [b.challenger, b.defender], "final_rolled")

    def master_total(self, state: State, roll: int) -> tuple[int, Msg]:
        b = state.battle
        assert b is not None
        r = data_of(state).rivals[b.rival]
        bonus = r.bonus[roll - 1]
        total = r.strength + roll + bonus
        return total, Msg("{rival}: {strength} + die {roll} + Attack Bonus {bonus} = {total}",
                          rival=r.name, strength=r.strength, roll=roll, bonus=bonus, total=total)

    @task("final_rolled")
    def task_final_rolled(self, ctx: Ctx[State], rolls: dict[str, int]) -> None:
        state = ctx.state
        b = state.battle
        assert b is not None
        p_total, p_text = self.side_total(state, b.challenger, rolls[b.challenger])
        m_total, m_text = self.master_total(state, rolls[b.defender])
        if p_total == m_total:
            ctx.say(Msg("{first}; {second}. A tie: both roll again.", first=p_text,
                        second=m_text))
            self.start_dice(ctx, "final", [b.challenger, b.defender], "final_rolled")
            return
        self.use_bonus_cards(ctx)
        name = self.pname(state, b.challenger)
        if p_total > m_total:
            ctx.emit("finished", Msg("{first}; {second}. {player} beats the Pokémon Master and "
                                     "is the new Master Trainer!", first=p_text, second=m_text,
                                     player=name), winners=[b.challenger],
                     reason=Msg("{player} won the Final Battle.", player=name), cite="final-win")
            return
        ctx.say(Msg("{first}; {second}. The Pokémon Master wins.", first=p_text, second=m_text))
        self.knock_out(ctx, b.challenger, b.fighters[b.challenger], "final-lose")
        ctx.emit("mover_placed", Msg("{player} goes back to Cinnabar Island.", player=name),
                 player=b.challenger,
                 place="cinnabar", on_plateau=False, cite="final-lose")
        self.draw_items(ctx, b.defender, data_of(state).limits["master_reward_items"],
                        Msg("The Pokémon Master's reward"), "final-reward")
        ctx.emit("battle_finished", Msg("The Rival Cards are shuffled back onto Indigo "
                                        "Plateau."))
        self.end_turn(ctx)

    # -- the Let's Fight! card -------------------------------------------------------------
    @declare("event_card", "lets_fight")
    def event_lets_fight(self, ctx: Ctx[State], pid: str) -> None:
        if not self.battle_targets(ctx.state, pid):
            ctx.say(Msg("Let's Fight!: nobody can battle now (knocked-out Pokémon cannot fight); "
                        "the card is discarded."))
            self.end_turn(ctx)
            return
        ctx.ask(LETS_FIGHT, (pid,), Msg("Let's Fight!: challenge any other player to a "
                                          "Trainer Battle."))
