"""The Tracker mats section of the table (the view's ``panels``): each Trainer's mat, the
catching die, the chance to catch now and the wild Pokémon left, in the box's words."""

from __future__ import annotations

from companion.editions.pokemon import data
from companion.engine.i18n import Chance, Msg, Msgs
from companion.engine.panels import Block, Line, Panel
from companion.monopoly.state import MonopolyState

BALL, MISS = "◓", "✕"
"""A catching die's faces as drawn: a Poké Ball, an X."""


def tracker_mats(state: MonopolyState, odds: data.Odds | None) -> Panel:
    """The section; ``odds`` is the chance a standing prompt shows (exploring, catching)."""
    # The types in the box's order (seeds/pokemon.toml), the same on every phone: each
    # reader's names for them are made at the edge, so an order by name cannot be known here.
    names = data.type_names(state.b)
    blocks: list[Block] = []
    for p in state.players:
        got = data.mat_types(state, p.id)
        facts = {"who": Msg("{player} with {partner}", player=p.name,
                            partner=data.partner(state, p.id)),
                 "n": len(data.caught(state, p.id)),
                 "strength": data.battle_strength(state, p.id)}
        said = Msg("{who}: {n} Pokémon, battle strength {strength}, mat complete!", **facts) \
            if data.mat_complete(state, p.id) else \
            Msg("{who}: {n} Pokémon, battle strength {strength}", **facts)
        mat: list[Line] = [{"text": name, "ticked": t in got} for t, name in names.items()]
        blocks += [{"heading": said, "player": p.id}, {"lines": mat, "grid": True, "label": Msg(
            "{player}'s mat: {n} of {total} types", player=p.name, n=len(got),
            total=len(names))}]
    blocks += _catching_die(state, odds)
    wild = data.values(state).wild
    left = [Msg("{type} {n}", type=names[t], n=len(wild[t])) for t in names if t in wild]
    blocks.append({"text": Msg("Wild Pokémon left: {list}", list=left), "tone": "muted"})
    return {"title": Msg("Tracker mats"), "blocks": blocks}


def _catching_die(state: MonopolyState, odds: data.Odds | None) -> list[Block]:
    """The die's faces, the chance of one roll and a re-roll's price; the chance now."""
    balls, faces = data.values(state).ball_faces, int(state.b.rule("die_faces"))
    lit = [face < balls for face in range(faces)]
    out: list[Block] = [
        {"heading": Msg("Catching die")},
        {"glyphs": {"marks": [BALL if ball else MISS for ball in lit], "lit": lit,
                    "label": Msg("catching die: {n} of {total} faces show a Poké Ball",
                                 n=balls, total=faces)}},
        {"text": Msg("{n} in {total}: {chance} to catch on one roll; a re-roll costs {amount}.",
                     n=balls, total=faces, chance=Chance(balls, faces),
                     amount=state.cash(int(state.b.rule("reroll_price"))))}]
    if odds is not None:
        out.append({"text": Msgs("Now: {chance} to catch within {n} roll with {amount}.",
                                 "Now: {chance} to catch within {n} rolls with {amount}.",
                                 odds["rolls"], chance=Chance(odds["numerator"],
                                                              odds["denominator"]),
                                 amount=state.cash(odds["money"])),
                    "tone": "strong"})
    return out
