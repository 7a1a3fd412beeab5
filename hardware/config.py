"""The ``[hardware]`` part of the config file, checked into dataclasses.

Example (pins are BCM numbers)::

    [hardware.taps]
    poll_ms = 50          # pause between two polls of a reader
    removal_ms = 380      # a tag silent this long ...
    removal_polls = 6     # ... and for this many polls in a row has been lifted

    [[hardware.readers]]
    role = "table"        # what on_tap(role, uid) receives
    kind = "mfrc522"      # or "fake"
    bus = 0               # 1: SPI1 (dtoverlay=spi1-1cs), a second reader's own bus
    device = 0            # chip select: 0 = CE0 (GPIO8; SPI1: GPIO18), 1 = CE1 (GPIO7)
    rst_pin = 25          # a second reader: 24
    spi_hz = 1000000      # SPI clock, at most 10 MHz (the MFRC522's limit); lower for long wires
    gain_db = 33          # receiver gain: 18, 23, 33, 38, 43 or 48 (more reaches farther tags)
    timeout_ms = 10       # how long the chip waits for a tag's answer (1-100)

    [hardware.display]
    kind = "ssd1306"      # "sh1106", "dummy" or "none"
    i2c_port = 1
    i2c_address = 0x3C

    [hardware.buttons]
    kind = "gpio"         # "mock" or "none"
    prev = 5
    next = 6
    ok = 13               # pressing prev and next together means "back"
    hold_ms = 800         # holding prev or next this long makes big, repeating steps
    debounce_ms = 40      # a press counts if the button was up this long before it
    press_ms = 20         # ... and stays down this long (a spike on a long wire does not)

    [hardware.feedback]
    kind = "gpio"         # "mock" or "none"
    green = 16
    red = 26
    buzzer = 12
    buzzer_kind = "active"   # or "passive" (a piezo that plays tones)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.engine.i18n import LANGUAGES, PSEUDO, SOURCE, Msg, said
from hardware.taps import TapSettings

RESERVED_PINS = {2: "I2C1 SDA (OLED)", 3: "I2C1 SCL (OLED)", 7: "SPI0 CE1", 8: "SPI0 CE0",
                 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"}
SPI1_PINS = {19: "SPI1 MISO", 20: "SPI1 MOSI", 21: "SPI1 SCLK"}
"""SPI1 (``dtoverlay=spi1-1cs``): a second reader's own bus, so no two RC522 boards share a
MISO line (cheap boards do not release it; docs/raspberry-pi.md)."""
SPI1_CE = {0: 18, 1: 17, 2: 16}


class HardwareConfigError(ValueError):
    """A bad value in ``[hardware]``; the message names the key."""


@dataclass(frozen=True, slots=True)
class ReaderConfig:
    role: str
    """Name passed to on_tap, e.g. "table", "bank", "catch"."""
    kind: str = "mfrc522"
    """"mfrc522" (a real reader) or "fake" (fed by virtual taps)."""
    bus: int = 0
    device: int = 0
    """SPI chip select: 0 for CE0, 1 for CE1."""
    rst_pin: int = 25
    """BCM pin wired to the reader's RST; readers may share one."""
    spi_hz: int = 1_000_000
    """SPI clock in Hz, at most 10 MHz (the MFRC522's limit)."""
    gain_db: int = 33
    """Receiver gain (RFCfgReg.RxGain): 18, 23, 33, 38, 43 or 48 dB."""
    timeout_s: float = 0.010
    """How long the chip's timer waits for a tag's answer."""


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    kind: str = "ssd1306"
    """"ssd1306", "sh1106", "dummy" (in memory) or "none"."""
    i2c_port: int = 1
    i2c_address: int = 0x3C
    rotate: int = 0
    """0-3, quarter turns."""
    language: str = "en"
    """The table's language on the screen: "en", "it" or "es" (docs/translating.md); "qps",
    the pseudo-language, shows what is not from the catalogue (every message decorated ⟦…⟧)."""


@dataclass(frozen=True, slots=True)
class ButtonsConfig:
    kind: str = "gpio"
    """"gpio", "mock" or "none"."""
    prev: int = 5
    next: int = 6
    ok: int = 13
    hold_s: float = 0.8
    """Holding prev or next this long makes big, repeating steps."""
    debounce_s: float = 0.04
    """A press counts only if the button had been up this long (contact chatter)."""
    press_s: float = 0.02
    """... and has been down this long: a spike on the wire is not a press."""


@dataclass(frozen=True, slots=True)
class FeedbackConfig:
    kind: str = "gpio"
    """"gpio", "mock" or "none"."""
    green: int = 16
    red: int = 26
    buzzer: int = 12
    buzzer_kind: str = "active"
    """"active" (beeps by itself) or "passive" (plays tones by PWM)."""


