"""``touchline demo`` hands the table over whenever a person presses a button: before the demo begins, in the middle
of its game, at the last step of a loop, while it starts its game again, in the pause between two games, and after
its game failed.  The demo then plays no more, its game is set aside (kept in the log as abandoned), no game of the
demo's lands afterwards, and every screen offers a new game.  A failure on the way is logged, never lost.

The presses are made on the simulated table's real button (its driver thread hands them to the demo), from the very
thread that reached the chosen moment; the tests wait for states, never for a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from device.demo import DEMO_GAME_FAILED, DEMO_HAND_OVER_FAILED, DEMO_STOPPED, DEMO_STOPPED_DETAIL, Demo, load_scenario
from device.errors import StoreError
from device.running import RunningTable
from device.serve import build_table
from device.sim import ForcedDice
from device.table_file import default_sim_table
from drivers.base import ButtonReading, TagReading
from tests.device.test_runtime import WAIT, until
from web.actions import NewGame

SCENARIOS = Path(__file__).parents[2] / "scenarios"
BUTTON = "seat1.roll"
"""The button the person presses."""


def short_game(folder: Path) -> Path:
    """The setup and first Board meeting of full-week.toml, as a scenario of its own (a loop takes seconds)."""
    text = (SCENARIOS / "full-week.toml").read_text(encoding="utf-8")
    head = text[: text.index("# The reroll windows close")]
    path = folder / "short.toml"
    path.write_text(head.replace('title = "A whole week of a four-club game"', 'title = "A short demo"'), encoding="utf-8")
    return path


def press(table: RunningTable, demo: Demo) -> None:
    """A person presses the button (from whichever thread calls this), and the demo takes the press."""
    table.sim.press(BUTTON)
    deadline = time.monotonic() + WAIT
    while demo.state.playing:
        if time.monotonic() > deadline:
            raise AssertionError(f"the demo never took the press of {BUTTON}")
        time.sleep(0.005)


@contextlib.asynccontextmanager
async def demo_table(tmp_path: Path, *, pause_seconds: float = 0.0) -> AsyncIterator[tuple[RunningTable, Demo]]:
    """The simulated table, started, with the short demo ready to play at full speed (not yet playing)."""
    dice = ForcedDice()
    table = build_table(default_sim_table(), sim=True, db_path=tmp_path / "demo.db", dice=dice)
    await table.start()
    demo = Demo(table, load_scenario(short_game(tmp_path)), dice, step_seconds=0.0, pause_seconds=pause_seconds)
    try:
        yield table, demo
    finally:
        for task in (demo._task, demo.handing_over):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        await table.stop()
        table.session.store.close()


def wrap(owner: Any, name: str, before: Callable[..., bool]) -> threading.Event:
    """Call ``before(*args)`` ahead of each call of ``owner.name``; the event is set once a call for which it
    returned True (it pressed) has returned."""
    original = getattr(owner, name)
    returned = threading.Event()

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        pressed = before(*args, **kwargs)
        try:
            return original(*args, **kwargs)
        finally:
            if pressed:
                returned.set()

    setattr(owner, name, wrapper)
    return returned


DISK_FAILS = "The game log could not be written: disk I/O error"


async def logged(caplog: pytest.LogCaptureFixture, said: str) -> logging.LogRecord:
    """The log record saying ``said`` once it has come, which must carry the disk's failure with its traceback."""
    record: logging.LogRecord = await until(
        lambda: next((r for r in caplog.records if r.getMessage() == said), None), f"the log saying {said!r}")
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert str(record.exc_info[1]) == DISK_FAILS
    return record


async def handed_over(table: RunningTable, demo: Demo, playing: asyncio.Task[None]) -> None:
    """The demo has stopped for good, its game is set aside, and every screen offers a new game."""
    await until(lambda: demo.handing_over is not None and demo.handing_over.done(), "the table handed over")
    assert demo.handing_over is not None and demo.handing_over.exception() is None
    await until(playing.done, "the demo's loop ended")
    await table.idle()
    shown = table.snapshot()
    assert shown["demo"]["playing"] is False and shown["demo"]["stopped_by"] == f"a press of {BUTTON}"
    assert shown["game"] is None
    for screen in shown["screens"].values():
        assert screen["lines"][-2:] == [DEMO_STOPPED, DEMO_STOPPED_DETAIL]
    games = table.session.store.games()
    assert games and all(game.status == "abandoned" for game in games)


