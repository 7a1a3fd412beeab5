"""A phone on slow Wi-Fi, in Chromium at 390×844: the live update of its own move can come
before the answer to it. What the player types meanwhile is theirs, and stays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from page_driver import held_back, join, join_code, new_phone, running_server, script, toasts

from companion.service.script import parse_step


def test_dice_typed_for_the_next_roll_survive_a_late_answer(browser: Any, tmp_path: Path) -> None:
    """Leia rolls doubles (3 and 3) on her phone; the stream shows her next roll before the
    answer to the first has come back, and she types her first die (5) at once. The late
    answer must not blank it: she types the second (4), sends, and the roll is played. (The
    answer emptied every field of the roll, which the doubles had drawn as the same form:
    "Enter every die.", seen on CI under load.)"""
    errors: list[str] = []
    data = script("starwars")
    steps = data.pop("steps")
    with running_server(tmp_path) as (base, service):
        gid = str(service.create_game(data).game_id)
        for step in steps[:87]:  # up to Leia's doubles
            assert service.submit(gid, parse_step(service.state(gid)[1], step)).ok
        assert parse_step(service.state(gid)[1], steps[87]).to_json() == {
            "actor": "leia", "type": "roll", "args": {"dice": [3, 3]}}
        leia = new_phone(browser, errors)
        join(leia, base, join_code(service, gid), "leia")

        held: list[tuple[Any, Any]] = []  # the answer to the doubles, held back

        def slow(route: Any) -> None:
            if route.request.method == "POST" and not held:
                held.append((route, route.fetch()))  # the server has played it
            else:
                route.continue_()

        leia.route("**/api/games/*/commands", slow)
        before = service.state(gid)[0]
        box = leia.locator('.action[data-actor=leia][data-type=roll]')
        box.locator("input[data-die='0']").fill("3")
        box.locator("input[data-die='1']").fill("3")
        box.locator("button[data-send=dice]").click()
        leia.wait_for_function(f"() => window.__version > {before}")  # by the stream
        held_back(leia, held)
        assert service.commands(gid)[-1]["body"]["args"] == {"dice": [3, 3]}
        first = box.locator("input[data-die='0']")
        first.fill("5")
        said = len(toasts(leia))
        route, answer = held[0]
        route.fulfill(response=answer)  # the answer arrives; its news is told on this phone
        leia.wait_for_function("(n) => (window.__toasts || []).length > n", arg=said)  # told
        assert leia.evaluate("S.sending") == 0
        assert first.input_value() == "5"
        box.locator("input[data-die='1']").fill("4")
        after = service.state(gid)[0]
        box.locator("button[data-send=dice]").click()
        leia.wait_for_function(f"() => window.__version > {after}")
        assert service.commands(gid)[-1]["body"]["args"] == {"dice": [5, 4]}
        assert "Enter every die." not in toasts(leia)
        assert not errors, errors
