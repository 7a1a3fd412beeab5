"""A wrong ``[venue]``, ``[home_assistant]`` or ``[hardware]`` value is refused by
``companion run`` in the terminal's language (issue 41), the key and value as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app import cli

BROKER = 'broker = "mqtt.local"\n'
REFUSALS = [
    (f'[venue]\n{BROKER}venue = "pub"\ntable = "t1"\nport = 0\n',
     {"it": "companion: [venue] port = 0: un numero da 1 a 65535.",
      "es": "companion: [venue] port = 0: un número del 1 al 65535."}),
    (f'[home_assistant]\n{BROKER}language = "fr"\n',
     {"it": "companion: [home_assistant] language = 'fr': una lingua tra en, es, it.",
      "es": "companion: [home_assistant] language = 'fr': un idioma entre en, es, it."}),
    (f'[home_assistant]\n{BROKER}port = 0\n',
     {"it": "companion: [home_assistant] port = 0: un numero da 1 a 65535.",
      "es": "companion: [home_assistant] port = 0: un número del 1 al 65535."}),
    ('[hardware.buttons]\nhold_ms = 1\n',
     {"it": "companion: [hardware] nella configurazione: hardware.buttons.hold_ms dev'essere "
            "tra 100 e 5000",
      "es": "companion: [hardware] en la configuración: hardware.buttons.hold_ms debe estar "
            "entre 100 y 5000"}),
    ('[hardware.display]\nrotate = 9\n',
     {"it": "companion: [hardware] nella configurazione: hardware.display.rotate dev'essere "
            "un intero da 0 a 3, non 9",
      "es": "companion: [hardware] en la configuración: hardware.display.rotate debe ser "
            "un entero del 0 al 3, no 9"}),
]


@pytest.mark.parametrize("lang", ["it", "es"])
@pytest.mark.parametrize(("toml", "said"), REFUSALS)
def test_a_wrong_section_value_is_refused_in_the_terminals_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        toml: str, said: dict[str, str], lang: str) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", f"{lang}_ES.UTF-8" if lang == "es" else f"{lang}_IT.UTF-8")
    config = tmp_path / "companion.toml"
    config.write_text(toml, "utf-8")
    code = cli.main(["run", "--config", str(config), "--simulate", "--state-dir",
                     str(tmp_path / "state"), "--port", "0"])
    assert code == 2
    assert capsys.readouterr().err.strip() == said[lang]
    assert not (tmp_path / "state").exists()  # refused before anything starts