def test_a_press_before_the_demo_begins_hands_the_table_over(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with demo_table(tmp_path) as (table, demo):
            await asyncio.to_thread(press, table, demo)
            playing = asyncio.create_task(demo.run())
            await until(lambda: demo.handing_over is not None and demo.handing_over.done(), "the table handed over")
            await until(playing.done, "the demo's loop ended")
            shown = table.snapshot()
            assert shown["demo"]["playing"] is False and shown["game"] is None
            assert all(s["lines"][-2:] == [DEMO_STOPPED, DEMO_STOPPED_DETAIL] for s in shown["screens"].values())
            assert table.session.store.games() == []  # the demo never started a game

    asyncio.run(scenario())


MOMENTS = ("while a tap of its game is handled", "while the last step of a loop is handled",
           "while it starts its game again")


@pytest.mark.parametrize("moment", MOMENTS)
def test_a_press_at_any_moment_of_a_loop_hands_the_table_over_and_no_demo_game_lands_after(
        tmp_path: Path, moment: str) -> None:
    async def scenario() -> None:
        async with demo_table(tmp_path) as (table, demo):
            last = demo.scenario.steps[-1]
            seen = {"taps": 0, "last": 0, "games": 0}

            def at_reading(reading: Any) -> bool:
                if moment == MOMENTS[0] and isinstance(reading, TagReading) and reading.kind == "tap":
                    seen["taps"] += 1
                    if seen["taps"] == 7:  # seat 2's second Director, in the first loop
                        press(table, demo)
                        return True
                if moment == MOMENTS[1] and reading == ButtonReading(str(last.kind), str(last.target)):
                    seen["last"] += 1
                    if seen["last"] == 2:  # the second loop's last step
                        press(table, demo)
                        return True
                return False

            def at_page(action: Any) -> bool:
                if moment == MOMENTS[2] and isinstance(action, NewGame):
                    seen["games"] += 1
                    if seen["games"] == 2:  # the second loop's new game, under way
                        press(table, demo)
                        return True
                return False

            reading_done = wrap(table.session, "reading", at_reading)
            page_done = wrap(table.session, "page", at_page)
            playing = asyncio.create_task(demo.run())
            await handed_over(table, demo, playing)
            # What the demo was doing when the press came has ended, and has not brought a game back.
            assert await asyncio.to_thread((page_done if moment == MOMENTS[2] else reading_done).wait, WAIT)
            await table.idle()
            assert table.snapshot()["game"] is None and table.session.game is None
            games = table.session.store.games()
            assert len(games) == (1 if moment == MOMENTS[0] else 2)
            assert all(game.status == "abandoned" for game in games)

    asyncio.run(scenario())


def test_a_press_in_the_pause_between_two_games_ends_the_pause_and_hands_the_table_over(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with demo_table(tmp_path, pause_seconds=3600.0) as (table, demo):
            playing = asyncio.create_task(demo.run())
            await until(lambda: demo.state.loops == 1, "the first game played to its end")
            await asyncio.to_thread(press, table, demo)
            await handed_over(table, demo, playing)
            assert len(table.session.store.games()) == 1

    asyncio.run(scenario())


def test_a_demo_game_that_fails_is_logged_played_again_and_a_press_still_hands_the_table_over(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="device.demo")

    async def scenario() -> None:
        async with demo_table(tmp_path) as (table, demo):
            store = table.session.store
            start_game = store.start_game
            starts = {"n": 0}

            def failing_once(*args: Any, **kwargs: Any) -> Any:
                starts["n"] += 1
                if starts["n"] == 2:  # the second loop's new game cannot be written
                    raise StoreError(DISK_FAILS)
                return start_game(*args, **kwargs)

            store.start_game = failing_once  # type: ignore[method-assign]
            playing = asyncio.create_task(demo.run())
            await logged(caplog, DEMO_GAME_FAILED.format(where=demo.scenario.steps[0].where))
            await until(lambda: starts["n"] >= 3, "the demo's game started again")
            await asyncio.to_thread(press, table, demo)
            await handed_over(table, demo, playing)

    asyncio.run(scenario())


def test_a_hand_over_that_fails_is_logged_and_the_demo_plays_no_more(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="device.demo")

    async def scenario() -> None:
        async with demo_table(tmp_path) as (table, demo):
            def cannot_write(*args: Any, **kwargs: Any) -> None:
                raise StoreError(DISK_FAILS)

            table.session.set_aside = cannot_write  # type: ignore[method-assign]
            playing = asyncio.create_task(demo.run())
            await until(lambda: demo.state.loops == 1, "the first game played to its end")
            await asyncio.to_thread(press, table, demo)
            await logged(caplog, DEMO_HAND_OVER_FAILED.format(what=f"a press of {BUTTON}"))
            await until(playing.done, "the demo's loop ended")
            games = len(table.session.store.games())
            await table.idle()
            assert table.snapshot()["demo"]["playing"] is False
            assert len(table.session.store.games()) == games  # no demo game started after the press

    asyncio.run(scenario())
