"""``touchline demo``: a shop's table plays a recorded game by itself, in a loop, until someone touches it.

The recorded game is a scenario (``scenarios/``, see ``docs/SCENARIOS.md``): each of its steps is fed to the running
table as the reading a hand would have made (a card on a pad, a press of a button) or as the page action it names,
with its dice forced, at a pace people can follow.  Everything shows it as in a real game: the seats' screens, the
virtual table and the TV.  The first tap on a pad or press of a button that a person makes (on the real pads or on
the virtual table's) stops the demo at once; that reading is not played into the demo's game, the demo's game is
set aside (kept in the log as abandoned), and every screen offers a new game.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from device.replay import Scenario, Step, parse
from device.running import RunningTable
from device.screens import Message
from device.sim import ForcedDice, simulated_uid
from drivers.base import ButtonReading, HealthReading, TagReading

log = logging.getLogger(__name__)

DEFAULT_SCENARIO = "full-game.toml"
"""The recorded game the demo plays unless told another (a whole four-club game)."""
STEP_SECONDS = 1.5
"""The pause between two steps of the recorded game, so people watching can follow it."""
PAUSE_SECONDS = 30.0
"""How long the final scoring stays on show before the game starts again."""
DEMO_BANNER = "Demo game · tap any pad or press any button to play"
"""Across the TV while the demo plays."""
DEMO_STOPPED = "Your turn to play!"
DEMO_STOPPED_DETAIL = "Start a new game on the page: Admin"
DEMO_STARTED = "Touchline demo: playing {title!r} in a loop; a tap on any pad or a press of any button stops it."
DEMO_HANDED_OVER = "Demo stopped by {what}: the table is free for a new game."
DEMO_GAME_FAILED = "The demo's game failed at {where}; it starts again from the beginning."
DEMO_LOOP_FAILED = "The demo had stopped playing by itself at {where}; the table is handed over all the same."
DEMO_HAND_OVER_FAILED = "The demo was stopped by {what}, but its game could not be set aside: start a new game on the page."
NO_SCENARIO = "There is no scenario {path}: give the path of a .toml scenario (scenarios/ holds the shipped ones)."


def default_scenario() -> Path:
    """The shipped whole-game scenario."""
    return Path(str(resources.files("scenarios").joinpath(DEFAULT_SCENARIO)))


@dataclass
class DemoState:
    """What the page shows about the demo (``snapshot()["demo"]``)."""

    playing: bool = True
    title: str = ""
    loops: int = 0
    stopped_by: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-safe, for the page's snapshot."""
        return {"playing": self.playing, "title": self.title, "loops": self.loops, "stopped_by": self.stopped_by,
                "banner": DEMO_BANNER, "offer": DEMO_STOPPED}


