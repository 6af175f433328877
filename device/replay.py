"""``touchline replay SCENARIO``: a scripted session against the simulated table, printing the final state.

A scenario is a TOML file (see ``docs/SCENARIOS.md``): an optional list of forced dice values, then steps,
each one thing a person does at the table — put a card on a pad, lift it, press or hold a button, let
some seconds pass, or do something on the page — optionally followed by checks of what the screens say
and of the game's view.  Owners attach one to a bug report; shops script demos with them.
"""

from __future__ import annotations

import tempfile
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.errors import ScenarioError
from engine.errors import EngineError
from web.actions import ActionError, TableAction, parse_action

STEP_KINDS = ("tap", "place", "place_tag", "lift", "press", "hold", "wait", "page", "check")
"""Every kind of step; a step is a TOML table with exactly one of these keys."""

SCENARIO_MISSING = "Scenario {path} does not exist. Give the path of a .toml scenario (see docs/SCENARIOS.md)."
SCENARIO_SYNTAX = "{path}: this is not valid TOML ({reason}). Fix the line it names."
STEP_NO_KIND = "{where}: a step needs exactly one of {kinds}; this one has {found}."
STEP_FIELD = "{where}: {problem}"
CHECK_FAILED = "{where}: {what} — expected {expected!r}, found {found!r}."
STEP_REFUSED = "{where}: the table refused it: {reason}"
STEP_NOT_TABLE = ("{where}: {found!r} is not a step: each step is a [[step]] table (with tap = ..., press = ... or "
                  "another kind), not a value in a list. See docs/SCENARIOS.md.")
NO_STEPS = "{path}: the scenario has no [[step]] tables. Add at least one (see docs/SCENARIOS.md)."


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a scenario: what is done, with what, the dice it forces, and what is checked after."""

    number: int
    line: int | None
    kind: str
    target: str
    args: Mapping[str, Any]
    dice: tuple[int, ...] = ()
    screens: Mapping[str, str] = field(default_factory=dict)
    view: Mapping[str, Any] = field(default_factory=dict)
    refused: str | None = None
    action: TableAction | None = None
    """A ``page`` step's action, checked field by field as the page's request would be."""

    @property
    def where(self) -> str:
        """The step as a person finds it in the file."""
        return f"step {self.number}" + (f" (line {self.line})" if self.line else "")


@dataclass(frozen=True, slots=True)
class Scenario:
    """A parsed scenario: its title, the forced dice, and its steps."""

    path: Path
    title: str
    dice: tuple[int, ...]
    steps: tuple[Step, ...]
    table: Path | None = None


def _step_lines(text: str) -> list[int]:
    """The line number of each ``[[step]]`` header, in order (TOML parsers do not keep lines)."""
    return [n for n, line in enumerate(text.splitlines(), start=1) if line.strip().startswith("[[step]]")]


def _ints(value: Any, where: str, name: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ScenarioError(STEP_FIELD.format(where=where, problem=f"'{name}' must be a list of whole numbers, e.g. {name} = [4, 2]"))
    return tuple(value)


def parse(path: str | Path) -> Scenario:
    """Read and check a scenario file; raise ScenarioError naming the step and the field."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ScenarioError(SCENARIO_MISSING.format(path=path)) from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(SCENARIO_SYNTAX.format(path=path, reason=exc)) from exc
    raw_steps = data.get("step", [])
    if not isinstance(raw_steps, list) or not raw_steps:
        raise ScenarioError(NO_STEPS.format(path=path))
    lines = _step_lines(text)
    steps = []
    for index, raw in enumerate(raw_steps):
        line = lines[index] if index < len(lines) else None
        steps.append(_step(index + 1, line, raw))
    table = data.get("table")
    return Scenario(
        path=path,
        title=str(data.get("title", path.stem)),
        dice=_ints(data.get("dice", []), f"{path}", "dice"),
        steps=tuple(steps),
        table=(path.parent / table) if isinstance(table, str) else None,
    )


