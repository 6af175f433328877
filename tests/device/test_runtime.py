"""The running table: driver threads feed one asyncio loop; the page submits; a restart resumes from the log."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from device.running import RunningTable
from device.serve import build_table
from web.actions import Kickoff, parse_action
from device.table_file import default_sim_table
from tests.e2e.table import new_game_action

WAIT = 10.0  # seconds a test waits for a thread to deliver; it never asserts on how long it took


async def until(check: Callable[[], Any], what: str) -> Any:
    """Wait until ``check()`` is truthy (the drivers' threads deliver in their own time)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        await asyncio.sleep(0.01)
    pytest.fail(f"waited in vain for {what}")


def seat_lines(table: RunningTable, seat: int) -> list[str]:
    return table.snapshot()["screens"][f"seat{seat}.screen"]["lines"]  # type: ignore[no-any-return]


def test_taps_and_presses_from_driver_threads_reach_the_game_and_the_panels(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = build_table(default_sim_table(), sim=True, db_path=tmp_path / "t.db")
        await table.start()
        try:
            assert table.snapshot()["game"] is None and table.snapshot()["simulation"] is True
            await table.submit(parse_action(new_game_action()))
            sim = table.sim
            for card in ("dir_01", "dir_02", "dir_03", "vet_01", "yg_02"):
                await asyncio.to_thread(sim.place, "seat1.tap", card)
                await asyncio.to_thread(sim.lift, "seat1.tap")
            await until(lambda: table.snapshot()["game"]["clubs"][0]["directors"], "seat 1's Directors")
            assert [d["id"] for d in table.snapshot()["game"]["clubs"][0]["directors"]] == ["dir_01", "dir_02", "dir_03"]
            await until(lambda: table.snapshot()["game"]["clubs"][0]["players"], "seat 1's starting pair")
            # an unknown tag from the reader thread: the screen says so, nothing changes
            events = table.session.store.events(table.session.game)
            await asyncio.to_thread(sim.place_tag, "seat2.tap", "04-00-00-00-00-00-09")
            await until(lambda: "Unknown card — enrol it on the page" in seat_lines(table, 2), "the unknown-card message")
            assert table.session.store.events(table.session.game) == events
            # the simulated panel lights what the text model says (not a blank frame)
            frame = sim.frame("seat1.screen")
            assert frame.size == (128, 64) and frame.getbbox() is not None
            assert sim.frame_png("seat1.screen").startswith(b"\x89PNG")
            # a refused page action raises with the rules' sentence and changes nothing
            with pytest.raises(ValueError, match="Matchday"):
                await table.submit(Kickoff(seat=1))
        finally:
            await table.stop()
            table.session.store.close()

        again = build_table(default_sim_table(), sim=True, db_path=tmp_path / "t.db")
        await again.start()
        try:  # after a restart the table is where it was, and the screens show it
            assert [d["id"] for d in again.snapshot()["game"]["clubs"][0]["directors"]] == ["dir_01", "dir_02", "dir_03"]
            assert seat_lines(again, 1)[0] == "Wk 0 Setup"
        finally:
            await again.stop()
            again.session.store.close()

    asyncio.run(scenario())


def test_the_page_is_told_of_every_change_and_a_refusal_that_shows_nothing_new_is_no_change(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = build_table(default_sim_table(), sim=True, db_path=tmp_path / "s.db")
        await table.start()
        told: list[int] = []
        table.watch(lambda: told.append(table.version))
        try:
            first = table.snapshot()
            assert first["game"] is None
            await table.submit(parse_action(new_game_action()))
            second = table.snapshot()
            assert second["game"]["stage"] == "setup" and second["version"] > first["version"]
            assert told == [second["version"]]
            with pytest.raises(ValueError):
                await table.submit(Kickoff(seat=1))  # refused: nothing changed, no screen says more
            assert table.snapshot()["version"] == second["version"] and told == [second["version"]]
        finally:
            await table.stop()
            table.session.store.close()

    asyncio.run(scenario())


def test_the_web_app_drives_the_running_table(tmp_path: Path) -> None:
    from web.app import create_app

    async def scenario() -> None:
        table = build_table(default_sim_table(), sim=True, db_path=tmp_path / "w.db")
        await table.start()
        try:
            app = create_app(table)
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://table") as client:
                state = (await client.get("/api/state")).json()
                assert state["game"] is None and "seat1.screen" in state["screens"]
                layout = (await client.get("/api/sim/layout")).json()
                assert {p["id"] for p in layout["pads"]} == {"seat1.tap", "seat2.tap", "seat3.tap", "seat4.tap", "shared.opponent"}
                png = await client.get("/api/sim/screens/seat1.screen.png")
                assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
        finally:
            await table.stop()
            table.session.store.close()

    asyncio.run(scenario())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
def test_touchline_run_sim_tells_systemd_it_is_ready_and_serves_the_page(tmp_path: Path) -> None:
    notify = tmp_path / "notify.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(notify))
    listener.settimeout(WAIT * 2)
    port = _free_port()
    env = {**os.environ, "NOTIFY_SOCKET": str(notify), "WATCHDOG_USEC": "2000000"}
    child = subprocess.Popen(
        [sys.executable, "-m", "device.cli", "run", "--sim", "--port", str(port), "--db", str(tmp_path / "r.db")],
        cwd=Path(__file__).resolve().parents[2], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        messages: list[str] = []
        while "READY=1" not in messages or not any(m == "WATCHDOG=1" for m in messages):
            messages.extend(listener.recv(4096).decode().split("\n"))
        state = httpx.get(f"http://127.0.0.1:{port}/api/state", timeout=WAIT).json()
        assert state["game"] is None
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=WAIT * 2) == 0
    finally:
        if child.poll() is None:
            child.kill()
        listener.close()


def test_a_table_whose_readers_sit_on_a_serial_hub_runs_in_simulation(tmp_path: Path) -> None:
    from device.table_file import TABLES_DIR, load_table

    async def scenario() -> None:
        table = build_table(load_table(TABLES_DIR / "four-seats-hub.toml"), sim=True, db_path=tmp_path / "h.db")
        await table.start()
        try:
            await asyncio.to_thread(table.sim.place_tag, "seat2.tap", "04-11-22-33-44-55-66")
            await until(lambda: "Unknown card — enrol it on the page" in seat_lines(table, 2), "the hub's tap on seat 2")
        finally:
            await table.stop()
            table.session.store.close()

    asyncio.run(scenario())


def test_taps_of_a_choice_under_way_survive_a_restart(tmp_path: Path) -> None:
    from device.sim import SimulatedTable

    with SimulatedTable.open(tmp_path / "c.db") as table:
        table.page(new_game_action())
        table.tap("seat1.tap", "dir_01")
        table.tap("seat1.tap", "dir_02")
        assert "2 of 3 tapped" in table.screen_texts()["seat1.screen"]
    with SimulatedTable.open(tmp_path / "c.db") as again:  # the plug was pulled; the table starts again
        assert "2 of 3 tapped" in again.screen_texts()["seat1.screen"]
        again.tap("seat1.tap", "dir_03")
        assert [d["id"] for d in again.view()["clubs"][0]["directors"]] == ["dir_01", "dir_02", "dir_03"]


def test_a_new_game_abandons_the_one_being_played_but_keeps_a_finished_one(tmp_path: Path) -> None:
    from device.sim import SimulatedTable

    with SimulatedTable.open(tmp_path / "g.db") as table:
        table.page(new_game_action())
        first = table.session.game
        table.page(new_game_action())
        store = table.session.store
        assert store.game(first).status == "abandoned"
        second = table.session.game
        store.finish(second)
        table.page(new_game_action())
        assert store.game(second).status == "finished"
        assert [g.status for g in store.games()] == ["abandoned", "finished", "playing"]


def test_a_busy_port_is_a_clear_message_and_a_clean_exit(tmp_path: Path) -> None:
    from device.serve import PORT_UNAVAILABLE

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = subprocess.run(
            [sys.executable, "-m", "device.cli", "run", "--sim", "--port", str(port), "--db", str(tmp_path / "b.db")],
            cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=60,
        )
    assert out.returncode == 2
    assert PORT_UNAVAILABLE.split("(")[0].format(host="127.0.0.1", port=port) in out.stderr


def test_running_a_real_table_without_its_hardware_says_what_is_missing(tmp_path: Path) -> None:
    import importlib.util

    if importlib.util.find_spec("RPi") is not None and importlib.util.find_spec("spidev") is not None:
        pytest.skip("this machine has the Pi's SPI and GPIO libraries: the real table would start and keep running")
    env = {k: v for k, v in os.environ.items() if k != "TOUCHLINE_BACKEND"}
    out = subprocess.run(
        [sys.executable, "-m", "device.cli", "run", "--table", "device/tables/four-seats-spi.toml", "--port", str(_free_port()),
         "--db", str(tmp_path / "r.db")],
        cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=60, env=env,
    )
    assert out.returncode == 1
    assert "Traceback" not in out.stderr and "TOUCHLINE_BACKEND=sim" in out.stderr


def test_the_page_never_shows_a_club_s_secret_objective_or_face_down_opponents(tmp_path: Path) -> None:
    from device.sim import SimulatedTable

    with SimulatedTable.open(tmp_path / "o.db") as table:
        table.page(new_game_action())
        session = table.session
        assert session.state is not None and session.state.clubs[0].objective == "obj_01"  # the engine knows it
        page = session.snapshot()
        assert all(club["objective"] is None for club in page["game"]["clubs"])
        assert all("card" not in a and "cards" not in a for a in page["log"] if a.get("secret"))
        assert "obj_01" not in json.dumps(page)
