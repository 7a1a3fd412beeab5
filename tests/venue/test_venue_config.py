"""``[venue]`` in the config: off by default, and a clear message for anything wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.config import load_config, venue_settings
from companion.platform.config import ConfigError

GOOD = """
[venue]
broker = "venue.local"
venue = "cafe"
table = "t07"
username = "t07"
password = "s3cret"
"""


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "config.toml"
    p.write_text(text)
    return p


def test_no_venue_section_means_no_publishing(tmp_path: Path) -> None:
    assert venue_settings(load_config(write(tmp_path, "[server]\nport = 8080\n"))) is None


def test_a_good_venue_section(tmp_path: Path) -> None:
    s = venue_settings(load_config(write(tmp_path, GOOD)))
    assert (s.broker, s.port, s.venue, s.table, s.username, s.tls) == (
        "venue.local", 1883, "cafe", "t07", "t07", False)
    tls = venue_settings(load_config(write(tmp_path, GOOD + "tls = true\n")))
    assert tls.port == 8883


@pytest.mark.parametrize("change,message", [
    ('table = "t07"', "one level of the MQTT topic"),
    ('broker = "venue.local"', "needs broker"),
])
def test_missing_keys_are_named(tmp_path: Path, change: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(write(tmp_path, GOOD.replace(change, "")))


@pytest.mark.parametrize("extra,message", [
    ('table = "t/07"', "one level of the MQTT topic"),
    ('table = "#"', "one level of the MQTT topic"),
    ('table = "screen"', "venue screen's account"),
    ("port = 70000", "1 to 65535"),
    ('tls = "yes"', "true or false"),
    ('colour = "red"', "Unknown key"),
    ('ca_file = "/nonexistent/ca.pem"', "not a readable file"),
])
def test_bad_values_are_refused_with_the_fix(tmp_path: Path, extra: str, message: str) -> None:
    key = extra.split(" ", 1)[0]
    text = "\n".join(line for line in GOOD.splitlines() if not line.startswith(key + " "))
    with pytest.raises(ConfigError, match=message):
        load_config(write(tmp_path, text + "\n" + extra + "\n"))


@pytest.mark.parametrize("args,message", [
    (["--listen", "nowhere"], "address:port"),
    (["--venue", "caf/e"], "letters, digits"),
])
def test_the_venue_command_explains_bad_options(args: list[str], message: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from companion.app.cli import main

    assert main(["venue", "--broker", "127.0.0.1", *args]) == 2
    assert message in capsys.readouterr().err
