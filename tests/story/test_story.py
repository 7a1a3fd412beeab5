"""The end of a game tells its story: figures counted from the log, checked against games
counted by hand (golden logs of earlier formats, with no citations stored)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from companion.engine.i18n import render
from companion.engine.story import Row, screen_lines, story
from companion.engine.types import Event
from companion.plugins.editions import find_edition

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "logs"


def rows(name: str, upto_cmd: int | None = None) -> list[Row]:
    lines = (GOLDEN / name).read_text("utf-8").splitlines()[1:]
    out = []
    for line in lines:
        r = json.loads(line)
        if upto_cmd is None or r["cmd"] <= upto_cmd:
            out.append((int(r["seq"]), int(r["cmd"]), float(r["time"]), Event.from_json(r)))
    return out


def figures(told: dict[str, Any], key: str) -> dict[str, Any]:
    return {p["name"]: next(line["value"] for line in p["lines"] if line["key"] == key)
            for p in told["players"]}


def line(told: dict[str, Any], player: str, key: str) -> dict[str, Any]:
    p = next(p for p in told["players"] if p["name"] == player)
    return dict(next(line for line in p["lines"] if line["key"] == key))


def test_mario_two_players_counted_by_hand() -> None:
    """Counted from the game's log lines (cmd numbers in brackets):
    laps: Mario passes GO [14], lands on GO [34], passes GO [50]; Luigi passes GO [16, 31,
    45]. Rent: Mario pays Luigi 1 coin for Mushroom Forest [36]; Luigi, on Mario's Dark
    Lands with 2 coins, goes bankrupt to Mario [53]. "Card: Luigi pays Mario 1 coin" [24] is
    no rent. GAME OVER cards Bowser put on owned locations: Mario's Kong Arena [18, 36, 45],
    Training Course [45]; Luigi's Snow Kingdom [21, 48], Bowser's Airship [25], Peach's
    Castle [35]; the others landed on locations nobody owned then [3, 4, 14, 26, 34, 47]."""
    told = story(rows("mario-two-players.jsonl"), find_edition)
    assert told["finished"] and told["winner_names"] == ["Mario"]
    assert told["headline"] == "Mario wins: Mario is the last player standing and wins!"
    assert "rulebook" in told["rule"]  # the rule that applies, though the old log cites none
    assert figures(told, "laps") == {"Mario": 3, "Luigi": 3}
    assert figures(told, "rent_paid") == {"Mario": 1, "Luigi": 2}
    assert figures(told, "rent_received") == {"Mario": 2, "Luigi": 1}
    assert figures(told, "game_overs") == {"Mario": 4, "Luigi": 4}
    assert figures(told, "jail_turns") == {"Mario": 0, "Luigi": 0}
    assert figures(told, "bowser_battles") == {"Mario": 0, "Luigi": 0}
    assert line(told, "Mario", "rent_paid")["text"] == "1 coin"
    assert line(told, "Luigi", "swing")["text"] == ("\u22126 coins: Luigi buys Bowser's Castle "
                                                    "for 6 coins.")


def said(name: str) -> list[str]:
    return [json.loads(x)["say"] for x in (GOLDEN / name).read_text("utf-8").splitlines()[1:]]


def test_mario_battles_with_bowser_match_the_lines_said() -> None:
    """Each team battle says who teams up; a win says the team beats Bowser and pays each."""
    told = story(rows("mario-three-players.jsonl"), find_edition)
    fought: dict[str, int] = {}
    won: dict[str, int] = {}
    for text in said("mario-three-players.jsonl"):
        m = re.match(r"(\w+) and (\w+) team up against Bowser", text)
        if m:
            for who in m.groups():
                fought[who] = fought.get(who, 0) + 1
        m = re.search(r"beats Bowser: (\w+) collects", text)
        if m:
            won[m.group(1)] = won.get(m.group(1), 0) + 1
    assert sum(fought.values()) == 30  # 15 battles, two in each
    assert figures(told, "bowser_battles") == fought
    assert figures(told, "bowser_beaten") == {n: won.get(n, 0) for n in fought}


def test_pokemon_catches_by_type_match_the_lines_said() -> None:
    told = story(rows("pokemon-two-trainers.jsonl"), find_edition)
    by: dict[str, dict[str, int]] = {}
    for text in said("pokemon-two-trainers.jsonl"):
        m = re.match(r"Poké Ball! (\w+) catches a wild (\w+)-type", text)
        if m:
            per = by.setdefault(m.group(1), {})
            per[m.group(2)] = per.get(m.group(2), 0) + 1
    assert sum(map(len, by.values())) > 3
    for name, per in by.items():
        got = line(told, name, "catches")
        assert got["value"] == sum(per.values())
        assert {k.capitalize(): v for k, v in got["detail"].items()} == per
        assert got["text"].startswith(f"{sum(per.values())} (")
    assert told["winner_names"] == ["Misty"]


def test_master_trainer_catches_battles_and_knock_outs() -> None:
    """Two trainers, counted by hand from the log: Ash catches 3 Pokémon; Misty sends out a
    Pokémon once and Ash twice (the Final Battle has one trainer's side); Misty's Pokémon
    is knocked out once."""
    told = story(rows("master-trainer-two-players.jsonl"), find_edition)
    assert figures(told, "catches") == {"Ash": 3, "Misty": 0}
    assert figures(told, "battles") == {"Ash": 2, "Misty": 1}
    assert figures(told, "knocked_out") == {"Ash": 0, "Misty": 1}
    assert told["headline"] == "Ash wins: Ash won the Final Battle."
    assert "Final Battle" in told["rule"]


def test_an_undone_move_is_not_in_the_story() -> None:
    """Mario's rent [36] taken back with undo: the story no longer counts it."""
    log = rows("mario-two-players.jsonl", upto_cmd=36)
    before_rent = max(seq for seq, cmd, _, _ in log if cmd == 35)
    last = log[-1][0]
    undo = Event("undone", {"to_seq": before_rent, "cmd": 36})
    told = story([*log, (last + 1, 37, 0.0, undo)], find_edition)
    assert figures(told, "rent_paid")["Mario"] == 0
    assert figures(story(log, find_edition), "rent_paid")["Mario"] == 1
    assert not told["finished"] and told["headline"] == "The game is still on."


def test_monopolino_leaves_out_what_it_has_not() -> None:
    told = story(rows("monopolino-2-players.jsonl"), find_edition)
    keys = {line["key"] for line in told["players"][0]["lines"]}
    assert {"rent_paid", "laps"} <= keys
    assert not keys & {"auctions_won", "trades", "jail_turns"}
    assert line(told, "Anna", "rent_received")["text"] == "€3.00"


def test_every_golden_game_has_a_story_that_fits_the_oled() -> None:
    for path in sorted(GOLDEN.glob("*.jsonl")):
        told = story(rows(path.name), find_edition)
        lines = screen_lines(told, find_edition(told["edition"]))
        assert len(lines) <= 1 + 6 and all(len(x) <= 21 for x in lines)
        assert told["finished"] == ("mid-turn" not in path.name)


def test_the_story_figures_are_in_each_readers_words() -> None:
    """An Italian or Spanish phone reads the story's money in its own digits and the biggest
    swing's reason in its own words (they were finished English text)."""
    told = story(rows("monopolino-2-players.jsonl"), find_edition)
    rent = line(told, "Anna", "rent_received")["text"]
    assert (render(rent, "it"), render(rent, "es"), str(rent)) == ("€3,00", "€3,00", "€3.00")
    told = story(played("mario", seed=4, commands=150), find_edition)
    swing = line(told, "Luigi", "swing")["text"]
    reason = str(swing).split(": ", 1)[1]
    assert render(swing, "it").split(": ", 1)[1] not in ("", reason)  # the reason in Italian
    assert render(swing, "it")[0] in "+\u2212" and "monet" in render(swing, "it")
    told = story(rows("pokemon-two-trainers.jsonl"), find_edition)
    caught = next(li["text"] for p in told["players"] for li in p["lines"]
                  if li["key"] == "catches" and li.get("detail"))
    assert render(caught, "qps").startswith("\u27e6")  # a message, not finished text


def played(edition: str, seed: int, commands: int) -> list[Row]:
    """The rows of a game played now (its lines are messages, as a new game's are)."""
    import random
    import tempfile

    from bench_engine import random_command

    from companion.engine.story import rows_of
    from companion.service import game
    from companion.service.game_service import GameService

    with tempfile.TemporaryDirectory() as tmp, GameService(Path(tmp)) as svc:
        gid = svc.create_game({"edition": edition, "players": ["Mario", "Luigi"],
                               "dice": "physical", "seed": seed}).game_id
        rnd = random.Random(seed)
        for _ in range(commands):
            _, state = svc.state(gid)
            if state.finished:
                break
            assert svc.submit(gid, random_command(rnd, game.legal_actions(state))).ok
        return rows_of(svc.call(svc.store.rows, gid))
