"""When the box cannot start, the OLED keeps saying why after the process has exited, in the
table's language (issue 42, item 3): luma's exit hook switched the panel off (0 pixels after
exit) and the words were English on Italian and Spanish tables."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.engine.i18n import Msg
from hardware import screens
from hardware.config import DisplayConfig
from hardware.display import Display, FakeI2C, make_opener

CHILD = textwrap.dedent("""
    import atexit, sys
    from pathlib import Path
    import companion.app.runner
    from hardware.display import FakeI2C
    from hardware.table import TableHardware

    bus, out = FakeI2C(), Path(sys.argv[1])
    # registered first, so it runs last: what the glass shows once every exit hook has run
    atexit.register(lambda: out.write_bytes(b"dark" if bus.shown() is None else bus.shown()))
    real = TableHardware.from_config.__func__

    def on_the_pi(cls, cfg, *args, **kw):
        return real(cls, cfg, *args, **{**kw, "display_serial": bus})

    TableHardware.from_config = classmethod(on_the_pi)
    companion.app.runner.on_raspberry_pi = lambda: True
    from companion.app.cli import main
    sys.exit(main(sys.argv[2:]))
""")


def glass(text: str, language: str) -> bytes:
    """What a panel shows for this error on a table in ``language``."""
    bus = FakeI2C()
    display = Display(opener=make_opener(DisplayConfig(kind="ssd1306"), serial=bus))
    display.language = language
    display.show_error(text)
    shown = bus.shown()
    assert shown is not None
    return shown


@pytest.mark.parametrize("language", ["it", "es", "en"])
def test_a_damaged_database_stays_on_the_oled_after_exit_in_the_tables_language(
        tmp_path: Path, language: str) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "companion.db").write_bytes(b"this is not a database " * 200)
    config = tmp_path / "config.toml"
    config.write_text(textwrap.dedent(f"""
        [hardware.display]
        kind = "ssd1306"
        language = "{language}"
        [[hardware.readers]]
        role = "table"
        kind = "fake"
        [hardware.buttons]
        kind = "none"
        [hardware.feedback]
        kind = "none"
    """), "utf-8")
    out = tmp_path / "glass"
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(out), "run", "--config", str(config), "--state-dir",
         str(state), "--no-mdns", "--port", "1"], cwd=root, capture_output=True, text=True,
        timeout=120)
    assert done.returncode != 0, done.stdout + done.stderr
    shown = out.read_bytes()
    assert shown != b"dark", "the panel went dark at exit"
    reason = Msg("Database damaged: restore a backup (see the journal).")
    assert shown == glass(reason, language)
    assert screens.error_pages(reason, language) == 1  # the one page left shows it whole
    if language != "en":
        assert shown != glass(reason, "en")


def test_every_reason_not_to_start_fits_one_page_in_every_language() -> None:
    """Only the first page stays on a panel once the process has exited."""
    from companion.store.errors import StoreError, StoreLost

    reasons = [StoreError("x", kind).screen for kind in ("damaged", "read_only", "busy")]
    reasons += [StoreLost("x").screen, Msg("Games would be lost at reboot: state folder in "
                                           "memory. See the journal.")]
    for reason in reasons:
        assert isinstance(reason, Msg)
        assert [screens.error_pages(reason, lang) for lang in ("en", "it", "es")] == [1, 1, 1]


def test_a_reader_that_stops_answering_is_said_in_the_tables_language(tmp_path: Path) -> None:
    """"Reader table: stopped answering: …. Retrying." was English on an Italian table."""
    import time

    from reliability.faults import _runner_args, in_process_runner

    from companion.app.runner import run_companion
    from companion.engine.i18n import render

    def serve(hw: object) -> None:
        slot = hw._slots["table"]  # type: ignore[attr-defined]
        slot.reader.fail_opens = 10**6
        slot.reader.close()  # unplugged: the next read fails
        end = time.monotonic() + 60  # the polling thread's next pass, however loaded
        while time.monotonic() < end and not seen["oled"]:
            time.sleep(0.05)

    with in_process_runner(serve) as seen:
        run_companion({"hardware": {"display": {"language": "it"}}},
                      _runner_args(tmp_path / "state"))
    said = render(seen["oled"][0], "it")
    assert said.startswith("Lettore table: non risponde più: "), said
    assert said.endswith(". Nuovo tentativo in corso."), said
