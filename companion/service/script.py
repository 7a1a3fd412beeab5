"""Scripted games: a setup plus the steps in order, played headless (docs/scripts.md).

A step is a command object ``{"actor", "type", "args"}`` or a shorthand string
``"[actor:] type [values...] [key=value ...]"``: without an actor, the first actor of the
current prompt acts; bare integers fill the action's dice or amount input; a bare word fills
the action's choice (``choose``'s option, a teammate, ...). Dice the rules name are given by
name (``"mario: roll red=3 black=5"``; bare values fill them in the input's order), a physical
card by its id (``"mario: draw card=bf-13"``). Each step must be legal when it is
reached, or the run stops with the rule it broke and the step's number.

A script may play on a box profile (docs/profiles.md): ``"profile": "our box"`` (a profile
saved in the companion's database) or ``"profile": "our-box.json"`` (an exported profile
file, relative to the script). Its settings go under the script's own; an unknown profile
refuses the script.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.boxes.profiles import ProfileError, Profiles, check, merged
from companion.engine import json_text
from companion.engine.i18n import Msg, said
from companion.engine.state import BaseState
from companion.engine.types import Action, Command, Event, GameSetup, IllegalCommand, RuleError
from companion.service import game


class ScriptError(RuleError):
    """A script is malformed, or one of its steps is refused (the message says which)."""


@dataclass
class ScriptResult:
    state: BaseState
    events: list[Event]
    steps_run: int

    def final(self) -> dict[str, Any]:
        """The final state as printed by ``companion play``."""
        out = game.view(self.state)
        out.pop("actions", None)
        out["steps_run"] = self.steps_run
        out["log"] = [e.say for e in self.events if e.say][-10:]
        return out


def step_refused(n: int, step: Any, reason: str) -> Msg:
    """Why step ``n`` of a script was refused (the step as written, then the reason)."""
    return Msg("Step {n} ({step}): {reason}", n=n, step=json.dumps(step), reason=reason)


def load_script(path: Path) -> dict[str, Any]:
    """A script file; a profile file it names is read relative to the script's folder."""
    try:
        data = json_text.loads(path.read_bytes())
    except FileNotFoundError as exc:
        raise ScriptError(Msg("No script file {file}.", file=str(path))) from exc
    except OSError as exc:
        raise ScriptError(Msg("{file} cannot be read ({reason}).", file=str(path),
                              reason=str(exc.strerror))) from exc
    except json_text.JsonTextError as exc:
        raise ScriptError(Msg("{file} is not a script: {reason}.", file=str(path),
                              reason=said(exc))) from None
    if not isinstance(data, Mapping):
        raise ScriptError(Msg("A script is a JSON object with a setup and 'steps'."))
    out = dict(data)
    if _is_file(out.get("profile")):
        out["profile"] = str(path.parent / str(out["profile"]))
    return out


def _is_file(profile: Any) -> bool:
    return isinstance(profile, str) and profile.lower().endswith(".json")


def with_profile_file(setup: Mapping[str, Any]) -> dict[str, Any]:
    """``setup`` with a profile *file* it names read and merged in (a profile's name is left
    for the companion's database)."""
    out = dict(setup)
    name = out.get("profile")
    if name in (None, ""):
        out.pop("profile", None)
        return out
    if not isinstance(name, str):
        raise ScriptError(Msg("profile: the name of a saved box profile, or a profile file "
                              "(.json)."))
    if not _is_file(name):
        return out
    try:
        raw = json_text.loads(Path(name).read_bytes())
    except OSError:
        raise ScriptError(Msg("profile: there is no profile file {file}.", file=name)) from None
    except json_text.JsonTextError as exc:
        raise ScriptError(Msg("profile: {file} is not a JSON profile file: {reason}.",
                              file=name, reason=said(exc))) from None
    try:
        return merged(out, check(raw))
    except ProfileError as exc:
        raise ScriptError(Msg("{reason} ({file})", reason=said(exc), file=name)) from None


def script_setup(data: Mapping[str, Any], profiles: Profiles | None = None) -> dict[str, Any]:
    """The script's setup (without its steps), on the box profile it names, if any."""
    setup = with_profile_file({k: v for k, v in data.items() if k != "steps"})
    name = setup.get("profile")
    if name is None:
        return setup
    if profiles is None:
        raise ScriptError(Msg("profile: there is no profile {name} here; play the script "
                              "with `companion play --state-dir` on the companion's folder, or "
                              "name an exported profile file (.json).", name=repr(name)))
    try:
        return profiles.resolve(setup)
    except ProfileError as exc:
        raise ScriptError(said(exc)) from None


