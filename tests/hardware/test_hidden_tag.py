"""A token left on a reader hides the next tag (issue 42, item 5): a card placed beside a
resting token gave no tap, no status, no hint. The reader sees two tags answer at once (a
collision) and keeps reading the resting one, so the table is told why nothing happens."""

from __future__ import annotations

from PIL import Image, ImageDraw

from companion.engine.i18n import Msg
from hardware import screens
from hardware.emulator import Mfrc522Chip, VirtualClock, pi_modules
from hardware.table import TableHardware

VIEW = {"current": "p1", "players": [{"id": "p1", "name": "Ana", "money": 1500}],
        "prompt": {"kind": "turn", "to": ["p1"], "text": "Ana's turn: roll the dice"},
        "log": [], "actions": [{"actor": "p1", "type": "roll", "label": "Roll", "args": {}}]}
TOKEN, CARD = "04A1B2C3D4E5F6", "0488776655AA10"


def test_a_card_beside_a_resting_token_says_why_it_is_not_read() -> None:
    clock, taps = VirtualClock(), []
    chip = Mfrc522Chip(clock)
    with pi_modules({(0, 0): chip}):
        table = TableHardware.from_config(
            {"readers": [{"role": "bank"}], "buttons": {"kind": "none"},
             "feedback": {"kind": "none"}, "display": {"kind": "dummy", "language": "it"}},
            lambda r, u: taps.append(u), lambda a, x: None, clock=clock.time)
        table._slots["bank"].reader._sleep = clock.sleep  # type: ignore[attr-defined]

        def poll(until: float) -> None:
            while clock.time() < until:
                table.poll_once()
                table.tick()
                clock.sleep(0.05)

        try:
            table.show(VIEW)
            game = table.display.frame().tobytes()
            chip.place(TOKEN)
            poll(2.0)
            assert table.status()["reader bank"].get("hint") is None
            chip.place(CARD)
            poll(7.0)
            assert taps == [TOKEN]  # the card is still hidden ...
            state = table.status()["reader bank"]
            assert state["working"] is True and state["hint"] == "tag_hidden"  # ... and said
            hint = Msg("Two tags on reader {role}: the one left on it hides the other. "
                       "Lift it.", role="bank")
            assert state["message"] == hint
            image = Image.new("1", (screens.WIDTH, screens.HEIGHT))
            screens.draw_error(ImageDraw.Draw(image), hint, lang="it")
            assert table.display.frame().tobytes() == image.tobytes()  # in Italian
            screens.draw_error(ImageDraw.Draw(image), hint, lang="en")
            assert table.display.frame().tobytes() != image.tobytes()
            chip.remove(TOKEN)
            poll(9.0)
            assert taps == [TOKEN, CARD]
            assert table.status()["reader bank"].get("hint") is None
            assert table.display.frame().tobytes() == game  # the game is back
        finally:
            table.stop()
