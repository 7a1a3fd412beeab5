from typing import Any

from hardware.navigator import PromptNavigator

ROLL = {"actor": "p1", "type": "roll", "label": "Roll", "args": {},
        "input": {"kind": "dice", "count": 2, "optional": True}}
BID = {"actor": "p1", "type": "bid", "label": "Bid", "args": {},
       "input": {"kind": "amount", "min": 10, "max": 40}}
PICK = {"actor": "p1", "type": "pick", "label": "Teammate", "args": {},
        "input": {"kind": "choice", "arg": "who", "options": [
            {"value": "mario", "label": "Mario"}, {"value": "luigi", "label": "Luigi"}]}}
TRADE = {"actor": "p1", "type": "trade", "label": "Trade", "args": {}, "input": {"kind": "trade"}}
OTHER = {"actor": "p2", "type": "roll", "label": "Roll", "args": {}}


def nav_for(*actions: dict[str, Any], to: str = "p1") -> tuple[PromptNavigator, list[Any]]:
    sent: list[Any] = []
    nav = PromptNavigator(lambda a, x: sent.append((a["type"], x)))
    nav.update({"prompt": {"kind": "turn", "to": [to], "text": "?"}, "actions": list(actions)})
    return nav, sent


def test_only_the_prompted_actors_button_friendly_actions_are_offered() -> None:
    nav, _ = nav_for(ROLL, TRADE, OTHER, BID)
    assert nav.state()["items"] == ["Roll", "Bid"]


def test_next_moves_highlight_and_wraps() -> None:
    nav, sent = nav_for(ROLL, BID, PICK)
    nav.next()
    nav.next()
    nav.next()
    assert nav.state()["index"] == 0
    nav.prev()
    assert nav.state()["items"][nav.state()["index"]] == "Teammate"


def test_digital_dice_roll_sends_no_input() -> None:
    nav, sent = nav_for(ROLL)
    nav.ok()
    assert sent == [("roll", None)]


def test_amount_is_changed_by_prev_next_and_clamped() -> None:
    nav, sent = nav_for(BID)
    nav.ok()
    nav.next()
    nav.next(big=True)  # +10
    assert nav.state()["editing"] == {"label": "Bid", "value": "21", "position": ""}
    for _ in range(5):
        nav.next(big=True)
    nav.ok()
    assert sent == [("bid", 40)]


def test_choice_sends_the_option_value() -> None:
    nav, sent = nav_for(PICK)
    nav.ok()
    nav.next()
    assert nav.state()["editing"]["value"] == "Luigi"
    nav.ok()
    assert sent == [("pick", "luigi")]


def test_physical_dice_are_entered_one_die_at_a_time() -> None:
    dice = {**ROLL, "input": {"kind": "dice", "count": 2, "optional": False}}
    nav, sent = nav_for(dice)
    nav.ok()
    nav.prev()  # 1 -> 6
    nav.ok()
    nav.next()
    nav.next()  # 1 -> 3
    nav.ok()
    assert sent == [("roll", [6, 3])]


def test_long_press_backs_out_of_the_editor_without_sending() -> None:
    nav, sent = nav_for(BID)
    nav.ok()
    nav.back()
    assert nav.state()["editing"] is None and sent == []


def test_new_prompt_resets_the_highlight_but_same_actions_keep_it() -> None:
    nav, _ = nav_for(ROLL, BID)
    nav.next()
    nav.update({"prompt": {"to": ["p1"]}, "actions": [ROLL, BID]})
    assert nav.index == 1
    nav.update({"prompt": {"to": ["p1"]}, "actions": [PICK]})
    assert nav.index == 0


def test_ok_sends_the_game_and_version_of_the_view_it_shows() -> None:
    """What OK sends names the prompt the screen showed, so the service can refuse it as
    stale once the game has moved on."""
    sent: list[Any] = []
    nav = PromptNavigator(lambda a, x: sent.append((a["type"], a["game_id"], a["version"])))
    nav.update({"game_id": "g1", "version": 12, "prompt": {"to": ["p1"]}, "actions": [ROLL]})
    nav.ok()
    nav.update({"game_id": "g1", "version": 15, "prompt": {"to": ["p1"]}, "actions": [ROLL]})
    nav.ok()
    assert sent == [("roll", "g1", 12), ("roll", "g1", 15)]
