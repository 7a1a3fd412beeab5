"""What the players see: teams, Power Points, hands (secret to others), odds, battles."""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.editions.master_trainer.base import GOAL, State, data_of
from companion.editions.master_trainer.catching import catch_odds, odds_text
from companion.editions.master_trainer.data import COLOURS, evolution_bonuses
from companion.editions.master_trainer.landing import CATCH
from companion.editions.master_trainer.panels import PanelRules
from companion.editions.master_trainer.spaces import PALLET_TOWN, SPACES
from companion.engine.i18n import Msg
from companion.engine.state import DRAFT
from companion.engine.types import BANKER, Score


class ViewRules(PanelRules):
    """``view(state, viewer)`` in the contract's shape, with this edition's ``extra``."""

    def sees_all(self, viewer: str | None) -> bool:
        """Whether ``viewer`` sees every hidden card: the banker, and None (the whole table,
        for the console, scripts, exports and golden logs). A spectator's phone is viewed as
        ``""`` (web/access.py SPECTATOR) and a player as their id: neither sees others' cards."""
        return viewer is None or viewer == BANKER

    def sees_rival(self, state: State, viewer: str | None) -> bool:
        """Whether ``viewer`` sees the Final Battle's Rival Card: once shown, or as the player
        who drew it (the Pokémon Master's), or seeing every card."""
        b = state.battle
        return b is not None and (b.revealed or self.sees_all(viewer) or viewer == b.defender)

    def chip_json(self, state: State, pid: str, slug: str) -> dict[str, Any]:
        c = self.chip(state, slug)
        t = state.trainer(pid)
        return {
            "chip": slug, "number": c.number, "name": c.name, "colour": c.colour,
            "power": c.power, "attack": Msg(c.attack), "strength": c.strength,
            "battle_strength": self.strength(state, pid, slug),
            "knocked_out": slug in t.knocked_out, "starter": slug == t.starter,
        }

    def hand_json(self, state: State, pid: str, viewer: str | None) -> dict[str, Any]:
        items = state.trainer(pid).items
        if self.sees_all(viewer) or viewer == pid:
            counts = Counter(items)
            return {"count": len(items), "cards": [
                {"item": k, "name": self.item_name(state, k), "count": n}
                for k, n in sorted(counts.items())
            ]}
        return {"count": len(items)}

    def _public_player(self, state: State, pid: str) -> dict[str, Any]:
        """A player as every viewer sees them ("items", their hand, is per viewer)."""
        seat = next(p for p in state.setup.players if p.id == pid)
        t = state.trainer(pid)
        space = SPACES.get(t.place)
        return {
            "id": pid, "name": seat.name, "token": seat.token,
            "colour": seat.token if seat.token in data_of(state).movers else None,
            "money": None, "money_text": "",
            "position": t.place, "space": space.label if space else PALLET_TOWN,
            "in_jail": False, "bankrupt": False, "is_current": pid == state.current,
            "score": self.score(state, pid),
            "team": [self.chip_json(state, pid, c) for c in t.team],
            "knocked_out": list(t.knocked_out), "items": None,
            "on_plateau": t.on_plateau,
        }

    def score(self, state: State, pid: str) -> Score:
        """``pid``'s Power Points towards the goal, as the page and the OLED show them."""
        n = self.power(state, pid)
        return {"points": n, "goal": GOAL, "label": Msg("Power Points"),
                "count": Msg("{n} Power Points", n=n), "short": Msg("{n}PP", n=n)}

    def battle_json(self, state: State, viewer: str | None) -> dict[str, Any] | None:
        b = state.battle
        if b is None:
            return None
        out: dict[str, Any] = {"kind": b.kind, "challenger": b.challenger,
                               "defender": b.defender, "sides": {}}
        for pid, chip in b.fighters.items():
            side: dict[str, Any] = {"chip": chip, "name": self.chip(state, chip).name,
                                    "strength": self.strength(state, pid, chip),
                                    "bonus_cards": len(b.bonus.get(pid, ()))}
            if self.sees_all(viewer) or viewer == pid:
                side["bonus"] = list(b.bonus.get(pid, ()))
            out["sides"][pid] = side
        if b.kind == "final":
            out["master"] = b.defender
            if self.sees_rival(state, viewer):
                r = data_of(state).rivals[b.rival]
                out["rival"] = {"key": r.key, "name": r.name, "pokemon": r.pokemon,
                                "strength": r.strength, "bonus_by_roll": list(r.bonus),
                                "verified": r.verified}
        return out

    def odds_json(self, state: State) -> dict[str, Any] | None:
        if not state.chip_at_stake or state.prompt is None or state.prompt.kind != CATCH.kind:
            return None
        chip = self.chip(state, state.chip_at_stake)
        assert state.current is not None
        balls = [None, *self.balls_held(state, state.current)]
        return {"chip": chip.slug, "faces": list(chip.catch), "by_ball": [
            {"ball": "none" if b is None else b.key, "text": odds_text(catch_odds(chip, b)),
             "sixths": catch_odds(chip, b).numerator * 6 // catch_odds(chip, b).denominator}
            for b in balls
        ]}

    def view(self, state: State, viewer: str | None = None) -> dict[str, Any]:
        """``viewer``'s view: hands, Attack Bonus cards, a Rival not yet shown and the
        actions are theirs; the rest is built once per state (:meth:`_public`) and shared
        by every viewer's view of it (a move is seen by four seats and the spectators)."""
        public = self._public(state)
        ids = [t.id for t in state.trainers]
        hands = {p: self.hand_json(state, p, viewer) for p in ids}
        battle = self.battle_json(state, viewer)
        sees_all = self.sees_all(viewer)
        return {
            "edition": self.name, "title": self.title, "currency": None,
            "players": [{**public["players"][p], "items": hands[p]} for p in ids],
            "current": state.current,
            "prompt": public["prompt"],
            "actions": [a for actor, a in public["actions"] if sees_all or actor == viewer],
            "log": public["log"], "last_roll": public["last_roll"],
            "finished": state.finished, "winners": public["winners"],
            "end_reason": state.end_reason, "end_rule": self.end_rule(state), "board": None,
            "panels": public["panels"].seen_by(hands, self.sees_rival(state, viewer)),
            "extra": {
                **public["extra"],
                "item_hands": hands,
                "battle": battle,
                "final_battle": battle
                if state.battle is not None and state.battle.kind == "final" else None,
            },
        }

    def _public(self, state: State) -> dict[str, Any]:
        """The parts of ``state``'s view that are the same for every viewer, remembered for
        the last state asked about (states never change; a draft is never remembered)."""
        last = self.__dict__.get("_public_view")
        if last is not None and last[0] is state:
            found: dict[str, Any] = last[1]
            return found
        data = data_of(state)
        ids = [t.id for t in state.trainers]
        prompt = state.prompt
        players = {p: self._public_player(state, p) for p in ids}
        parts: dict[str, Any] = {
            "players": players,
            "panels": self.table_panels(state, players),
            "prompt": None if prompt is None else prompt.to_json(),
            "actions": [(a.actor, a.to_json()) for a in self.actions(state)],
            "log": list(state.log), "last_roll": list(state.last_roll),
            "winners": list(state.winners),
            "extra": {  # in the view's order; the per-viewer ones are set by ``view``
                "teams": {p: list(state.trainer(p).team) for p in ids},
                "power_points": {p: self.power(state, p) for p in ids},
                "knocked_out": {p: list(state.trainer(p).knocked_out) for p in ids},
                "item_hands": None,
                "evolution_bonuses": {
                    p: dict(evolution_bonuses(state.trainer(p).team, data)) for p in ids
                },
                "catch_odds": self.odds_json(state),
                "battle": None,
                "final_battle": None,
                "order": list(state.order),
                "face_up": list(state.face_up),
                "tray": {c: self.tray(state, c) for c in COLOURS},
                "board_face_down": dict(state.board_down),
                "dungeon": len(self.hidden(state, "yellow")),
                "decks": {"items": len(state.items_deck), "events": len(state.events_deck)},
                "unverified": list(data.unverified),
            },
        }
        if DRAFT not in state.__dict__:
            self.__dict__["_public_view"] = (state, parts)
        return parts
