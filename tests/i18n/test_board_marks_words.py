"""The board's marks and a player's score reach every reader in their language: Bowser's
mark and lines, a GAME OVER flag, a booth, the lottery pot and Power Points are messages in
the view (the page and the OLED render them with the same catalogue), not words a page adds
for one edition."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.engine.i18n import localized
from companion.service import game, script

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _view(example: str, lang: str) -> Any:
    state = script.run_script(json.loads((EXAMPLES / example).read_text("utf-8"))).state
    return json.loads(json.dumps(localized(game.view(state), lang), default=str))


@pytest.mark.parametrize(("lang", "here", "none_yet", "booth", "pot", "points"), [
    ("en", "Bowser is here", "No GAME OVER yet.", "booth", "Lottery pot", "Power Points"),
    ("it", "Bowser è qui", "Ancora nessun GAME OVER.", "botteghino", "Montepremi della LOTTERIA",
     "Punti Potenza"),
    ("es", "Bowser está aquí", "Todavía ningún GAME OVER.", "caseta", "Bote de la LOTERÍA",
     "Puntos de Poder"),
])
def test_the_board_and_the_score_speak_the_readers_language(
        lang: str, here: str, none_yet: str, booth: str, pot: str, points: str) -> None:
    mario = _view("mario-three-players.json", lang)
    board = mario["board"]
    assert [(p["mark"], p["here"]) for p in board["pieces"]] == [("B", here)]
    flagged = [s for s in board["spaces"] if s.get("flags")]
    assert flagged and all(s["flags"] == [{"kind": "over", "text": "GAME OVER", "shown": True}]
                           for s in flagged)
    assert board["notes"][0]["mark"] == "B" and board["notes"][1]["text"].startswith("GAME OVER: ")
    assert none_yet not in [n["text"] for n in board["notes"]]  # its GAME OVERs are listed
    monopolino = _view("monopolino-3-players.json", lang)
    assert monopolino["pot_label"] == pot
    owned = [s for s in monopolino["board"]["spaces"] if s.get("owner")]
    assert owned and all(s["flags"][0]["text"] == booth for s in owned)
    trainer = _view("master-trainer-two-players.json", lang)["players"][0]["score"]
    assert trainer["label"] == points and trainer["count"] == f"{trainer['points']} {points}"
