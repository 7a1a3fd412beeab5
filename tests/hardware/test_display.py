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
    display.show_join("http://192.168.1.23:8000/join", "K7P2")
    assert_matches_reference(display.frame(), "join")


def test_join_qr_is_dark_on_lit_and_fits(display: Display) -> None:
    display.show_join("http://192.168.1.23:8000/join", "K7P2")
    frame = display.frame()
    size = len(qr_matrix("http://192.168.1.23:8000/join"))
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
    text = "".join(f.read_text(encoding="utf-8") for f in files)
    chars = {c for c in text if c.isprintable()}
    missing = sorted(c for c in chars if not oled_font().has(c))
    assert missing == []
    for sample in "ÀÿĀžƒΑωАяЁўЇ€₥₽₴“”‘’„–—…•№™←→★♥♀♂■✕✓":
        assert oled_font().has(sample), sample