def run_script(data: Mapping[str, Any], profiles: Profiles | None = None) -> ScriptResult:
    """Play a script from its setup through every step; raises ScriptError on a bad step or
    an unknown profile (``profiles``: the saved ones a profile name is looked up in)."""
    steps = data.get("steps", [])
    if not isinstance(steps, list):
        raise ScriptError(Msg("'steps' must be a list."))
    setup = GameSetup.from_json(script_setup(data, profiles))
    events = game.new_game(setup)
    state = game.replay(events)
    for n, step in enumerate(steps, 1):
        try:
            command = parse_step(state, step)
            new = game.decide(state, command)
        except RuleError as exc:
            raise ScriptError(step_refused(n, step, said(exc))) from exc
        for e in new:
            state = game.apply(state, e)
        events += new
    return ScriptResult(state, events, len(steps))


def parse_step(state: BaseState, step: Any) -> Command:
    """Turn one script step into a command (see the module docstring)."""
    if isinstance(step, Mapping):
        return Command.from_json(step)
    if not isinstance(step, str) or not step.strip():
        raise IllegalCommand("A step is a command object or a non-empty string.")
    text = step.strip()
    actor: str | None = None
    head = text.split(None, 1)[0]
    if head.endswith(":"):
        actor = head[:-1]
        text = text[len(head):].strip()
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise IllegalCommand(f"Cannot read the step: {exc}.") from exc
    if not words:
        raise IllegalCommand("A step needs a command type.")
    kind, rest = words[0], words[1:]
    args: dict[str, Any] = {}
    values: list[Any] = []
    for word in rest:
        if "=" in word:
            key, value = word.split("=", 1)
            args[key] = _value(value)
        else:
            values.append(_value(word))
    legal = game.legal_actions(state)
    if actor is None:
        actor = _default_actor(state, legal, kind)
    candidates = [a for a in legal if a.type == kind and a.actor == actor]
    action = _pick(candidates, values, args)
    if action is not None:
        args = {**action.args, **args}
        _fill_input(action, args, values)
    elif values:
        args.setdefault("values", values)
    return Command(actor, kind, args)


def _value(word: str) -> Any:
    try:
        return int(word)
    except ValueError:
        pass
    if word.startswith(("[", "{")):
        try:
            return json.loads(word)
        except json.JSONDecodeError:
            return word
    return {"true": True, "false": False}.get(word, word)


def _default_actor(state: BaseState, legal: list[Action], kind: str) -> str:
    if state.prompt is not None and state.prompt.to:
        for who in state.prompt.to:
            if any(a.type == kind and a.actor == who for a in legal):
                return who
        return state.prompt.to[0]
    same = [a.actor for a in legal if a.type == kind]
    if same:
        return same[0]
    raise IllegalCommand(f"Nobody can {kind} now; name the actor ('name: {kind} ...').")


def _pick(candidates: list[Action], values: list[Any], args: dict[str, Any]) -> Action | None:
    """The action a shorthand step means: one whose fixed args fit the words given."""
    if not candidates:
        return None
    if len(candidates) == 1:
        return candidates[0]
    for a in candidates:
        fixed = dict(a.args)
        if fixed and all(args.get(k, v) == v for k, v in fixed.items()) and any(
                k in args for k in fixed):
            return a
        if fixed and values and len(fixed) == 1 and next(iter(fixed.values())) == values[0]:
            values.pop(0)
            return a
    return candidates[0]


def _fill_input(action: Action, args: dict[str, Any], values: list[Any]) -> None:
    """Put the step's bare values where the action's input wants them."""
    spec = action.input or {}
    kind = spec.get("kind")
    names = [str(n) for n in spec.get("names", ())] if kind == "dice" else []
    if names and any(n in args for n in names):
        missing = [n for n in names if n not in args]
        if missing or values:
            raise IllegalCommand(f"Name every die: {' '.join(n + '=…' for n in names)}.")
        args["dice"] = [args.pop(n) for n in names]
    elif kind == "dice" and values:
        args["dice"] = list(values)
        values.clear()
    elif kind == "amount" and values:
        args["amount"] = values.pop(0)
    elif kind == "choice" and values:
        args[str(spec.get("arg", "option"))] = values.pop(0)
    if values:  # a word left over: the option of a choice, or an edition's own value
        args.setdefault("option" if action.type == "choose" else "value", values[0])
