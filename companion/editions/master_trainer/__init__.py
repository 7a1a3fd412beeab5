"""Pokémon Master Trainer (1999) on the shared engine: not a Monopoly.

Players move their own movers on the real board; the companion keeps teams, Power Points,
knock-outs, item hands, catch numbers, battle totals, evolution bonuses, whose turn it is and
the Final Battle. Data: ``seeds/master-trainer/*.toml``.

Commands (script shorthand in brackets; every one is listed by ``actions(state)``):

- ``starter [chip]`` the starter you turned over; none: the companion draws one.
- ``roll [value]`` your die for whatever is asked (move, catch, battle, order, rival,
  Dice Challenge); enter the value in a physical-dice game.
- ``time_machine target=<player> [value]`` / ``keep`` right after a roll.
- ``land <space>`` where the mover landed: ``town``, ``town-no-draw``, ``catch-<colour>``,
  ``event-<colour>``, ``cerulean``, ``vermilion``, ``cinnabar``, ``plateau``,
  ``plateau-catch-<red|blue|green>``, ``final``.
- ``battle <player>`` challenge (a mover you passed, or Let's Fight!).
- ``trade with=<player> give=<chip> take=<chip>`` offer (passing) or forced (Trade card).
- ``accept`` / ``decline`` / ``poke_doll`` answer a challenge or a trade.
- ``fight <chip> [bonus=2,3]`` your Pokémon and up to two secret Attack Bonus cards.
- ``reveal [chip]`` the chip turned over on a Catch'em space or in the Unknown Dungeon.
- ``catch [none|great|ultra|master]`` try to catch it, then ``roll``; ``skip`` leaves it.
- ``take [chip]`` the chip a Chance Card gives.
- ``revive <chip>`` / ``challenge`` at Cerulean or Vermilion City.
- ``use item=potion <chip>``, ``use item=fly``; ``discard <item>`` down to 7 cards.

Chips are named by slug (``pidgey``, ``nidoran-f``, ``mr-mime``), number or tag
(``chip:16-pidgey``); ``MasterTrainerRules.interpret_tap`` turns a tag tap into the command
it means.
"""

from companion.editions.master_trainer.rules import MasterTrainerRules
from companion.editions.master_trainer.state import MasterTrainerState

__all__ = ["MasterTrainerRules", "MasterTrainerState"]
