"""The question a command leaves is stored as ids and arguments: its kind, who answers, its
message by id with the arguments, and only the steps of the to-do list that changed. Every
earlier form still replays to the same prompt."""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po

from companion.engine import event_format, i18n
from companion.engine.i18n import Msg, Msgs, data_from_stored, stored_data
from companion.engine.state import PromptAsked, Task
from companion.engine.types import Event
from companion.service import game, script

ROOT = Path(__file__).resolve().parents[2]


def _played(example: str) -> list[Event]:
    return script.run_script(script.load_script(ROOT / "examples" / example)).events


def test_a_stored_prompt_holds_no_english_sentence_and_reads_back_in_each_language() -> None:
    """Mario's "buy" question: the log keeps the message's id and its arguments; read back
    (as after a restart) it is the same message, in Italian for an Italian phone."""
    events = _played("mario-two-players.json")
    at = next(i for i, e in enumerate(events) if e.type.startswith("prompt_asked")
              and '"buy"' in stored_data(e.data))
    text = stored_data(events[at].data)
    assert "buy {space}" not in text and "or auction it" not in text
    want = game.replay(events[:at + 1])
    got = game.replay([*events[:at], Event(events[at].type, data_from_stored(text))])
    assert got.prompt == want.prompt and got.prompt is not None and got.prompt.kind == "buy"
    assert isinstance(got.prompt.text, Msg)
    assert i18n.render(got.prompt.text, "it") == i18n.render(want.prompt.text, "it")
    assert i18n.render(got.prompt.text, "it") != str(want.prompt.text)


def test_a_message_stored_by_id_keeps_its_plural_and_nested_messages() -> None:
    said = Msg("{player}: stop, or pay {amount} to re-roll ({odds})", player="Ash", amount=3,
               odds=Msgs("{n} roll", "{n} rolls", 2))
    back = data_from_stored(stored_data({"text": said}))["text"]
    assert isinstance(back, Msg) and back == said and back.args["odds"].plural == "{n} rolls"


def test_a_message_no_catalogue_knows_is_stored_whole() -> None:
    said = Msg("Words no catalogue has: {x}", x=1)
    text = stored_data({"text": said})
    assert "Words no catalogue has" in text
    assert data_from_stored(text)["text"] == said


def test_a_retired_message_id_still_reads_back() -> None:
    """A wording changed later: a log written before keeps its id, which still names the old
    words (companion/locales/retired.json keeps every msgid the catalogue dropped)."""
    for key, plural in i18n.retired_messages():
        raw = {"id": i18n.message_id(key, plural), "args": {}}
        assert i18n.message_by_id(raw["id"]) == (key, plural)


def test_every_message_id_names_one_message_of_the_template() -> None:
    ids = i18n.known_messages()
    template = set()
    for path in i18n.templates():  # companion's and each edition's, as Babel reads them
        with path.open("rb") as f:
            template |= {(m.id[0], m.id[1]) if isinstance(m.id, tuple) else (m.id, "")
                         for m in read_po(f) if m.id}
    assert len(ids) > 1000 and set(ids.values()) == template | set(i18n.retired_messages())
    assert all(i18n.message_id(*msg) == mid for mid, msg in ids.items())


def test_the_to_do_list_is_stored_as_what_changed() -> None:
    """Across the example games, a prompt event stores only the steps put before the ones
    kept from the list before it: far fewer steps than the whole list each time."""
    whole = stored = 0
    for example in ("pokemon-two-trainers.json", "mario-three-players.json"):
        before: tuple[Task, ...] = ()
        for e in _played(example):
            if e.type.split("@")[0] in ("prompt_asked", "prompt_cleared"):
                data = e.data
                kept = data.get("kept", 0)
                after = (*[Task.from_json(t) for t in data.get("todo", ())],
                         *(before[len(before) - kept:] if kept else ()))
                whole += len(after)
                stored += len(data.get("todo", ()))
                before = after
    assert stored * 2 < whole


def test_a_version_1_prompt_upcasts_to_the_current_fact() -> None:
    old = {"prompt": {"kind": "turn", "to": ["ann"], "text": "Ann: roll", "data": {"x": 1}},
           "todo": [{"name": "end_turn", "args": {}}]}
    tag, data = event_format.upcast("prompt_asked", old)
    assert tag == PromptAsked.tag() and PromptAsked.VERSION >= 2
    assert data == {"kind": "turn", "to": ["ann"], "text": "Ann: roll", "data": {"x": 1},
                    "todo": [{"name": "end_turn", "args": {}}]}
    assert event_format.upcast("prompt_cleared", {"todo": []})[1] == {"todo": []}


def test_a_game_stored_with_the_version_1_prompts_replays_to_the_same_state() -> None:
    """The log as version 1 wrote it (whole prompt, whole to-do list) replays as the new."""
    events = _played("pokemon-two-trainers.json")
    v1, state = [events[0]], game.replay(events[:1])
    for e in events[1:]:
        state = game.apply(state, e)
        if e.type.split("@")[0] in ("prompt_asked", "prompt_cleared"):
            tasks = [t.to_json() for t in state.todo]
            e = (Event("prompt_cleared", {"todo": tasks}) if state.prompt is None else
                 Event("prompt_asked", {"prompt": state.prompt.to_json(), "todo": tasks}))
        v1.append(Event(e.type, data_from_stored(stored_data(e.data)), e.say, e.cite))
    assert any(e.type == "prompt_asked" for e in v1)
    assert game.replay(v1) == game.replay(events)


def test_a_roll_or_choice_stores_only_what_its_declared_kind_cannot_give_back() -> None:
    """Mario's turn: the dice to roll, not the step the kind declares, the player it asks or
    the default button; Pokémon's Lapras choice: its options, not its declared step. A replay
    gives the whole prompt back."""
    for example, kind, want in (("mario-two-players.json", "turn", {"roll": {"count": 2}}),
                                ("pokemon-two-trainers.json", "lapras", None)):
        events = _played(example)
        at = next(i for i, e in enumerate(events) if e.type.startswith("prompt_asked")
                  and e.data["kind"] == kind)
        data = events[at].data["data"]
        if want is not None:
            assert data == want
        else:
            assert "task" not in data and data["options"]
        state = game.replay(events[:at + 1])
        assert state.prompt is not None and state.prompt.data != data
        full = state.prompt.data
        assert full.get("task", full.get("roll", {}).get("task"))
