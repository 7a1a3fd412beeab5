"""The banker ends a game early: one command, one line and one ``finished`` event in every
edition; each edition ranks the players its own way (``final_ranking``) and says how in
words the page shows before the banker confirms (``end_rule``, the edition's early-end
reading). Mixed into an edition's rules before :class:`companion.engine.rules.Rules`."""

from __future__ import annotations

from typing import Any

from companion.engine.commands import NoArgs
from companion.engine.context import Ctx, cites
from companion.engine.i18n import Msg
from companion.engine.types import BANKER, Action


class BankerEnding:
    """``end_game`` for the banker at any time until the game is over."""

    def end_game_action(self) -> Action:
        """The banker's action that ends the game now (offered while it goes on)."""
        return Action(BANKER, "end_game", Msg("End the game now"))

    @cites("early-end")
    def cmd_end_game(self, ctx: Ctx[Any], actor: str, args: NoArgs) -> None:
        """The banker ends the game now; the edition's ranking names the winners."""
        winners, why = self.final_ranking(ctx.state)
        ctx.emit("finished", Msg("The banker ends the game. {why}", why=why), winners=winners,
                 reason=why)

    def final_ranking(self, state: Any) -> tuple[list[str], str]:
        """The winners when the banker ends the game now, and why in words."""
        raise NotImplementedError

    def end_rule(self, state: Any) -> str:
        """How ``final_ranking`` picks the winner, as the words ending "the winner is …" (a
        label of the edition's data, translated on the page like a setting's)."""
        return ""
