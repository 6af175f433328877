"""A whole game by a shipped scenario through ``touchline replay``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.played import played

ROOT = Path(__file__).resolve().parents[2]


def replay(name: str) -> dict:  # type: ignore[type-arg]
    out = subprocess.run(
        [sys.executable, "-m", "device.cli", "--log-level", "WARNING", "replay", str(ROOT / "scenarios" / name)],
        capture_output=True, text=True, cwd=ROOT, timeout=240,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)  # type: ignore[no-any-return]


@pytest.mark.slow
def test_full_game_scenario_plays_eight_weeks_to_the_final_scoring(tmp_path: Path) -> None:
    final = replay("full-game.toml")
    view = final["view"]
    assert view["stage"] == "over" and view["week"] == 8
    scores = view["final"]
    assert sorted(row["seat"] for row in scores) == [1, 2, 3, 4]
    assert sum(1 for row in scores if row["winner"]) >= 1
    for row in scores:  # each total is its breakdown
        parts = ("league", "vp_tokens", "staff_sets", "infrastructure", "objective", "office", "budget")
        assert row["total"] == sum(row[p] for p in parts)
    assert all("Game over" in "\n".join(lines) for sid, lines in final["screens"].items() if sid != "shared.screen")
    assert final["status"] == "finished"
    # the replay is deterministic: every die was forced by the file (the same game, played again in this process)
    assert final == played("full-game.toml", tmp_path)[1]


def test_full_week_scenario_ends_on_the_next_monday() -> None:
    final = replay("full-week.toml")
    assert (final["view"]["stage"], final["view"]["week"]) == ("monday", 2)
    assert final["screens"]["seat1.screen"][0] == "Wk 2/8 Mon"


@pytest.mark.slow
def test_after_a_restart_the_finished_game_stays_on_the_screens(tmp_path: Path) -> None:
    from device.session import Session
    from device.sim import ForcedDice
    from device.store import open_store
    from device.table_file import default_sim_table

    db, _ = played("full-game.toml", tmp_path)
    store = open_store(db)
    try:
        session = Session(default_sim_table(), store, ForcedDice(strict=True))
        view = session.view()
        assert view is not None and view["stage"] == "over"
        for row in view["final"]:
            text = session.screen(f"seat{row['seat']}.screen").text()
            assert f"{row['total']} VP" in text and "Game over" in text
    finally:
        store.close()


@pytest.mark.slow
def test_the_shipped_scenarios_are_recorded_from_the_current_rules_and_deck(tmp_path: Path) -> None:
    """When the demo deck or the rules change, the shipped scenarios must be recorded again."""
    from scenarios import record

    assert record.main([str(tmp_path)]) == 0
    for name in ("full-week.toml", "full-game.toml", "modules-game.toml", "club-matches-game.toml", "epic-league-game.toml",
                 "transfers-game.toml"):
        fresh = (tmp_path / name).read_text(encoding="utf-8")
        shipped = (ROOT / "scenarios" / name).read_text(encoding="utf-8")
        assert fresh == shipped, f"scenarios/{name} is out of date: run `python -m scenarios.record` and commit it"


@pytest.mark.slow
def test_a_game_played_to_its_final_scoring_is_finished_in_the_log_and_exports_its_scores(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from urllib.parse import unquote

    from device import cli
    from device.export import BGSTATS_LINK, UNNAMED_PLAYER
    from device.session import Session
    from device.sim import ForcedDice
    from device.store import open_store
    from device.table_file import default_sim_table
    from web.actions import Adjust, parse_action

    db, final = played("full-game.toml", tmp_path)
    totals = {row["seat"]: row["total"] for row in final["view"]["final"]}
    winners = {row["seat"] for row in final["view"]["final"] if row["winner"]}

    def status() -> str:
        assert cli.main(["games", "--db", str(db)]) == 0
        return capsys.readouterr().out.splitlines()[-1].split()[1]

    assert status() == "finished"
    assert cli.main(["export", "last", "--format", "bgstats", "--db", str(db)]) == 0
    play = json.loads(unquote(capsys.readouterr().out.strip()[len(BGSTATS_LINK):]))
    names = {row["seat"]: row["name"] for row in final["view"]["final"]}
    # Nobody named the players at New game: each is the player at its seat, the club is the role.
    assert sorted((p["name"], p["role"], p["score"], p["winner"]) for p in play["players"]) == sorted(
        (UNNAMED_PLAYER.format(seat=seat), names[seat], total, seat in winners) for seat, total in totals.items())
    store = open_store(db)
    try:
        session = Session(default_sim_table(), store, ForcedDice(strict=True))
        dropped = session.undo()["undone"]
        assert status() == "playing"  # undoing the final event reopens the game
        assert session.view()["stage"] != "over"
        session.page(parse_action(dropped))
        assert status() == "finished"
        # A correction after the final scoring is kept with the finished game; undoing it leaves the game over.
        session.page(Adjust(seat=1, what="vp_tokens", delta=1, reason="a token forgotten"))
        assert status() == "finished"
        assert session.undo()["undone"]["what"] == "vp_tokens"
        assert status() == "finished" and session.view()["stage"] == "over"
    finally:
        store.close()


@pytest.mark.slow
def test_a_log_left_playing_after_the_final_scoring_is_marked_finished_when_the_table_starts(tmp_path: Path) -> None:
    """As an older release could leave it (it noted the end in a second write, after the last event)."""
    import sqlite3

    from device.session import Session
    from device.sim import ForcedDice
    from device.store import open_store
    from device.table_file import default_sim_table

    db, _ = played("full-game.toml", tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET status = 'playing', ended = NULL")
    store = open_store(db)
    try:
        session = Session(default_sim_table(), store, ForcedDice(strict=True))
        assert session.view()["stage"] == "over"
        assert store.game(session.game).status == "finished" and store.current_game() is None
    finally:
        store.close()
