"""Screens rendered on luma's dummy device, compared with reference PNGs."""

from __future__ import annotations

from io import BytesIO
from typing import Any

import pytest
from oled_reference import assert_matches_reference
from PIL import Image

from hardware.config import DisplayConfig
from hardware.display import Display, make_device
from hardware.screens import qr_matrix

VIEW: dict[str, Any] = {
    "title": "Pokemon Monopoly", "current": "p1", "finished": False,
    "players": [{"id": "p1", "name": "Ana", "money": 1500, "is_current": True},
                {"id": "p2", "name": "Bob", "money": 980, "is_current": False}],
    "prompt": {"kind": "buy", "to": ["p1"], "text": "Buy Cave for 60?"},
    "log": ["Ana rolled 4+3 = 7", "Ana landed on Cave"], "last_roll": [4, 3],
}


@pytest.fixture
def display() -> Display:
    return Display(make_device(DisplayConfig(kind="dummy")))


def test_game_screen(display: Display) -> None:
    display.show_game(VIEW, {"items": ["Buy", "Auction"], "index": 1, "editing": None})
    assert_matches_reference(display.device.image, "game")  # type: ignore[union-attr]


def test_amount_being_edited(display: Display) -> None:
    display.show_game(VIEW, {"items": ["Bid"], "index": 0,
                             "editing": {"label": "Bid", "value": "120"}})
    assert_matches_reference(display.frame(), "editing")


def test_end_screen(display: Display) -> None:
    display.show_game({**VIEW, "finished": True, "winners": ["p2"],
                       "end_reason": "Ana went bankrupt paying rent to Bob"})
    assert_matches_reference(display.frame(), "end")


def test_enrollment(display: Display) -> None:
    display.show_enrollment(12, 48, "Tap Cave's location card")
    assert_matches_reference(display.frame(), "enrollment")


def test_error(display: Display) -> None:
    display.show_error("Reader 'bank' is not answering; check its cable")
    assert_matches_reference(display.frame(), "error")


def test_join_screen(display: Display) -> None:
    display.show_join("http://companion.local:8080/?code=482193", "482193")
    assert_matches_reference(display.frame(), "join")


def test_join_qr_is_dark_on_lit_and_fits(display: Display) -> None:
    display.show_join("http://companion.local:8080/?code=482193", "482193")
    frame = display.frame()
    size = len(qr_matrix("http://companion.local:8080/?code=482193"))
    side = (size + 2) * 2
    top = (64 - side) // 2
    assert size <= 29 and side <= 64
    assert frame.getpixel((0, top)) == 255 and frame.getpixel((side - 1, top + side - 1)) == 255
    assert frame.getpixel((2, top + 2)) == 0  # finder pattern corner is dark


def test_too_long_address_is_refused() -> None:
    with pytest.raises(ValueError, match="too long"):
        qr_matrix("http://" + "x" * 120)


def test_frame_png_mirrors_what_the_panel_shows(display: Display) -> None:
    display.show_error("boom")
    image = Image.open(BytesIO(display.frame_png()))
    assert image.size == (128, 64)
    assert image.convert("1").tobytes() == display.device.image.convert("1").tobytes()  # type: ignore[union-attr]
    assert Image.open(BytesIO(display.frame_png(scale=3))).size == (384, 192)


# -- characters: every edition's and every player's name draws (issue 12, fault 1) ---------

UNICODE_VIEW: dict[str, Any] = {
    "title": "Star Wars", "current": "p1", "finished": False,
    "players": [{"id": "p1", "name": "Дмитрий", "money": 1500, "is_current": True},
                {"id": "p2", "name": "Ελένη", "money": 980, "is_current": False}],
    "prompt": {"kind": "buy", "to": ["p1"], "text": "Buy “Tatooine” for ₥60?"},
    "log": ["Zoë paid €2 – “rent”…", "Nidoran♀ met Nidoran♂ ✕ ■"], "last_roll": [4, 3],
}


def test_names_and_money_signs_of_every_edition_draw(display: Display) -> None:
    """A Star Wars "₥" prompt, a Monopolino "€", curly quotes and Cyrillic or Greek names
    are drawn (they stopped the companion at start-up with UnicodeEncodeError)."""
    display.show_game(UNICODE_VIEW, {"items": ["Kupić", "Аукцион"], "index": 1,
                                     "editing": None})
    assert_matches_reference(display.frame(), "unicode")
    display.show_error("Дмитрий: “₥” and € — fine")
    display.show_enrollment(1, 2, "Tap Ελένη's token")
    display.show_join("http://192.168.1.23:8000/join", "Ж7")


def test_a_character_without_a_glyph_shows_the_replacement_glyph(display: Display) -> None:
    """A name in a script the font lacks (or an emoji) is drawn as �, one cell a character,
    never dropped and never an error."""
    frames = []
    for name in ("名前", "\ufffd\ufffd", "👩‍👩‍👧🙂"):
        display.show_error(name)
        frames.append(display.frame().tobytes())
    assert frames[0] == frames[1] == frames[2]
    display.show_error("")
    assert display.frame().tobytes() != frames[0]


