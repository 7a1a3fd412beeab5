"""The trainers' sections of the phone's table (the view's ``panels``, companion/engine/panels.py):
the battle, the catching odds, each trainer's Power Points, place, chips and hand, and the chips
left to find. What every viewer sees alike is built once per state (:class:`TablePanels`); a
hand's Item Cards and a Rival Card not yet shown are added for the viewer who may see them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.editions.master_trainer.actions import ActionRules
from companion.editions.master_trainer.base import State, data_of
from companion.editions.master_trainer.catching import catch_odds
from companion.editions.master_trainer.data import COLOURS
from companion.editions.master_trainer.landing import CATCH
from companion.editions.master_trainer.page import CHIP_COLOURS
from companion.engine.i18n import Chance, Msg, Msgs
from companion.engine.panels import Block, Card, Line, Panel, away

COLOUR_NAMES = {key: Msg(name) for key, name, _css in CHIP_COLOURS}
"""Each chip colour in words."""
COLOUR_TONES = {key: css for key, _name, css in CHIP_COLOURS}
"""Each chip colour as the CSS colour of its cards."""
KNOCKED_OUT = Msg("knocked out")


@dataclass(frozen=True, slots=True)
class TablePanels:
    """A state's sections as every viewer sees them: ``before`` the trainers (the battle, the
    odds), one per trainer in seat order without the names of the cards in hand, ``after``
    them (the chips left); ``rival_before`` is ``before`` for a viewer who sees the Rival Card
    (the same when there is none to hide)."""

    before: list[Panel]
    rival_before: list[Panel]
    trainers: Mapping[str, Panel]
    after: list[Panel]

    def seen_by(self, hands: Mapping[str, Mapping[str, Any]], sees_rival: bool) -> list[Panel]:
        """The sections for one viewer: each hand's cards where ``hands`` (the viewer's view
        of each hand) names them."""
        out = list(self.rival_before if sees_rival else self.before)
        for pid, section in self.trainers.items():
            cards = hands[pid].get("cards")
            out.append({**section, "blocks": [*section["blocks"], _hand(cards)]}
                       if cards else section)
        return out + self.after


def _hand(cards: Sequence[Mapping[str, Any]]) -> Block:
    lines: list[Line] = [{"text": Msg("{item} ×{n}", item=c["name"], n=c["count"])
                          if c["count"] > 1 else c["name"]} for c in cards]
    return {"lines": lines}


def _card(chip: Mapping[str, Any]) -> Card:
    """A chip of a team's view (``ViewRules.chip_json``) as a card."""
    ko = bool(chip["knocked_out"])
    colour = chip["colour"]
    args = {"name": chip["name"], "number": chip["number"],
            "colour": COLOUR_NAMES.get(colour, colour), "strength": chip["battle_strength"]}
    card: Card = {
        "title": chip["name"], "corner": f"#{chip['number']}", "note": f"⚔ {args['strength']}",
        "label": Msg("{name}, number {number}, {colour}, strength {strength}, knocked out",
                     **args) if ko else
        Msg("{name}, number {number}, {colour}, strength {strength}", **args)}
    if colour in COLOUR_TONES:
        card["tone"] = COLOUR_TONES[colour]
    if ko:
        card["off"] = KNOCKED_OUT
    return card


