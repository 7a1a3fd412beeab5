"""Battling a rival on their location instead of exploring.

Each side rolls the numbered die and adds 1 per Pokémon held (the partner included), then
may play kept Challenge cards (``{do = "keep", use = "battle", bonus = n}``). The higher total
wins, a tie goes to the owner. The challenger winning pays nothing and takes the Location card
unless the owner holds the whole colour set; the owner winning is paid the battle fee. The turn
ends after a battle.
"""

from __future__ import annotations

from companion.editions.pokemon import data
from companion.editions.pokemon.catching import EXPLORE, with_values
from companion.engine.commands import NoArgs
from companion.engine.context import Ctx, cites
from companion.engine.event_format import EventData, fact
from companion.engine.i18n import Msg
from companion.engine.prompts import ChoicePrompt, RollPrompt
from companion.engine.registry import task
from companion.engine.state import Task
from companion.monopoly.rules import MonopolyRules
from companion.monopoly.state import MonopolyState

C = Ctx[MonopolyState]

BATTLE = RollPrompt("battle", then="battle_rolled")
"""Each side rolls the die for the battle."""

BATTLE_CARD = ChoicePrompt("battle_card", then="battle_card")
"""Play a kept Challenge card in the battle, or not."""


# -- the events of a battle (applied by the ``on_`` handlers below) ----------------------------
@fact("battle_begun")
class BattleBegun(EventData):
    """``challenger`` battles ``owner`` for the location at ``space``."""

    challenger: str
    owner: str
    space: int


@fact("battle_die_counted")
class BattleDieCounted(EventData):
    """``player`` rolled ``value`` for the battle."""

    player: str
    value: int


@fact("challenge_card_played")
class ChallengeCardPlayed(EventData):
    """``player`` played Challenge card ``card`` in the battle: ``bonus`` more."""

    player: str
    card: str
    bonus: int


@fact("battle_ended")
class BattleEnded(EventData):
    """The battle is over (its result follows: a deed taken or a fee paid)."""


