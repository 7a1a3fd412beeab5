"""companion/service/table.py: what the table's screen shows as a game starts and goes on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.service.game_service import GameService
from companion.service.table import Table


class Screen:
    """Records what the table asks the hardware to show."""

    def __init__(self) -> None:
        self.shown: list[tuple[str, Any]] = []

    def show(self, view: dict[str, Any]) -> None:
        self.shown.append(("game", view["version"]))

    def show_join(self, url: str, code: str) -> None:
        self.shown.append(("join", (url, code)))

    def show_error(self, text: str) -> None:
        self.shown.append(("error", text))

    def show_enrollment(self, progress: Any) -> None:
        self.shown.append(("enrollment", progress))

    def signal(self, kind: str) -> None:
        self.shown.append(("signal", kind))


def test_a_new_game_shows_its_join_code_until_the_first_move(tmp_path: Path) -> None:
    """Right after the banker starts a game the OLED shows the QR code (the page's address
    with the game's join code) and the code itself; once play starts, it shows the game."""
    screen = Screen()
    with GameService(tmp_path) as service:
        table = Table(service, screen)
        table.public_url = "http://companion.local:8080"
        out = service.create_game({"edition": "mario", "players": ["Mario", "Luigi"],
                                   "dice": "physical", "settings": {"order": "seated"}})
        code = service.view(out.game_id)["join_code"]
        assert screen.shown[-1] == ("join", (f"http://companion.local:8080/?code={code}", code))
        service.submit(out.game_id, {"actor": "mario", "type": "roll", "args": {"dice": [3, 1]}})
        assert screen.shown[-1] == ("game", service.view(out.game_id)["version"])


def test_a_fault_from_any_source_reaches_the_screen(tmp_path: Path) -> None:
    """A notice the service publishes (a full disk, say) shows on the OLED and sounds the
    error signal, whoever sent the command."""
    screen = Screen()
    with GameService(tmp_path) as service:
        table = Table(service, screen)
        service._publish("", 0, {"text": "could not save", "level": "error"})
        service.call(lambda: None)  # told on the service thread, in order
        assert ("error", "could not save") in screen.shown
        assert ("signal", "error") in screen.shown
        assert table.last_notice == {"text": "could not save", "level": "error"}


# -- the buttons and the served game (issue 12, faults 5 and 8) ------------------------------

MARIO = {"edition": "mario", "dice": "digital", "seed": 4, "settings": {"order": "seated"},
         "players": [{"name": "Mario", "token": "Super Mushroom"},
                     {"name": "Luigi", "token": "DK Barrel"}]}


def simulated_table(service: GameService) -> Table:
    from hardware.table import TableHardware

    holder: dict[str, Table] = {}
    hw = TableHardware.from_config({}, on_tap=lambda r, u: holder["t"].tap(r, u),
                                   on_action=lambda a, e: holder["t"].press_action(a, e),
                                   simulate=True)
    holder["t"] = Table(service, hw)
    return holder["t"]


def test_a_late_button_press_cannot_act_on_a_newer_prompt(tmp_path: Path) -> None:
    """The OLED showed Mario's roll; a phone rolled first. An OK that reaches the companion
    only now (a contact bounce, a slow redraw) carries the version it was shown and is
    refused as stale: the game does not move, and the table says why."""
    with GameService(tmp_path) as service:
        table = simulated_table(service)
        hw = table.hardware
        try:
            gid = service.create_game(MARIO).game_id
            shown = service.view(gid)
            service.submit(gid, {"actor": "mario", "type": "roll", "args": {}})
            moved = service.view(gid)["version"]
            hw.show(shown)  # what the buttons still answer when the late press arrives
            hw.press("ok")
            assert service.view(gid)["version"] == moved
            assert table.last_notice is not None
            assert "changed since you looked" in table.last_notice["text"]
            hw.show(service.view(gid))
            hw.press("ok")  # a press on what is shown now acts
            assert service.view(gid)["version"] > moved
        finally:
            hw.stop()


def test_the_banker_chooses_which_game_the_table_serves(tmp_path: Path) -> None:
    """With two games open the table serves the newest; the banker can switch it to the
    other (taps and the screen follow, and the choice survives a restart); a new game is
    served as soon as it is created; an unknown or ended game cannot be chosen."""
    from companion.engine.types import RuleError
    from companion.service.game_service import GameNotFound

    with GameService(tmp_path) as service:
        table = Table(service, Screen())
        table.registry.enroll("04000000000001", "mario", "token:Super Mushroom")
        older = service.create_game(MARIO).game_id
        newer = service.create_game(MARIO).game_id
        assert table.served_game() == newer
        assert table.serve(older)["game_id"] == older
        assert table.hardware.shown[-1] == ("game", service.view(older)["version"])
        before = service.view(older)["version"]
        assert table.tap("table", "04000000000001").ok  # Mario's token rolls in the older game
        assert service.view(older)["version"] > before
        assert not service.view(newer)["last_roll"]
        with pytest.raises(GameNotFound):
            table.serve("nope")
        assert table.served_game() == older
    with GameService(tmp_path) as service:
        table = Table(service, Screen())
        assert table.served_game() == older
        newest = service.create_game(MARIO).game_id
        assert table.served_game() == newest
        assert service.submit(older, {"actor": "banker", "type": "end_game", "args": {}}).ok
        with pytest.raises(RuleError, match="ended"):
            table.serve(older)


# -- `companion run` starts whatever the screen makes of the game (issue 12, faults 1, 2) ----

def run_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: dict[str, Any],
             on_pi: bool = False) -> tuple[int, Any]:
    """``companion run`` up to the point it serves the page, then stopped; returns its exit
    code and the hardware facade it built."""
    import argparse
    import signal
    import socket

    import companion.app.runner
    import web.server
    from hardware.table import TableHardware

    seen: dict[str, Any] = {}
    original = TableHardware.from_config

    def spy(cls: Any, *args: Any, **kw: Any) -> Any:
        seen["hw"] = original.__func__(cls, *args, **kw)  # type: ignore[attr-defined]
        return seen["hw"]

    monkeypatch.setattr(TableHardware, "from_config", classmethod(spy))
    monkeypatch.setattr(web.server, "serve_bound", lambda srv: srv.sock.close())  # never served
    monkeypatch.setattr(companion.app.runner, "on_raspberry_pi", lambda: on_pi)
    old_term = signal.getsignal(signal.SIGTERM)
    with socket.socket() as free:  # a port nobody holds (0 means the default 8080)
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    args = argparse.Namespace(host="127.0.0.1", port=port, state_dir=tmp_path, simulate=False,
                              pin="20461379", no_mdns=True)
    try:
        code = companion.app.runner.run_companion(config, args)
    finally:
        signal.signal(signal.SIGTERM, old_term)
    return code, seen["hw"]


