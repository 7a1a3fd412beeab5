"""Turns on a ring board: starting roll, rolling, doubles, moving, salary, jail."""

from __future__ import annotations

from companion.engine.commands import NoArgs
from companion.engine.context import Ctx, cites
from companion.engine.i18n import Msg
from companion.engine.prompts import RollPrompt
from companion.engine.registry import handler, space_kind, task
from companion.engine.state import Task
from companion.engine.types import IllegalCommand
from companion.monopoly.host import MonopolyHost
from companion.monopoly.state import MonopolyState, Player

C = Ctx[MonopolyState]

ORDER = RollPrompt("order", then="order_rolled")
"""A player rolls to see who starts."""

TURN = RollPrompt("turn", then="turn_roll")
"""The turn player rolls (in Jail they may also pay or use a card: rules.py)."""


class MonopolyTurns(MonopolyHost):
    """Turn order, the turn prompt, movement and jail. Mixed into MonopolyRules."""

    dice_count = 2
    """Dice rolled to move (editions with one die set 1)."""
    order_dice: int | None = None
    """Dice each player rolls to see who starts; None: the same as ``dice_count``."""

    # -- who starts -----------------------------------------------------------------------
    @task("order_roll")
    def task_order_roll(self, ctx: C, among: list[str]) -> None:
        """Each player in ``among`` rolls; the highest starts, ties roll again."""
        rolls = ctx.state.order_rolls
        waiting = [pid for pid in among if pid not in rolls]
        if waiting:
            pid = waiting[0]
            self.ask_roll(ctx, ORDER, pid, Msg("{player}: roll to see who starts",
                                                 player=ctx.state.name(pid)),
                          self.order_dice or self.dice_count, among=among,
                          player=pid)
            return
        best = max(rolls[pid] for pid in among)
        top = [pid for pid in among if rolls[pid] == best]
        if len(top) > 1:
            ctx.emit("order_rolls_cleared",
                     Msg("Tie at {n} between {players}: they roll again.", n=best,
                         players=", ".join(ctx.state.name(p) for p in top)), reset=True)
            ctx.then(Task("order_roll", {"among": top}))
            return
        seated = [p.id for p in ctx.state.players]
        first = seated.index(top[0])
        order = seated[first:] + seated[:first]
        ctx.emit("order_decided", Msg("{player} rolled highest ({n}) and starts.",
                                      player=ctx.state.name(top[0]), n=best),
                 order=order)
        ctx.then(Task("begin_turn"))

    @task("order_rolled")
    def task_order_rolled(self, ctx: C, among: list[str], player: str, dice: list[int]) -> None:
        ctx.emit("order_rolled", Msg("{player} rolled {n}.", player=ctx.state.name(player),
                                     n=sum(dice)),
                 player=player, total=sum(dice))
        ctx.then(Task("order_roll", {"among": among}))

    # -- a turn ---------------------------------------------------------------------------
    @task("begin_turn")
    def task_begin_turn(self, ctx: C) -> None:
        p = ctx.state.turn_player
        text, label = self.turn_prompt(ctx.state, p)
        self.ask_roll(ctx, TURN, p.id, text, self.dice_count, label=label)

    def turn_prompt(self, state: MonopolyState, p: Player) -> tuple[str, str]:
        """Edition hook: the turn prompt's text and its roll button's label."""
        if p.in_jail:
            return (Msg("{player} is in Jail: pay the fine, use a card, or roll for doubles",
                        player=p.name), Msg("Roll for doubles"))
        if self.dice_count == 1:
            return Msg("{player}'s turn: roll the die", player=p.name), Msg("Roll")
        return Msg("{player}'s turn: roll the dice", player=p.name), Msg("Roll")

    @task("turn_roll")
    def task_turn_roll(self, ctx: C, dice: list[int]) -> None:
        self.turn_rolled(ctx, dice)
        p = ctx.state.turn_player
        if p.in_jail:
            ctx.then(*self.before_move(ctx, dice), Task("jail_roll", {"dice": dice}))
            return
        double = len(dice) == 2 and dice[0] == dice[1]
        count = ctx.state.doubles + 1 if double else 0
        if count >= 3:
            self.send_to_jail(ctx, p.id, Msg("{player} rolled doubles three times in a row: "
                                             "straight to Jail.", player=p.name),
                              cite="three-doubles")
            ctx.then(Task("end_turn"))
            return
        ctx.emit("doubles_counted",
                 Msg("Doubles! {player} will roll again.", player=p.name) if double else "",
                 count=count, again=double)
        ctx.then(*self.before_move(ctx, dice), *self.move_tasks(p.id, sum(self.move_dice(dice))))

    def turn_rolled(self, ctx: C, dice: list[int]) -> None:
        """Edition hook: the turn's roll was just made (before doubles, Jail and moving)."""

    def move_dice(self, dice: list[int]) -> list[int]:
        """The dice that move the player's token."""
        return dice

    def before_move(self, ctx: C, dice: list[int]) -> list[Task]:
        """Tasks that run after the roll and before the player moves (Mario: Bowser)."""
        return []

    def move_tasks(self, pid: str, steps: int) -> list[Task]:
        return [Task("move", {"player": pid, "steps": steps}), Task("land", {"player": pid}),
                Task("after_move")]

    @task("jail_roll")
    def task_jail_roll(self, ctx: C, dice: list[int]) -> None:
        p = ctx.state.turn_player
        if not p.in_jail:  # freed meanwhile
            ctx.then(*self.move_tasks(p.id, sum(self.move_dice(dice))))
            return
        tries_allowed = self.jail_tries
        if self.rolls_out_of_jail(dice):
            self.release(ctx, p.id, self.jail_exit_msg(p.name))
            steps = sum(self.move_dice(dice))
            if self.jail_exit_lands:
                ctx.then(*self.move_tasks(p.id, steps))
            else:
                ctx.then(Task("move", {"player": p.id, "steps": steps}), Task("after_move"))
            return
        tries = p.jail_tries + 1
        if tries >= tries_allowed:
            fine = ctx.state.b.rule("jail_fine", 0)
            self.release(ctx, p.id, Msg("{player} missed a third time and leaves Jail.",
                                        player=p.name))
            self.pay(ctx, p.id, "bank", fine, Msg("{player} pays the Jail fine of {amount}",
                                                  player=p.name, amount=ctx.state.cash(fine)),
                     cite="jail-third-miss")
            ctx.then(*self.move_tasks(p.id, sum(self.move_dice(dice))))
            return
        ctx.emit("stayed_in_jail", self.jail_stay_msg(p.name, tries, tries_allowed),
                 player=p.id, tries=tries)
        ctx.then(Task("end_turn"))

    jail_tries = 3
    jail_exit_words = "doubles"
    jail_exit_say = "{name} rolled {words} and leaves Jail."
    jail_exit_lands = True
    """Whether the move that rolls a player out of Jail follows the space it ends on."""

    def jail_exit_msg(self, name: str) -> Msg:
        """The line when a roll frees ``name`` from Jail (``jail_exit_say`` if an edition
        overrides it)."""
        if self.jail_exit_say != MonopolyTurns.jail_exit_say:
            return Msg(self.jail_exit_say, name=name, words=self.jail_exit_words)
        return Msg("{player} rolled doubles and leaves Jail.", player=name)

    def jail_stay_msg(self, name: str, tries: int, allowed: int) -> Msg:
        """The line when a roll does not free ``name`` from Jail."""
        if self.jail_exit_words != MonopolyTurns.jail_exit_words:
            return Msg("No {words}: {player} stays in Jail (try {n} of {tries}).",
                       words=self.jail_exit_words, player=name, n=tries, tries=allowed)
        return Msg("No doubles: {player} stays in Jail (try {n} of {tries}).", player=name,
                   n=tries, tries=allowed)

    def rolls_out_of_jail(self, dice: list[int]) -> bool:
        """Edition hook: whether this roll frees a player from Jail (doubles)."""
        return len(dice) == 2 and dice[0] == dice[1]

    @task("after_move")
    def task_after_move(self, ctx: C) -> None:
        p = ctx.state.turn_player
        if p.bankrupt or p.in_jail or not ctx.state.again:
            ctx.then(Task("end_turn"))
        else:
            ctx.then(Task("begin_turn"))

    @task("end_turn")
    def task_end_turn(self, ctx: C) -> None:
        state = ctx.state
        self.on_turn_end(ctx, state.turn_player.id)
        if ctx.state.finished:
            return
        n = len(state.players)
        nxt = state.current
        for _ in range(n):
            nxt = (nxt + 1) % n
            if not ctx.state.players[nxt].bankrupt:
                break
        ctx.emit("turn_passed", current=nxt)
        ctx.then(Task("begin_turn"))

    def on_turn_end(self, ctx: C, pid: str) -> None:
        """Edition hook: something that happens when a player's turn ends."""

    # -- moving ---------------------------------------------------------------------------
    @task("move")
    @cites("move")
    def task_move(self, ctx: C, player: str, steps: int) -> None:
        p = ctx.state.player(player)
        if p.in_jail or p.bankrupt:
            return
        n = len(ctx.state.b.spaces)
        target = (p.position + steps) % n
        passed = p.position + steps >= n
        space = ctx.state.b.spaces[target]
        ctx.emit("moved_to", Msg("{player} moves {n} to {space}.", player=p.name, n=steps,
                                 space=space.name), player=p.id, to=target,
                 steps=steps)
        if passed:
            self.collect_salary(ctx, p.id, landed=target == 0)

    def move_to(self, ctx: C, pid: str, target: int, salary: bool = True, why: str = "") -> None:
        """Move a token forward to ``target``; salary if it passes GO and ``salary``."""
        p = ctx.state.player(pid)
        passed = salary and (target <= p.position or target == 0) and target != p.position
        ctx.emit("moved_to", why or Msg("{player} moves to {space}.", player=p.name,
                                        space=ctx.state.b.spaces[target].name),
                 player=pid, to=target)
        if passed:
            self.collect_salary(ctx, pid, landed=target == 0)

    @cites("salary")
    def collect_salary(self, ctx: C, pid: str, landed: bool) -> None:
        salary = ctx.state.b.rule("salary", 0)
        if salary:
            go = ctx.state.b.spaces[0].name
            said = (Msg("{player} lands on {space}: collects {amount}.", player=ctx.state.name(pid),
                        space=go, amount=ctx.state.cash(salary)) if landed else
                    Msg("{player} passes {space}: collects {amount}.", player=ctx.state.name(pid),
                        space=go, amount=ctx.state.cash(salary)))
            self.receive(ctx, pid, salary, said)

    @task("land")
    def task_land(self, ctx: C, player: str) -> None:
        first = self.before_landing(ctx, player)
        if first:
            ctx.then(*first, Task("land_space", {"player": player}))
            return
        self.task_land_space(ctx, player)

    def before_landing(self, ctx: C, pid: str) -> list[Task]:
        """Edition hook: tasks that run before the space ``pid`` landed on is followed (Mario:
        meeting Bowser there); the space is followed after them."""
        return []

    @task("land_space")
    def task_land_space(self, ctx: C, player: str) -> None:
        """Follow the space ``player`` is on (not from Jail, not once bankrupt)."""
        p = ctx.state.player(player)
        if p.in_jail or p.bankrupt:
            return
        space = ctx.state.b.spaces[p.position]
        land = handler(self, "space", space.kind)
        if land is not None:
            land(ctx, p.id, space)

    # -- jail -----------------------------------------------------------------------------
    def send_to_jail(self, ctx: C, pid: str, why: str, cite: str | None = None) -> None:
        jail = ctx.state.b.first("jail").index
        ctx.emit("moved_to", why, player=pid, to=jail, cite=cite)
        ctx.emit("went_to_jail", player=pid)
        if ctx.state.turn_player.id == pid:
            ctx.emit("doubles_counted", count=0, again=False)

    def release(self, ctx: C, pid: str, why: str) -> None:
        ctx.emit("left_jail", why, player=pid)

    @cites("jail-fine")
    def cmd_pay_jail_fine(self, ctx: C, actor: str, args: NoArgs) -> None:
        """Pay the fine at the start of the turn, then roll and move as usual."""
        p = ctx.state.turn_player
        fine = ctx.state.b.rule("jail_fine", 0)
        if p.money < fine:
            raise IllegalCommand(Msg("The Jail fine is {amount}; {player} has {cash}.",
                                     amount=ctx.state.cash(fine), player=p.name,
                                     cash=ctx.state.cash(p.money)))
        ctx.clear_prompt()
        self.pay(ctx, p.id, "bank", fine, Msg("{player} pays the Jail fine of {amount}",
                                              player=p.name, amount=ctx.state.cash(fine)))
        self.release(ctx, p.id, Msg("{player} leaves Jail.", player=p.name))
        ctx.then(Task("begin_turn"))

    def cmd_use_jail_card(self, ctx: C, actor: str, args: NoArgs) -> None:
        """Use a kept Get Out of Jail Free card, then roll and move as usual."""
        p = ctx.state.turn_player
        card = next(c for c in p.cards if self.is_jail_card(ctx.state, c))
        ctx.clear_prompt()
        self.return_card(ctx, p.id, card)
        self.release(ctx, p.id, Msg("{player} uses a Get Out of Jail Free card.", player=p.name))
        ctx.then(Task("begin_turn"))

    @space_kind("go_to_jail")
    @cites("go-to-jail")
    def land_go_to_jail(self, ctx: C, pid: str, space: object) -> None:
        self.send_to_jail(ctx, pid, Msg("{player} lands on Go to Jail: straight to Jail, no "
                                        "salary.", player=ctx.state.name(pid)))