class PanelRules(ActionRules):
    """Builds a state's :class:`TablePanels` from the parts of its view every viewer shares."""

    def table_panels(self, state: State, players: Mapping[str, Mapping[str, Any]]
                     ) -> TablePanels:
        """``state``'s sections; ``players`` are its players as every viewer sees them."""
        hidden, shown = self.battle_panels(state)
        odds = self.odds_panel(state)
        # a battle and the odds come and go: their places stay (empty), so that a phone's
        # update is the one section that changed, not every section after it
        return TablePanels(
            [hidden or away(), odds or away()],
            [shown or away(), odds or away()],
            {t.id: self.trainer_panel(players[t.id], len(t.items)) for t in state.trainers},
            [self.chips_left_panel(state)])

    def battle_panels(self, state: State) -> tuple[Panel | None, Panel | None]:
        """The battle (none when there is none): as a viewer who may not see the Rival Card
        sees it, then as one who may."""
        b = state.battle
        if b is None:
            return None, None
        final = b.kind == "final"
        blocks: list[Block] = [{"player": pid, "text": Msgs(
            "{player}: {name}, strength {strength}, {n} bonus card",
            "{player}: {name}, strength {strength}, {n} bonus cards", len(b.bonus.get(pid, ())),
            player=self.pname(state, pid), name=self.chip(state, chip).name,
            strength=self.strength(state, pid, chip))} for pid, chip in b.fighters.items()]
        title = Msg("The Final Battle") if final else Msg("Battle")
        if not final:
            return {"title": title, "blocks": blocks}, {"title": title, "blocks": blocks}
        r = data_of(state).rivals[b.rival]
        rival: list[Block] = [
            {"heading": Msg("Rival: {name}", name=r.name)},
            {"text": Msg("{team}; strength {strength}", team=r.pokemon, strength=r.strength)}]
        if r.bonus:
            rival.append({"tone": "muted", "text": Msg("Bonus by roll: {list}", list=", ".join(
                f"{roll}: +{bonus}" for roll, bonus in enumerate(r.bonus, 1)))})
        shown: Panel = {"title": title, "blocks": blocks + rival}
        hidden: Panel = shown if b.revealed else {"title": title, "blocks": [
            *blocks, {"text": Msg("The rival is still face down.")}]}
        return hidden, shown

    def odds_panel(self, state: State) -> Panel | None:
        """The chances of catching the chip at stake, without a ball and with each held."""
        if not state.chip_at_stake or state.prompt is None or state.prompt.kind != CATCH.kind:
            return None
        chip = self.chip(state, state.chip_at_stake)
        assert state.current is not None
        lines: list[Line] = []
        for ball in [None, *self.balls_held(state, state.current)]:
            odds = catch_odds(chip, ball)
            lines.append({"text": Msg(
                "{ball}: {odds} ({n} of 6 faces)",
                ball=Msg("No ball") if ball is None else self.item_name(state, ball.key),
                odds=Chance(odds.numerator, odds.denominator), n=int(odds * 6))})
        return {"title": Msg("Catching {chip}", chip=chip.name), "blocks": [{"lines": lines}]}

    def trainer_panel(self, player: Mapping[str, Any], items: int) -> Panel:
        """A trainer's section: Power Points, place, chips by colour, how many cards in hand."""
        name, score = player["name"], player["score"]
        blocks: list[Block] = [
            {"meter": {"value": score["points"], "max": score["goal"],
                       "label": Msg("{player}'s Power Points", player=name)}},
            {"tone": "muted", "text": Msg("At {space}, on the Indigo Plateau", space=player[
                "space"]) if player["on_plateau"] else Msg("At {space}", space=player["space"])}]
        groups: dict[str, list[Card]] = {}
        for chip in player["team"]:
            key = "" if chip["knocked_out"] else chip["colour"]
            groups.setdefault(key, []).append(_card(chip))
        for key in [*COLOUR_NAMES, *sorted(set(groups) - set(COLOUR_NAMES) - {""}), ""]:
            if key in groups:
                blocks += [{"heading": COLOUR_NAMES.get(key, Msg("Knocked out") if key == ""
                                                        else key)},
                           {"cards": groups[key]}]
        blocks.append({"heading": Msg("Items in hand: {n}", n=items)})
        return {"title": Msg("{player}'s team", player=name), "player": player["id"],
                "badge": Msg("{n} of {goal} Power Points", n=score["points"], goal=score["goal"]),
                "blocks": blocks}

    def chips_left_panel(self, state: State) -> Panel:
        """The chips still face down: in the tray, on the board, in the Unknown Dungeon."""
        lines: list[Line] = []
        for colour in COLOURS:
            n, down = self.tray(state, colour), state.board_down.get(colour)
            words = COLOUR_NAMES.get(colour, colour)
            lines.append({"text": Msg("{colour}: {n} in the tray", colour=words, n=n)
                          if down is None else Msg("{colour}: {n} in the tray, {down} face down",
                                                   colour=words, n=n, down=down)})
        lines.append({"text": Msg("{n} in the dungeon.", n=len(self.hidden(state, "yellow")))})
        return {"title": Msg("Chips left to find"), "blocks": [{"lines": lines}]}