def test_the_font_covers_every_character_in_the_editions() -> None:
    """Every character in the seeds and the rules' texts has a glyph of its own."""
    from pathlib import Path

    from hardware.fonts import oled_font

    root = Path(__file__).resolve().parents[2]
    files = [*root.glob("seeds/**/*.toml"), *root.glob("companion/editions/**/*.py"),
             *root.glob("companion/monopoly/*.py"), *root.glob("companion/engine/*.py")]
    files.remove(root / "companion/engine/i18n.py")  # the pseudo-language's marks: tests only
    text = "".join(f.read_text(encoding="utf-8") for f in files)
    chars = {c for c in text if c.isprintable()}
    missing = sorted(c for c in chars if not oled_font().has(c))
    assert missing == []
    for sample in "ÀÿĀžƒΑωАяЁўЇ€₥₽₴“”‘’„–—…•№™←→★♥♀♂■✕✓":
        assert oled_font().has(sample), sample


# -- a missing or unplugged panel (issue 12, fault 2) ---------------------------------------

def panel(bus: Any, now: list[float], status: list[Any]) -> Display:
    from hardware.display import make_opener

    opener = make_opener(DisplayConfig(kind="ssd1306"), serial=bus)
    return Display(opener=opener, clock=lambda: now[0],
                   on_status=lambda part, ok, msg: status.append((part, ok, msg)))


def test_a_missing_panel_at_start_is_retried_and_shows_the_game_when_plugged_in() -> None:
    """No OLED at start (luma's I2C: remote I/O error): the companion starts anyway, says the
    screen is missing, keeps the page's mirror up to date, and shows the latest frame on the
    panel once it is plugged in."""
    from hardware.display import FakeI2C

    bus, now, status = FakeI2C(), [0.0], []
    bus.unplug()
    display = panel(bus, now, status)
    display.show_game(VIEW)  # must not raise
    assert display.status() == (False, "cannot open: [Errno 121] Remote I/O error")
    assert status == [("screen", False, "cannot open: [Errno 121] Remote I/O error")]
    mirror = display.frame().tobytes()
    assert mirror != Image.new("1", (128, 64)).tobytes()
    bus.replug()
    now[0] = 0.5
    display.tick()  # too early: the pause is 1 s
    assert display.device is None
    now[0] = 1.0
    display.tick()
    assert display.status() == (True, "screen ready") and status[-1][1] is True
    assert bus.frames > 0  # the latest frame reached the panel


def test_a_panel_unplugged_while_running_is_retried_with_growing_pauses() -> None:
    """Unplugging the OLED mid-game: frames keep going to the page's mirror, the screen is
    reported missing, reopened after 1 s, then 2 s, ..., and works again when replugged."""
    from hardware.display import FakeI2C, make_opener

    bus, now, status, tries = FakeI2C(), [0.0], [], []
    real = make_opener(DisplayConfig(kind="ssd1306"), serial=bus)
    assert real is not None

    def opener() -> Any:
        tries.append(now[0])
        return real()

    display = Display(opener=opener, clock=lambda: now[0],
                      on_status=lambda part, ok, msg: status.append(ok))
    bus.unplug()
    for t in (0.0, 0.5, 1.0, 2.0, 2.9, 3.0):
        now[0] = t
        display.show_error(f"at {t}")  # never raises
    assert tries == [0.0, 1.0, 3.0]  # opened at start; then after 1 s, then after 2 s more
    assert status[:2] == [True, False] and True not in status[1:]
    assert display.frame().tobytes() != Image.new("1", (128, 64)).tobytes()
    bus.replug()
    now[0] = 7.0
    display.tick()
    assert display.device is not None and display.status() == (True, "screen ready")
    assert status[-1] is True
    display.close()


def test_a_missing_i2c_bus_is_a_missing_screen_not_a_crash() -> None:
    """Without /dev/i2c-N (I2C not enabled) luma raises DeviceNotFoundError: reported, retried."""
    from luma.core.error import DeviceNotFoundError

    def opener() -> Any:
        raise DeviceNotFoundError("I2C device not found: /dev/i2c-1")

    display = Display(opener=opener)
    display.show_error("still fine")
    assert display.status() == (False, "cannot open: I2C device not found: /dev/i2c-1")
    assert display.frame().tobytes() != Image.new("1", (128, 64)).tobytes()


def test_a_drawing_fault_never_escapes(display: Display) -> None:
    """Whatever goes wrong while drawing, the screen says so and the caller goes on."""
    def broken(draw: Any) -> None:
        raise RuntimeError("boom")

    display.render(broken)
    assert display.frame().tobytes() != Image.new("1", (128, 64)).tobytes()


def test_a_panel_that_lost_power_shows_the_screen_again_within_seconds() -> None:
    """A brown-out or a loose wire between two frames: the panel comes back dark with a blank
    RAM and still acknowledges every write (it stayed blank for ever)."""
    from hardware.display import REFRESH_S, FakeI2C

    bus, now, status = FakeI2C(), [0.0], []
    display = panel(bus, now, status)
    display.show_game(VIEW)
    shown = bus.shown()
    assert shown is not None and any(shown)
    bus.power_cycle()
    assert bus.shown() is None
    for _ in range(int(REFRESH_S / 0.05) + 1):  # the polling thread ticks every 50 ms
        now[0] += 0.05
        display.tick()
    assert REFRESH_S <= 5 and bus.shown() == shown
    frames = bus.frames
    for _ in range(10):  # a panel that keeps its power sees no more than its refresh
        now[0] += 0.05
        display.tick()
    assert bus.frames == frames and status == [("screen", True, "screen ready")]
