"""The household's history: every finished game, and per player their games, wins and time
played, overall and per box profile, from the games' logs.

A finished game's summary (its story's headline and players, its time played) is computed
once from its log and kept in the companion's database (companion/store/past_reads.py: the
log stays the truth, the table is a cache a backup carries along and any version can
rebuild). A player is the same player across games by name (``Zoë`` and ``zoë `` are one
person), whatever seat id a game gave them. A game's box profile is the one its setup
named (kept with its ``new_game`` command; "" for a game set up without one).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.engine.i18n import SOURCE, Msg, render
from companion.engine.story import Row, story
from companion.plugins.editions import find_edition

PAUSE = 15 * 60.0
"""A gap between two moves longer than this (seconds) is a pause, not play: a game left on
the table overnight does not count the night."""


def played_seconds(times: Iterable[float], pause: float = PAUSE) -> float:
    """Time played: the gaps between consecutive moves, each at most ``pause``. A clock
    that jumped back (a Pi without a real-time clock) adds nothing."""
    total, last = 0.0, None
    for t in times:
        if last is not None and t > last:
            total += min(t - last, pause)
        last = t if last is None else max(last, t)
    return total


def person(name: str) -> str:
    """The key that makes a name the same player across games."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


FORMAT = 2
"""The form of a kept summary; one of another form is computed again (2: with its profile)."""


def summary(game: Mapping[str, Any], rows: Sequence[Row], profile: str = "") -> dict[str, Any]:
    """What the history keeps of one game (``game``: its ``games`` row; ``profile``: the box
    profile it was set up from)."""
    told = story(rows, find_edition)
    return {"format": FORMAT, "id": game["id"], "edition": told["edition"],
            "title": told["title"], "profile": profile,
            "created": float(game["created"]), "ended": told["ended"],
            "seconds": played_seconds(t for _, _, t, _ in rows),
            "finished": told["finished"], "headline": told["headline"],
            "winners": told["winner_names"], "turns": told["turns"],
            "players": [{"name": p["name"], "winner": p["winner"]} for p in told["players"]]}


def _tally(games: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per player (by name): games played, wins, time played; most wins first."""
    people: dict[str, dict[str, Any]] = {}
    for g in games:
        for p in g["players"]:
            me = people.setdefault(person(p["name"]), {"name": p["name"], "games": 0,
                                                       "wins": 0, "seconds": 0.0})
            me["name"] = p["name"]  # the latest spelling
            me["games"] += 1
            me["wins"] += 1 if p["winner"] else 0
            me["seconds"] += g["seconds"]
    return sorted(people.values(), key=lambda p: (-p["wins"], -p["games"], p["name"]))


def by_profile(games: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every box profile played (per edition; "" the edition's defaults): games, time played
    and its players' tally; most played first."""
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for g in sorted(games, key=lambda g: (g["created"], g["id"])):
        groups.setdefault((g["edition"], g.get("profile", "")), []).append(g)
    out = [{"edition": e, "profile": p, "title": gs[-1]["title"], "games": len(gs),
            "seconds": sum(g["seconds"] for g in gs), "players": _tally(gs)}
           for (e, p), gs in groups.items()]
    return sorted(out, key=lambda b: (-b["games"], b["title"], b["profile"]))


def matching(games: Iterable[Mapping[str, Any]], box: str | None = None,
             profile: str | None = None, player: str | None = None
             ) -> list[Mapping[str, Any]]:
    """The games of edition ``box``, set up from box profile ``profile`` ("": from none),
    with ``player`` (by name, any case) at the table; None: any."""
    who = None if player is None else person(player)
    return [g for g in games
            if (box is None or g["edition"] == box)
            and (profile is None or g.get("profile", "") == profile)
            and (who is None or any(person(p["name"]) == who for p in g["players"]))]


def household(games: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Per player (by name) games played, wins and time played, overall and per box; per box
    profile the same; the games newest first; and the points of the chart (wins so far
    after each game)."""
    ordered = sorted(games, key=lambda g: (g["created"], g["id"]))
    people: dict[str, dict[str, Any]] = {}
    points = []
    for g in ordered:
        for p in g["players"]:
            key = person(p["name"])
            me = people.setdefault(key, {"name": p["name"], "games": 0, "wins": 0,
                                         "seconds": 0.0, "boxes": {}})
            me["name"] = p["name"]  # the latest spelling
            me["games"] += 1
            me["wins"] += 1 if p["winner"] else 0
            me["seconds"] += g["seconds"]
            box = me["boxes"].setdefault(g["edition"], {"title": g["title"], "games": 0,
                                                        "wins": 0})
            box["games"] += 1
            box["wins"] += 1 if p["winner"] else 0
        points.append({"game": g["id"], "time": g["created"],
                       "wins": {k: v["wins"] for k, v in people.items()}})
    players = sorted(people.values(), key=lambda p: (-p["wins"], -p["games"], p["name"]))
    boxes: dict[str, dict[str, Any]] = {}
    for g in ordered:
        box = boxes.setdefault(g["edition"], {"edition": g["edition"], "title": g["title"],
                                              "games": 0, "seconds": 0.0})
        box["games"] += 1
        box["seconds"] += g["seconds"]
    names = {person(p["name"]): p["name"] for p in players}
    return {"games": list(reversed(ordered)), "players": players,
            "boxes": sorted(boxes.values(), key=lambda b: -b["games"]),
            "profiles": by_profile(ordered),
            "chart": {"names": names, "points": points}}


CHART_LABEL, CHART_AXIS = Msg("Wins over time"), Msg("games played →")
"""The chart's own words (rendered in each reader's language)."""
COLOURS = ("#d33", "#36c", "#2a2", "#c80", "#93c", "#0aa", "#a52", "#555")


def chart_svg(chart: Mapping[str, Any], width: int = 480, height: int = 200,
              lang: str = SOURCE) -> str:
    """Wins so far after each game, one line per player, as inline SVG (no chart library:
    the table has no internet); its own words in ``lang``."""
    names: Mapping[str, str] = chart["names"]
    points: Sequence[Mapping[str, Any]] = chart["points"]
    pad = 28
    top = max([1] + [max(p["wins"].values(), default=0) for p in points])
    n = max(1, len(points) - 1)

    def xy(i: int, wins: int) -> str:
        x = pad + (width - 2 * pad) * i / n
        y = height - pad - (height - 2 * pad) * wins / top
        return f"{x:.1f},{y:.1f}"

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'role="img" aria-label="{_escape(render(CHART_LABEL, lang))}">',
             f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" '
             'stroke="#888"/>',
             f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#888"/>',
             f'<text x="4" y="{pad + 4}" font-size="11">{top}</text>',
             f'<text x="{pad}" y="{height - 8}" font-size="11">'
             f'{_escape(render(CHART_AXIS, lang))}</text>']
    for k, (key, name) in enumerate(names.items()):
        colour = COLOURS[k % len(COLOURS)]
        line = " ".join(xy(i, int(p["wins"].get(key, 0))) for i, p in enumerate(points))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" '
                     f'points="{line}"/>')
        if len(points) == 1:  # one game: a dot, as a line needs two
            x, y = xy(0, int(points[0]["wins"].get(key, 0))).split(",")
            parts.append(f'<circle cx="{x}" cy="{y}" r="4" fill="{colour}"/>')
        parts.append(f'<text x="{pad + 8 + 90 * (k % 5)}" y="{12 + 13 * (k // 5)}" '
                     f'font-size="12" fill="{colour}">\u25a0 {_escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _escape(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))
