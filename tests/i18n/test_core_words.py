"""The shared core's own lines read in each reader's language (issue 41, item 3): the banker's
undo, the refusals every edition shares, the framing of stories and history."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.i18n import Msg, render
from companion.service.game_service import GameService

SETUP = {"edition": "mario", "players": ["Lucía", "Sofía"], "dice": "physical", "seed": 5,
         "settings": {"order": "seated"}}


@pytest.fixture
def service(tmp_path: Path) -> GameService:
    svc = GameService(tmp_path).start()
    yield svc
    svc.stop()


def _game(service: GameService) -> tuple[str, str]:
    out = service.create_game(SETUP)
    assert out.ok, out.error
    first = service.view(out.game_id)["players"][0]["id"]
    return out.game_id, first


def _roll(service: GameService, gid: str, actor: str, dice: list[int]) -> None:
    out = service.submit(gid, {"actor": actor, "type": "roll", "args": {"dice": dice}})
    assert out.ok, out.error


def test_the_banker_undo_is_announced_in_each_language(service: GameService) -> None:
    gid, first = _game(service)
    _roll(service, gid, first, [3, 1])
    out = service.undo(gid)
    assert out.ok, out.error
    said = out.says[0]
    assert said == "The banker undoes Lucía's roll."  # the English line, as before
    assert isinstance(said, Msg)
    assert render(said, "it") == "Il banchiere annulla il tiro di Lucía."
    assert render(said, "es") == "La banca deshace la tirada de Lucía."


def test_an_undo_of_several_moves_counts_them_in_each_language(service: GameService) -> None:
    gid, first = _game(service)
    _roll(service, gid, first, [3, 1])
    cmd = service.commands(gid)[-1]["cmd"]
    view = service.view(gid)
    for action in view["actions"]:  # whatever the roll left to answer: one more move
        if action["type"] in ("buy", "decline", "pass", "end_turn", "skip"):
            assert service.submit(gid, {"actor": action["actor"], "type": action["type"],
                                        "args": action.get("args") or {}}).ok
            break
    out = service.undo(gid, cmd)
    assert out.ok, out.error
    assert out.says[0] == "The banker undoes Lucía's roll and the move after it."
    assert render(out.says[0], "es") == ("La banca deshace la tirada de Lucía y la jugada "
                                         "siguiente.")


def test_a_move_is_named_as_a_message() -> None:
    from companion.plugins.editions import find_edition
    from companion.service.game_record import move_words
    names, rules = {"a": "Lucía"}, find_edition("pokemon")
    assert render(move_words({"actor": "a", "type": "roll"}, names, rules), "es") == \
        "la tirada de Lucía"
    assert render(move_words({"actor": "banker", "type": "transfer"}, names, rules), "it") == (
        "il trasferimento del banchiere")
    assert render(move_words({"actor": "a", "type": "mystery"}, names, rules), "it") == (
        "la mossa di Lucía")


POKEMON = {"edition": "pokemon", "players": ["Lucía", "Sofía"], "dice": "physical", "seed": 5,
           "settings": {"order": "seated"}}


def _trade(service: GameService, give: object, get: object, to: object = None) -> str:
    gid = service.create_game(POKEMON).game_id
    players = service.view(gid)["players"]
    out = service.submit(gid, {"actor": players[0]["id"], "type": "propose_trade",
                               "args": {"to": to or players[1]["id"], "give": give,
                                        "take": get}})
    assert not out.ok
    return out.error


def test_a_trade_refusal_reads_in_each_language(service: GameService) -> None:
    said = _trade(service, {"money": 0}, {"money": 999})
    assert said == "Sofía does not have 999 Poké Balls."
    assert isinstance(said, Msg)
    assert render(said, "es") == "Sofía no tiene 999 Poké Balls."
    assert render(said, "it") == "Sofía non ha 999 Poké Ball."


def test_an_argument_refusal_reads_in_each_language(service: GameService) -> None:
    said = _trade(service, {"money": 0}, {"money": 1}, to=[1, 2])
    assert said.startswith("Argument 'to' of 'propose_trade' must be")
    assert isinstance(said, Msg)
    assert render(said, "es").startswith("El argumento 'to' de 'propose_trade' debe ser")
    assert render(said, "it").startswith("L'argomento 'to' di 'propose_trade' deve essere")
    assert "must" not in render(said, "it") and " or " not in render(said, "it")


@pytest.mark.parametrize(("lang", "mark"), [("it", "(vince)"), ("es", "(gana)")])
def test_the_winners_mark_has_no_gender(lang: str, mark: str) -> None:
    """The story's and history's mark beside a winner's name reads right for Lucía and for
    Mario alike ("Lucía (ganador)" was masculine): a verb, not a gendered noun."""
    from companion.engine.i18n import catalogue
    cat = catalogue(lang)
    assert cat is not None
    assert cat.get("(winner)").string == mark


def test_a_readings_citation_reads_in_each_language() -> None:
    """A rule the companion reads (a reading) is framed in the reader's words: "lectura: …"
    where it said "reading: The ranking…" on every phone; a rulebook's quote stays its
    English quotation."""
    from companion.engine.i18n import catalogue
    from companion.plugins.editions import find_edition, known
    seen = 0
    for name in known():
        rules = find_edition(name)
        for rule, entry in rules.citations().items():
            if "reading" not in entry:
                continue
            cited = rules.citation(rule)
            assert cited is not None
            topic = rules.reading_topic(entry["reading"])
            es_cat = catalogue("es")
            assert es_cat is not None and es_cat.get(topic) is not None, topic
            es = render(cited["text"], "es")
            assert "reading:" not in es and f"interpretación: {es_cat.get(topic).string}" in es
            seen += 1
    assert seen


def test_the_bankers_undo_box_names_the_move_as_a_message(service: GameService) -> None:
    """GET /commands names each move as a message, so the banker's confirmation reads
    "¿Deshacer la tirada de Lucía?" on a Spanish phone (it read "¿Deshacer Lucía avanza 6
    hasta Stadium.?", the move's log line), and its history rows carry their event type."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
    from web_helpers import PIN, Phone

    from web import create_app
    gid, first = _game(service)
    _roll(service, gid, first, [3, 1])
    phone = Phone(create_app(service, config={"banker_pin": PIN}).test_client()).login()
    move = phone.get(f"/api/games/{gid}/commands").get_json()[-1]["move"]
    assert render(Msg.from_json(move), "es") == "la tirada de Lucía"
    assert move["say"] == "Lucía's roll"
    assert service.undo(gid).ok
    rows = phone.get(f"/api/games/{gid}/history").get_json()
    assert rows[0]["type"] == "undone" and rows[0]["msg"] == "The banker undoes {move}."