def test_run_starts_with_names_and_money_signs_the_old_font_lacked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Star Wars game (₥) with players Дмитрий and “Zoë”: `companion run` exited 1 with a
    UnicodeEncodeError at every start. Now it starts and the screen shows the game."""
    with GameService(tmp_path) as service:
        gid = service.create_game({"edition": "starwars", "players": ["Дмитрий", "“Zoë”"],
                                   "dice": "digital", "seed": 10,
                                   "settings": {"order": "seated"}}).game_id
        assert service.submit(gid, {"actor": "дмитрий", "type": "roll", "args": {}}).ok
        assert "₥" in " ".join(service.view(gid)["log"]) + str(service.view(gid)["players"])
    code, hw = run_once(tmp_path, monkeypatch, {})
    assert code == 0
    assert hw.display.frame().getbbox() is not None  # something is drawn


def test_run_starts_without_its_screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a Pi whose OLED is missing (no I2C bus), `companion run` serves the page anyway and
    reports the screen as not working (it used to die with luma's DeviceNotFoundError)."""
    config = {"hardware": {"readers": [{"role": "table", "kind": "fake"}],
                           "display": {"kind": "ssd1306", "i2c_port": 22},
                           "buttons": {"kind": "mock"}, "feedback": {"kind": "mock"}}}
    code, hw = run_once(tmp_path, monkeypatch, config, on_pi=True)
    assert code == 0
    assert hw.status()["screen"]["working"] is False


@pytest.mark.parametrize("name", ["pokemon-two-trainers.json", "master-trainer-two-players.json"])
def test_the_buzzer_tells_a_catch_and_a_win_by_what_happened(tmp_path: Path, name: str) -> None:
    """The catch tune plays for a Pokémon caught (never for "X: Ash catches nothing."), the
    win tune for the game's end; decided by the events, not by the English of their lines
    (issue 41)."""
    import json

    from companion.service import script

    examples = Path(__file__).resolve().parents[1] / "examples"
    data = json.loads((examples / name).read_text("utf-8"))
    screen = Screen()
    heard, wanted = [], []
    with GameService(tmp_path) as service:
        table = Table(service, screen)
        gid = str(service.create_game(script.script_setup(data)).game_id)
        for step in data["steps"]:
            before = service.view(gid)["version"]
            out = service.submit(gid, script.parse_step(service.state(gid)[1], step))
            assert out.ok, out.error
            table._feedback(out)
            heard.append(screen.shown[-1][1] if screen.shown[-1][0] == "signal" else None)
            kinds = [r.event.type for r in service.call(service.store.rows, gid)
                     if r.seq > before]
            wanted.append("win" if "finished" in kinds else "catch" if any(
                k.endswith("_caught") for k in kinds) else "ok")
    assert "catch" in wanted and wanted[-1] == "win"
    assert heard == wanted