class PokemonBattles(MonopolyRules):
    """The battle between a challenger and a location's owner. Mixed into PokemonRules."""

    def is_battle_card(self, state: MonopolyState, card_id: str) -> bool:
        return state.b.card(card_id).effect.get("use") == "battle"

    def battle_cards(self, state: MonopolyState, pid: str) -> list[str]:
        return [c for c in state.player(pid).cards if self.is_battle_card(state, c)]

    def on_battle_begun(self, state: MonopolyState, e: BattleBegun) -> MonopolyState:
        battle: data.Battle = {"challenger": e.challenger, "owner": e.owner, "space": e.space,
                               "rolls": {}, "bonus": {e.challenger: 0, e.owner: 0}}
        return with_values(state, battle=battle)

    def on_battle_die_counted(self, state: MonopolyState, e: BattleDieCounted) -> MonopolyState:
        b = data.battle(state)
        return with_values(state, battle={**b, "rolls": {**b["rolls"], e.player: e.value}})

    def on_challenge_card_played(self, state: MonopolyState,
                                 e: ChallengeCardPlayed) -> MonopolyState:
        b = data.battle(state)
        bonus = {**b["bonus"], e.player: b["bonus"][e.player] + e.bonus}
        return with_values(state, battle={**b, "bonus": bonus})

    def on_battle_ended(self, state: MonopolyState, e: BattleEnded) -> MonopolyState:
        return with_values(state, battle=None)

    def refuse_battle(self, state: MonopolyState, actor: str, args: NoArgs) -> str | None:
        p = state.prompt
        if p is not None and p.kind == EXPLORE.kind and actor in p.to:
            owner = state.owner(p.data["space"])
            if owner is None or owner == actor:
                return Msg("You can only battle the Trainer who controls this location.")
        return None

    def cmd_battle(self, ctx: C, actor: str, args: NoArgs) -> None:
        """Battle the owner of the location instead of exploring it."""
        assert ctx.state.prompt is not None
        d = ctx.state.prompt.data
        pid, index = actor, d["space"]
        owner = ctx.state.owner(index)
        assert owner is not None  # refuse_battle lets only a rival-owned location through
        ctx.clear_prompt()
        state = ctx.state
        ctx.emit("battle_begun", Msg("{player} battles {owner} for {space}!",
                                     player=state.name(pid), owner=state.name(owner),
                                     space=state.b.spaces[index].name),
                 challenger=pid, owner=owner, space=index)
        self.ask_battle_roll(ctx, pid)

    def ask_battle_roll(self, ctx: C, pid: str) -> None:
        state = ctx.state
        self.ask_roll(ctx, BATTLE, pid, Msg("{player}: roll the die for the battle (+{n} for "
                                              "your Pokémon and partner)",
                                              player=state.name(pid),
                                              n=data.battle_strength(state, pid)), 1,
                      label=Msg("Roll for the battle"), player=pid)

    @task("battle_rolled")
    def task_battle_rolled(self, ctx: C, player: str, dice: list[int]) -> None:
        b = data.battle(ctx.state)
        strength = data.battle_strength(ctx.state, player)
        ctx.emit("battle_die_counted", Msg("{player} rolls {n} + {strength} for their Pokémon "
                                           "= {total}.", player=ctx.state.name(player),
                                           n=dice[0], strength=strength,
                                           total=dice[0] + strength),
                 player=player, value=dice[0])
        if player == b["challenger"]:
            self.ask_battle_roll(ctx, b["owner"])
            return
        ctx.then(Task("battle_cards", {"player": b["challenger"]}))

    @task("battle_cards")
    def task_battle_cards(self, ctx: C, player: str) -> None:
        """Offer ``player`` their Challenge cards, one at a time, until they are done."""
        b = data.battle(ctx.state)
        cards = self.battle_cards(ctx.state, player)
        if not cards:
            self.after_cards(ctx, player)
            return
        total = self.total(ctx.state, player)
        options: list[tuple[str, str]] = [
            (c, Msg("Play \u201c{card}\u201d (+{n})", card=ctx.state.b.card(c).first_sentence,
                    n=int(ctx.state.b.card(c).effect.get("bonus", 0)))) for c in cards]
        options.append(("done", Msg("Play no more cards")))
        rival = b["owner"] if player == b["challenger"] else b["challenger"]
        self.ask_choice(ctx, BATTLE_CARD, player,
                        Msg("{player}: your total is {total} against {rival}'s {theirs}; play a "
                            "Challenge card?", player=ctx.state.name(player), total=total,
                            rival=ctx.state.name(rival), theirs=self.total(ctx.state, rival)),
                        options, player=player)

    @task("battle_card")
    def task_battle_card(self, ctx: C, player: str, option: str) -> None:
        if option == "done":
            self.after_cards(ctx, player)
            return
        card = ctx.state.b.card(option)
        bonus = int(card.effect.get("bonus", 0))
        self.return_card(ctx, player, option)
        ctx.emit("challenge_card_played", Msg("{player} plays \u201c{card}\u201d: +{n}.",
                                              player=ctx.state.name(player),
                                              card=card.first_sentence, n=bonus),
                 player=player, card=card.id, bonus=bonus)
        ctx.then(Task("battle_cards", {"player": player}))

    def after_cards(self, ctx: C, player: str) -> None:
        b = data.battle(ctx.state)
        if player == b["challenger"]:
            ctx.then(Task("battle_cards", {"player": b["owner"]}))
        else:
            ctx.then(Task("battle_end", {}))

    def total(self, state: MonopolyState, pid: str) -> int:
        return data.battle_total(state, pid)

    @task("battle_end")
    @cites(lambda self, ctx: battle_rule(self, ctx.state), "battle-win", "battle-lose",
           "battle-tie")
    def task_battle_end(self, ctx: C) -> None:
        state = ctx.state
        b = data.battle(state)
        me, owner, index = b["challenger"], b["owner"], b["space"]
        mine, theirs = self.total(state, me), self.total(state, owner)
        space = state.b.spaces[index]
        ctx.emit("battle_ended")
        who = {"player": state.name(me), "owner": state.name(owner), "mine": mine,
               "theirs": theirs, "space": space.name}
        if mine > theirs:
            if state.owner(index) != owner:
                ctx.say(Msg("{player} wins the battle {mine} to {theirs}, but {space} is no "
                            "longer {owner}'s.", **who))
            elif state.has_set(owner, space.color):
                ctx.say(Msg("{player} wins the battle {mine} to {theirs} and pays nothing; "
                            "{owner} holds the whole {colour} set and keeps {space}.",
                            colour=state.b.color_names[space.color], **who))
            else:
                self.take_deed(ctx, index, me, Msg("{player} wins the battle {mine} to "
                                                   "{theirs}: pays nothing and takes {space} "
                                                   "from {owner}.", **who))
            return
        fee = state.cash(space.rent)
        self.pay(ctx, me, owner, space.rent,
                 Msg("{owner} wins the battle {theirs} to {mine} (a tie goes to the owner): "
                     "{player} pays the battle fee of {amount}", amount=fee, **who)
                 if mine == theirs else
                 Msg("{owner} wins the battle {theirs} to {mine}: {player} pays the battle fee "
                     "of {amount}", amount=fee, **who))


def battle_rule(rules: PokemonBattles, state: MonopolyState) -> str:
    """The citation id of a battle's result: the challenger wins, a tie, or the owner wins."""
    b = data.battle(state)
    mine, theirs = rules.total(state, b["challenger"]), rules.total(state, b["owner"])
    return "battle-win" if mine > theirs else "battle-tie" if mine == theirs else "battle-lose"
