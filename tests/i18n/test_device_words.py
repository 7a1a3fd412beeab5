"""The table's devices as the banker's phone lists them (GET /api/table): each name and state
is a message, read in the phone's language ("schermo: non funziona"), and the phone kind a seat
request names ("unknown browser") too."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from web_helpers import PIN, Phone  # noqa: E402

from companion.engine.i18n import Msg, render  # noqa: E402
from companion.service.game_service import GameService  # noqa: E402
from companion.service.table import Table  # noqa: E402
from hardware.display import FakeI2C  # noqa: E402
from hardware.table import TableHardware  # noqa: E402
from web import create_app  # noqa: E402
from web.seat_reclaim import device  # noqa: E402


def test_every_device_name_and_state_reads_in_italian(tmp_path: Path) -> None:
    bus = FakeI2C()
    bus.unplug()
    now = [0.0]
    service = GameService(tmp_path).start()
    hw = TableHardware.from_config(
        {"readers": [{"role": "table", "kind": "fake"}], "display": {"kind": "ssd1306"},
         "buttons": {"kind": "mock"}, "feedback": {"kind": "mock"}},
        on_tap=lambda r, u: None, on_action=lambda a, e: None, display_serial=bus,
        clock=lambda: now[0])
    try:
        app = create_app(service, hardware=hw, config={"banker_pin": PIN,
                                                       "table": Table(service, hw)})
        phone = Phone(app.test_client()).login()
        bus.replug()
        now[0] = 1.0
        hw.tick()
        devices = phone.get("/api/table").get_json()["devices"]
        said = {d["name"]: (render(Msg.from_json(d["label"]), "it"),
                            render(Msg.from_json(d["message"]), "it")) for d in devices}
        assert said["screen"] == ("schermo", "schermo pronto")
        assert said["buttons"][0] == "pulsanti"
        assert said["lights and buzzer"][0] == "luci e cicalino"
        assert said["reader table"][0] == "lettore table"
        assert said["reader table"][1] in ("lettore pronto", "non ancora provato")
    finally:
        hw.stop()
        service.stop()


def test_an_unknown_phone_kind_is_a_message() -> None:
    assert render(device("curl/8.0"), "es") == "navegador desconocido"
    assert device("Mozilla/5.0 (iPhone) Safari/605.1") == "iPhone Safari"


def test_the_start_up_and_device_fault_screens_read_in_the_tables_language() -> None:
    """The OLED's start-up failures and a device gone missing are messages (issue 41): a
    damaged, read-only or busy database, a deleted one, a state directory in memory, a
    reader unplugged."""
    from companion.store.errors import StoreError, StoreLost

    screens = [StoreError("x", kind).screen for kind in ("damaged", "read_only", "busy")]
    screens += [StoreLost("x").screen, device_fault("table")]
    assert str(screens[0]).startswith("Database damaged")
    assert str(screens[-1]) == "Reader table: stopped answering: I/O. Retrying."
    for text in screens:
        assert isinstance(text, Msg), text
        for lang in ("it", "es"):
            assert render(text, lang) != str(text), (lang, text)


def device_fault(part: str) -> Msg:
    """What the OLED shows when ``part`` stops answering (companion/app/runner.py)."""
    import companion.app.runner as runner
    shown: list[Msg] = []
    problem = Msg("stopped answering: {reason}", reason="I/O")
    if hasattr(runner, "device_changed"):
        runner.device_changed(shown.append, part, False, problem)
        return shown[0]
    device = Msg("Reader {role}", role=part)  # the same message, said by on_status
    return Msg("{device}: {problem}. Retrying.", device=device, problem=problem)
