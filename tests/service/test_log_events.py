"""Each line of the view's log comes with its event type (``log_events``), so a page decides
from what happened (an undo, a trade turned down), never from the line's words (issue 40);
the edition's page declaration comes with it (``page``)."""

from __future__ import annotations

from pathlib import Path

from companion.service.game_service import GameService

SETUP = {"edition": "mario", "players": ["Mario", "Luigi"], "dice": "physical", "seed": 5,
         "settings": {"order": "seated"}}


def test_each_line_says_its_event_type_through_an_undo_and_a_restart(tmp_path: Path) -> None:
    service = GameService(tmp_path).start()
    try:
        gid = service.create_game(SETUP).game_id
        assert service.submit(gid, {"actor": "mario", "type": "roll",
                                    "args": {"dice": [3, 1]}}).ok
        assert service.submit(gid, {"actor": "mario", "type": "buy"}).ok
        view = service.view(gid)
        assert len(view["log_events"]) == len(view["log"])
        assert view["log_events"] == ["game_started", "bowser_moved", "game_over_marked",
                                      "moved_to", "deed_owned"]
        bought = view["log_events"]
        assert service.undo(gid).ok
        after = service.view(gid)
        assert after["log_events"][-1] == "undone"
        assert len(after["log_events"]) == len(after["log"])
        assert view["page"]["dice"] == {"red": "red", "black": "black"}
    finally:
        service.stop()
    again = GameService(tmp_path).start()
    try:
        assert again.view(gid)["log_events"] == after["log_events"]
        assert bought != after["log_events"]
    finally:
        again.stop()