class Demo:
    """Plays a scenario on a running table in a loop; the first reading a person makes stops it."""

    def __init__(self, table: RunningTable, scenario: Scenario, dice: ForcedDice, *, step_seconds: float = STEP_SECONDS,
                 pause_seconds: float = PAUSE_SECONDS, loops: int = 0) -> None:
        self.table = table
        self.scenario = scenario
        self.dice = dice
        self.step_seconds = step_seconds
        self.pause_seconds = pause_seconds
        self.loops = loops
        """How many times to play the game (0: until someone stops it)."""
        self.state = DemoState(title=scenario.title)
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._guard = threading.Lock()
        """Taken by the drivers' threads and the loop alike: one reading stops the demo, and only once."""
        self._early: str | None = None
        """What stopped the demo before its loop began (handed over as soon as it begins)."""
        self._stopping = asyncio.Event()
        """Set when a person stops the demo: the pause between two steps ends at once."""
        self._where = "its start"
        """The step being played (named when it fails)."""
        self.handing_over: asyncio.Task[None] | None = None
        """The hand-over under way or done, once a person stopped the demo."""
        table.intercept = self.intercept
        table.demo = self.state

    # -- playing ---------------------------------------------------------------------------------------

    async def run(self) -> None:
        """Play the recorded game again and again (or ``loops`` times) until a person stops the demo.

        A game that fails on the way is logged and started again: the shop's table never stands frozen.
        """
        with self._guard:
            self._loop = asyncio.get_running_loop()
            self._task = asyncio.current_task()
            early = self._early
        if early is not None:  # a person came before the first step
            self._start_hand_over(early)
            return
        log.warning(DEMO_STARTED.format(title=self.scenario.title))
        while self.state.playing and (not self.loops or self.state.loops < self.loops):
            try:
                await self._play_once()
            except Exception:
                log.exception(DEMO_GAME_FAILED.format(where=self._where))
            if not self.state.playing:
                return
            self.state.loops += 1
            await self._pause(self.pause_seconds)

    async def _play_once(self) -> None:
        self.dice.force(self.scenario.dice)
        for step in self.scenario.steps:
            if not self.state.playing:
                return
            self._where = step.where
            await self._step(step)
            await self.table.idle()
            await self._pause(self.step_seconds)

    async def _pause(self, seconds: float) -> None:
        """Wait between two steps; a person stopping the demo ends the wait at once."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), seconds)

    async def _step(self, step: Step) -> None:
        """Feed one step to the table as the hand or the page would have made it."""
        if step.dice:
            self.dice.force(step.dice)
        if step.kind in ("tap", "place"):
            pad, uid = step.target, self._uid(str(step.args["card"]))
            self.table.feed(TagReading("tap", pad, uid))
            if step.kind == "tap":
                self.table.feed(TagReading("lift", pad, uid))
        elif step.kind == "place_tag":
            self.table.feed(TagReading("tap", step.target, str(step.args["uid"])))
        elif step.kind == "lift":
            self.table.feed(TagReading("lift", step.target, ""))
        elif step.kind in ("press", "hold"):
            self.table.feed(ButtonReading(step.kind, step.target))
        elif step.kind == "wait":
            await self._pause(float(step.target))  # the table's own clock closes reroll windows meanwhile
        elif step.kind == "page" and step.action is not None:
            try:
                await self.table.submit(step.action)
            except ValueError as refusal:  # a recorded game that no longer fits the rules: say so, go on
                log.warning("demo step %s refused: %s", step.where, refusal)

    def _uid(self, card: str) -> str:
        """The tag enrolled for a card on this table, else a simulated one enrolled now (as the virtual table does)."""
        session = self.table.session
        for uid, enrolled in session.store.enrolments(deck=session.deck).items():
            if enrolled == card:
                return str(uid)
        uid = simulated_uid(card)
        session.store.enroll(uid, card, deck=session.deck)
        return uid

    # -- a person arrives ------------------------------------------------------------------------------

    def intercept(self, reading: Any) -> bool:
        """Called from a driver's thread for every reading a person makes: the first tap or press stops the demo.

        Returns True when the reading was taken as "stop the demo" (it is then not played into the demo's game).
        """
        if isinstance(reading, HealthReading):
            return False
        with self._guard:
            if not self.state.playing:
                return False
            if isinstance(reading, TagReading) and reading.kind == "lift":
                return True  # the card that stopped the demo leaves the pad: nothing to play
            if not isinstance(reading, (TagReading, ButtonReading)):
                return False
            self.state.playing = False
            what = f"a card on {reading.reader}" if isinstance(reading, TagReading) else f"a press of {reading.button}"
            loop = self._loop
            if loop is None:
                self._early = what  # run() hands over as soon as it begins
                return True
        with contextlib.suppress(RuntimeError):  # the loop has closed: the table is being stopped
            loop.call_soon_threadsafe(self._start_hand_over, what)
        return True

    def _start_hand_over(self, what: str) -> None:
        """On the loop: hand over, kept and watched, so that a failure is logged rather than lost."""
        self.handing_over = asyncio.ensure_future(self.hand_over(what))
        self.handing_over.add_done_callback(functools.partial(self._handed_over, what))

    @staticmethod
    def _handed_over(what: str, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error(DEMO_HAND_OVER_FAILED.format(what=what), exc_info=task.exception())

    async def hand_over(self, what: str) -> None:
        """Stop playing, set the demo's game aside and offer a new game on every screen.

        The step under way is finished first (a new game being started lands before the set-aside, never after).
        """
        self.state.playing = False
        self.state.stopped_by = what
        self._stopping.set()
        task = self._task
        if task is not None and task is not asyncio.current_task():
            try:
                await task
            except asyncio.CancelledError:
                current = asyncio.current_task()
                if current is not None and current.cancelling():
                    raise  # the table is being stopped
            except Exception:
                log.exception(DEMO_LOOP_FAILED.format(where=self._where))
        await self.table.idle()
        await self.table.set_aside(Message(DEMO_STOPPED, (DEMO_STOPPED_DETAIL,)))
        log.warning(DEMO_HANDED_OVER.format(what=what))


def load_scenario(path: Path | None) -> Scenario:
    """The scenario to play (the shipped whole game by default); ValueError naming the file when it cannot be read."""
    chosen = path or default_scenario()
    if not chosen.is_file():
        raise ValueError(NO_SCENARIO.format(path=chosen))
    return parse(chosen)


def run_demo(config: Any, *, sim: bool, host: str, port: int, db_path: Path, scenario: Path | None = None,
             step_seconds: float = STEP_SECONDS, pause_seconds: float = PAUSE_SECONDS, loops: int = 0) -> int:
    """Serve the table as ``touchline run`` does, with the recorded game playing on it; return the exit code."""
    from device.serve import build_table, serve
    from drivers.errors import DriverError

    recorded = load_scenario(scenario)
    dice = ForcedDice()
    try:
        table = build_table(config, sim=sim, db_path=db_path, dice=dice)
    except DriverError as exc:
        log.error("%s", exc)
        return 1
    demo = Demo(table, recorded, dice, step_seconds=step_seconds, pause_seconds=pause_seconds, loops=loops)

    async def main() -> int:
        async def play() -> None:
            while not table.running:
                await asyncio.sleep(0.05)
            await demo.run()

        playing = asyncio.create_task(play())
        try:
            return await serve(table, host=host, port=port)
        finally:
            playing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await playing

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 0
    except DriverError as exc:
        log.error("%s", exc)
        return 1
    finally:
        table.session.store.close()