@dataclass(frozen=True, slots=True)
class HardwareConfig:
    readers: tuple[ReaderConfig, ...] = (ReaderConfig("table"),)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    feedback: FeedbackConfig = field(default_factory=FeedbackConfig)
    taps: TapSettings = field(default_factory=TapSettings)


def load_hardware_config(raw: Mapping[str, Any] | None) -> HardwareConfig:
    """Check the ``[hardware]`` table (as parsed from TOML) and build the config.

    Missing keys take the defaults above; unknown keys and bad values raise
    HardwareConfigError naming the key.
    """
    raw = dict(raw or {})
    _known(raw, "hardware", {"readers", "display", "buttons", "feedback", "taps"})
    readers_raw = raw.get("readers", [{"role": "table"}])
    if not isinstance(readers_raw, list) or not readers_raw:
        raise HardwareConfigError(Msg("hardware.readers must be a non-empty list of tables"))
    readers = tuple(_reader(r, i) for i, r in enumerate(readers_raw))
    roles = [r.role for r in readers]
    if len(set(roles)) != len(roles):
        raise HardwareConfigError(Msg("hardware.readers: roles must differ, got {roles}",
                                       roles=str(roles)))
    selects = [(r.bus, r.device) for r in readers if r.kind == "mfrc522"]
    if len(set(selects)) != len(selects):
        raise HardwareConfigError(Msg("hardware.readers: two readers on the same bus and device"))
    taps_raw = _table(raw, "taps")
    _known(taps_raw, "hardware.taps", {"removal_ms", "poll_ms", "removal_polls"})
    w = "hardware.taps"
    try:
        taps = TapSettings(removal_s=_num(taps_raw, w, "removal_ms", 380) / 1000,
                           poll_s=_num(taps_raw, w, "poll_ms", 50) / 1000,
                           removal_polls=_int(taps_raw, w, "removal_polls", 6, 1, 100))
    except ValueError as exc:
        raise HardwareConfigError(Msg("hardware.taps: {reason}", reason=said(exc))) from exc
    cfg = HardwareConfig(readers, _display(_table(raw, "display")),
                         _buttons(_table(raw, "buttons")), _feedback(_table(raw, "feedback")), taps)
    _check_pins(cfg)
    return cfg


def _reader(raw: object, i: int) -> ReaderConfig:
    where = f"hardware.readers[{i}]"
    if not isinstance(raw, Mapping):
        raise HardwareConfigError(Msg("{where} must be a table", where=where))
    _known(raw, where, {"role", "kind", "bus", "device", "rst_pin", "spi_hz", "gain_db",
                        "timeout_ms"})
    role = raw.get("role")
    if not isinstance(role, str) or not role:
        raise HardwareConfigError(Msg("{where}.role must be a non-empty string such as \"table\"",
                                       where=where))
    return ReaderConfig(role, _choice(raw, where, "kind", ("mfrc522", "fake")),
                        _int(raw, where, "bus", 0, 0, 6), _int(raw, where, "device", 0, 0, 2),
                        _pin(raw, where, "rst_pin", 25),
                        _int(raw, where, "spi_hz", 1_000_000, 100_000, 10_000_000),
                        _gain(raw, where), _int(raw, where, "timeout_ms", 10, 1, 100) / 1000)


def _gain(raw: Mapping[str, Any], where: str) -> int:
    from hardware.nfc import GAINS_DB

    gain = _int(raw, where, "gain_db", 33, 18, 48)
    if gain not in GAINS_DB:
        raise HardwareConfigError(Msg("{where}.gain_db must be one of {gains}, not {value}",
                                      where=where, gains=", ".join(map(str, sorted(GAINS_DB))),
                                      value=str(gain)))
    return gain


def _display(raw: Mapping[str, Any]) -> DisplayConfig:
    w = "hardware.display"
    _known(raw, w, {"kind", "i2c_port", "i2c_address", "rotate", "language"})
    return DisplayConfig(_choice(raw, w, "kind", ("ssd1306", "sh1106", "dummy", "none")),
                         _int(raw, w, "i2c_port", 1, 0, 22),
                         _int(raw, w, "i2c_address", 0x3C, 0x03, 0x77),
                         _int(raw, w, "rotate", 0, 0, 3),
                         _choice(raw, w, "language", (SOURCE, *(lang for lang in LANGUAGES
                                                                if lang != SOURCE), PSEUDO)))