def _step(number: int, line: int | None, raw: Mapping[str, Any]) -> Step:
    where = f"step {number}" + (f" (line {line})" if line else "")
    if not isinstance(raw, Mapping):
        raise ScenarioError(STEP_NOT_TABLE.format(where=where, found=raw))
    kinds = [k for k in STEP_KINDS if k in raw]
    if len(kinds) != 1:
        raise ScenarioError(STEP_NO_KIND.format(where=where, kinds=", ".join(STEP_KINDS), found=", ".join(kinds) or "none"))
    kind = kinds[0]
    target = raw[kind]
    args = {k: v for k, v in raw.items() if k not in (kind, "dice", "screen", "view", "refused")}
    if kind == "wait":
        if not isinstance(target, (int, float)) or isinstance(target, bool) or target < 0:
            raise ScenarioError(STEP_FIELD.format(where=where, problem="'wait' is a number of seconds, e.g. wait = 5"))
    elif kind == "check":
        target = ""
    elif not isinstance(target, str) or not target:
        raise ScenarioError(STEP_FIELD.format(where=where, problem=f"'{kind}' names a pad, a button or a page action, e.g. {kind} = \"seat1.tap\""))
    if kind in ("tap", "place", "place_tag") and not isinstance(args.get("uid" if kind == "place_tag" else "card"), str):
        needed = "uid = \"04-A1-B2-C3\"" if kind == "place_tag" else "card = \"bm_01\""
        raise ScenarioError(STEP_FIELD.format(where=where, problem=f"a '{kind}' step needs {needed}"))
    screens_check = raw.get("screen", {})
    view_check = raw.get("view", {})
    if not isinstance(screens_check, dict) or not all(isinstance(v, str) for v in screens_check.values()):
        raise ScenarioError(STEP_FIELD.format(where=where, problem="'screen' maps a screen id to text it must show, e.g. screen = { \"seat1.screen\" = \"Rolled 4\" }"))
    if not isinstance(view_check, dict):
        raise ScenarioError(STEP_FIELD.format(where=where, problem="'view' maps a dotted path of the game view to a value, e.g. view = { week = 1 }"))
    action: TableAction | None = None
    if kind == "page":
        try:
            action = parse_action({"type": target, **args})
        except ActionError as exc:
            raise ScenarioError(STEP_FIELD.format(where=where, problem=f"the page action {target!r}: {exc}")) from exc
    refused = raw.get("refused")
    if refused is not None and not isinstance(refused, str):
        raise ScenarioError(STEP_FIELD.format(where=where, problem="'refused' is the text the refusal must contain"))
    return Step(
        number=number,
        line=line,
        kind=kind,
        target=target if kind != "wait" else str(target),
        args=args,
        dice=_ints(raw.get("dice", []), where, "dice"),
        screens=screens_check,
        view=view_check,
        refused=refused,
        action=action,
    )


def lookup(view: Any, dotted: str) -> Any:
    """The value at a dotted path of the view, e.g. ``clubs.0.resources.budget``; KeyError when absent."""
    here = view
    for part in dotted.split("."):
        if isinstance(here, Mapping) and part in here:
            here = here[part]
        elif isinstance(here, Sequence) and not isinstance(here, str) and part.lstrip("-").isdigit():
            here = here[int(part)]
        else:
            raise KeyError(dotted)
    return here


def checks(step: Step, screens_text: Mapping[str, str], view: Any) -> Iterator[str]:
    """Every check of ``step`` that fails, as a sentence."""
    for screen_id, expected in step.screens.items():
        found = screens_text.get(screen_id)
        if found is None:
            yield CHECK_FAILED.format(where=step.where, what=f"there is no screen {screen_id!r}", expected=expected, found=sorted(screens_text))
        elif expected not in found:
            yield CHECK_FAILED.format(where=step.where, what=f"screen {screen_id}", expected=expected, found=found)
    for dotted, expected in step.view.items():
        try:
            found = lookup(view, dotted)
        except (KeyError, IndexError, TypeError):
            yield CHECK_FAILED.format(where=step.where, what=f"view path {dotted}", expected=expected, found="(absent)")
            continue
        if found != expected:
            yield CHECK_FAILED.format(where=step.where, what=f"view path {dotted}", expected=expected, found=found)


def run_scenario(path: Path, *, db_path: Path | None = None) -> dict[str, Any]:
    """Run a scenario against the simulated table and return the final state (raise ScenarioError on a failed check)."""
    from device.sim import SimulatedTable  # the simulated table pulls in the drivers; parse() must not

    scenario = parse(path)
    with tempfile.TemporaryDirectory(prefix="touchline-replay-") as tmp:
        database = db_path or Path(tmp) / "replay.db"
        with SimulatedTable.open(database, table=scenario.table, dice=scenario.dice) as table:
            for step in scenario.steps:
                run_step(table, step)
            return table.final()


def run_step(table: Any, step: Step) -> None:
    """Do one step on a simulated table, then run its checks; ScenarioError names the step that failed."""
    if step.dice:
        table.force_dice(step.dice)
    refusal: str | None = None
    try:
        if step.kind == "tap":
            table.tap(step.target, str(step.args["card"]))
        elif step.kind == "place":
            table.place(step.target, str(step.args["card"]))
        elif step.kind == "place_tag":
            table.place_tag(step.target, str(step.args["uid"]))
        elif step.kind == "lift":
            table.lift(step.target)
        elif step.kind == "press":
            table.press(step.target)
        elif step.kind == "hold":
            table.hold(step.target)
        elif step.kind == "wait":
            table.wait(float(step.target))
        elif step.kind == "page":
            table.page(step.action)
    except (ValueError, EngineError) as exc:
        refusal = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
        if step.refused is None:
            raise ScenarioError(STEP_REFUSED.format(where=step.where, reason=refusal)) from exc
    except LookupError as exc:  # a pad, button or screen the table does not have
        raise ScenarioError(STEP_REFUSED.format(where=step.where, reason=exc.args[0] if exc.args else exc)) from exc
    if step.refused is not None and (refusal is None or step.refused not in refusal):
        raise ScenarioError(CHECK_FAILED.format(where=step.where, what="the refusal", expected=step.refused, found=refusal))
    failures = list(checks(step, table.screen_texts(), table.view()))
    if failures:
        raise ScenarioError("\n".join(failures))