def _buttons(raw: Mapping[str, Any]) -> ButtonsConfig:
    w = "hardware.buttons"
    _known(raw, w, {"kind", "prev", "next", "ok", "hold_ms", "debounce_ms",
                   "press_ms"})
    hold = _num(raw, w, "hold_ms", 800) / 1000
    if not 0.1 <= hold <= 5:
        raise HardwareConfigError(_between(w, "hold_ms", 100, 5000))
    debounce = _num(raw, w, "debounce_ms", 40) / 1000
    if not 0.001 <= debounce <= 0.5:
        raise HardwareConfigError(_between(w, "debounce_ms", 1, 500))
    press = _num(raw, w, "press_ms", 20) / 1000
    if not 0.005 <= press <= 0.2:
        raise HardwareConfigError(_between(w, "press_ms", 5, 200))
    return ButtonsConfig(_choice(raw, w, "kind", ("gpio", "mock", "none")), _pin(raw, w, "prev", 5),
                         _pin(raw, w, "next", 6), _pin(raw, w, "ok", 13), hold, debounce,
                         press)


def _feedback(raw: Mapping[str, Any]) -> FeedbackConfig:
    w = "hardware.feedback"
    _known(raw, w, {"kind", "green", "red", "buzzer", "buzzer_kind"})
    return FeedbackConfig(_choice(raw, w, "kind", ("gpio", "mock", "none")),
                          _pin(raw, w, "green", 16), _pin(raw, w, "red", 26),
                          _pin(raw, w, "buzzer", 12),
                          _choice(raw, w, "buzzer_kind", ("active", "passive")))


def _check_pins(cfg: HardwareConfig) -> None:
    used: dict[int, str] = {}
    rst = {r.rst_pin for r in cfg.readers if r.kind == "mfrc522"}
    for pin in rst:
        used[pin] = "reader rst_pin"
    named: list[tuple[str, int]] = []
    if cfg.buttons.kind == "gpio":
        named += [(f"hardware.buttons.{k}", getattr(cfg.buttons, k))
                  for k in ("prev", "next", "ok")]
    if cfg.feedback.kind == "gpio":
        named += [(f"hardware.feedback.{k}", getattr(cfg.feedback, k))
                  for k in ("green", "red", "buzzer")]
    for name, pin in named:
        if pin in used:
            raise HardwareConfigError(Msg("{key} = {pin} is already used by {other}", key=name,
                                           pin=str(pin), other=used[pin]))
        used[pin] = name
    reserved = dict(RESERVED_PINS)
    for r in cfg.readers:
        if r.kind == "mfrc522" and r.bus == 1:
            reserved |= SPI1_PINS | {SPI1_CE[r.device]: f"SPI1 CE{r.device}"}
    for pin, name in used.items():
        if pin in reserved and (cfg.display.kind in ("ssd1306", "sh1106") or pin > 3):
            raise HardwareConfigError(Msg("{key} = GPIO{pin} collides with {reserved}", key=name,
                                           pin=str(pin), reserved=reserved[pin]))


def _between(where: str, key: str, lo: int, hi: int) -> Msg:
    return Msg("{where}.{key} must be between {lo} and {hi}", where=where, key=key, lo=str(lo),
               hi=str(hi))


def _table(raw: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = raw.get(key, {})
    if not isinstance(value, Mapping):
        raise HardwareConfigError(Msg("{where} must be a table", where=f"hardware.{key}"))
    return value


def _known(raw: Mapping[str, Any], where: str, keys: set[str]) -> None:
    unknown = sorted(set(raw) - keys)
    if unknown:
        raise HardwareConfigError(Msg("{where}: unknown key(s) {unknown}; known: {known}",
                                       where=where, unknown=str(unknown),
                                       known=str(sorted(keys))))


def _choice(raw: Mapping[str, Any], where: str, key: str, options: tuple[str, ...]) -> str:
    value = raw.get(key, options[0])
    if value not in options:
        raise HardwareConfigError(Msg("{where}.{key} must be one of {options}, got {value}",
                                       where=where, key=key, options=str(list(options)),
                                       value=repr(value)))
    return str(value)


def _int(raw: Mapping[str, Any], where: str, key: str, default: int, lo: int, hi: int) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise HardwareConfigError(Msg("{where}.{key} must be an integer {lo}..{hi}, got {value}",
                                       where=where, key=key, lo=str(lo), hi=str(hi),
                                       value=repr(value)))
    return value


def _num(raw: Mapping[str, Any], where: str, key: str, default: float) -> float:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise HardwareConfigError(Msg("{where}.{key} must be a positive number, got {value}",
                                       where=where, key=key, value=repr(value)))
    return float(value)


def _pin(raw: Mapping[str, Any], where: str, key: str, default: int) -> int:
    return _int(raw, where, key, default, 0, 27)
