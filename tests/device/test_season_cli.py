"""``touchline season`` and ``touchline export season``: what an owner types, reads, and the exit codes."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from device import cli, errors
from device.seasons import NOT_OVER
from device.store import open_store
from tests.device.test_cli import _drop_our_log_handler  # noqa: F401 (autouse: main()'s log handler goes)
from tests.season_logs import evenings

pytestmark = pytest.mark.slow  # three whole games played by the engine


@pytest.fixture(scope="module")
def played_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three whole games played by the engine, and a fourth just begun."""
    return evenings(tmp_path_factory.mktemp("evenings"), begun=True)[0]


@pytest.fixture
def db(played_log: Path, tmp_path: Path) -> Path:
    """A copy of the log to change."""
    target = tmp_path / "touchline.db"
    shutil.copy(played_log, target)
    return target


def run(db: Path, *args: str) -> int:
    return cli.main([*args, "--db", str(db)])


def test_a_season_is_made_filled_and_shown_with_its_standings(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(db, "season", "list") == 0
    assert capsys.readouterr().out.strip() == cli.NO_SEASONS
    assert run(db, "season", "new", "Autumn league") == 0
    assert capsys.readouterr().out.strip() == cli.SEASON_MADE.format(name="Autumn league", quoted="'Autumn league'")
    assert run(db, "season", "show", "Autumn league") == 0
    assert capsys.readouterr().out.strip() == cli.SEASON_EMPTY.format(name="Autumn league", quoted="'Autumn league'")
    assert run(db, "season", "add", "autumn league", "1", "2", "3", "last") == 0
    assert capsys.readouterr().out.strip() == cli.SEASON_ADDED.format(name="Autumn league", games="1, 2, 3, 4", count=4)
    assert run(db, "season", "list") == 0
    run(db, "season", "new", "Winter")
    capsys.readouterr()
    assert run(db, "season", "list") == 0
    assert capsys.readouterr().out.splitlines() == [
        "name           games", "Autumn league  1, 2, 3, 4", "Winter         -"]

    assert run(db, "season", "show", "Autumn league") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Autumn league: 4 game(s), 3 counted"
    assert lines[1].split() == ["pos", "club", "played", "VP", "wins", "avg", "rank"]
    clubs = [line.split() for line in lines[2:6]]
    assert [c[0] for c in clubs] == ["1", "2", "3", "4"]
    assert {f"{c[1]} {c[2]}": int(c[3]) for c in clubs} == {"Club 1": 3, "Club 2": 3, "Club 3": 3, "Club 4": 2}
    vp = [int(c[4]) for c in clubs]
    assert vp == sorted(vp, reverse=True)
    games = lines[7:]
    assert games[0].split()[:4] == ["1.", "game", "1", "finished"] and "VP (rank 1)" in games[0]
    assert games[3].split()[:4] == ["4.", "game", "4", "playing"] and games[3].endswith(NOT_OVER)


def test_taking_a_game_out_and_deleting_a_season_keep_the_games(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(db, "season", "new", "Autumn")
    run(db, "season", "add", "Autumn", "1", "2")
    capsys.readouterr()
    assert run(db, "season", "remove", "Autumn", "1") == 0
    assert capsys.readouterr().out.strip() == cli.SEASON_REMOVED.format(name="Autumn", games="1", count=1)
    assert run(db, "season", "delete", "Autumn") == 0
    assert capsys.readouterr().out.strip() == cli.SEASON_DELETED.format(name="Autumn", count=1)
    with open_store(db) as store:
        assert store.seasons() == [] and len(store.games()) == 4


@pytest.mark.parametrize(("args", "sentence"), [
    (("season", "new", ""), errors.SEASON_NAME_EMPTY),
    (("season", "new", "Autumn"), errors.SEASON_NAME_TAKEN.format(name="Autumn")),
    (("season", "add", "Autumn", "9"), errors.NO_SUCH_GAME.format(game=9)),
    (("season", "add", "Autumn", "two"), cli.GAME_ID_BAD.format(text="two")),
    (("season", "add", "Winter", "1"), errors.GAME_IN_OTHER_SEASON.format(game=1, season="Autumn")),
    (("season", "add", "Spring", "2"), errors.NO_SUCH_SEASON.format(season="Spring", known="'Autumn', 'Winter'")),
    (("season", "remove", "Winter", "1"), errors.GAME_NOT_IN_SEASON.format(game=1, season="Winter")),
    (("export", "season", "--format", "csv"), cli.SEASON_EXPORT_NEEDS_NAME),
    (("export", "season", "Autumn", "--format", "bgstats"), cli.SEASON_NOT_BGSTATS),
    (("export", "1", "Autumn"), cli.EXPORT_ONE_GAME.format(extra="Autumn")),
])
def test_bad_input_says_what_to_do_exits_non_zero_and_changes_nothing(
        db: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], sentence: str) -> None:
    run(db, "season", "new", "Autumn")
    run(db, "season", "new", "Winter")
    run(db, "season", "add", "Autumn", "1")
    capsys.readouterr()
    with open_store(db) as store:
        before = store.seasons()
    assert run(db, *args) == 1
    captured = capsys.readouterr()
    assert captured.err.strip() == f"touchline {args[0]}: {sentence}" and "Traceback" not in captured.err
    assert captured.out == ""
    with open_store(db) as store:
        assert store.seasons() == before


def test_a_season_command_without_its_arguments_shows_the_usage(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run(db, "season", "add", "Autumn")
    assert exited.value.code == 2
    assert "the following arguments are required: GAME" in capsys.readouterr().err


def test_a_season_exports_as_json_and_csv(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(db, "season", "new", "Autumn league")
    run(db, "season", "add", "Autumn league", "1", "2", "3", "4")
    capsys.readouterr()
    assert run(db, "export", "season", "Autumn league", "--format", "json") == 0
    document = json.loads(capsys.readouterr().out)
    assert document["name"] == "Autumn league" and [g["counted"] for g in document["games"]] == [True] * 3 + [False]
    assert [c["position"] for c in document["standings"]] == [1, 2, 3, 4]
    out = tmp_path / "autumn.csv"
    assert run(db, "export", "season", "autumn league", "--format", "csv", "-o", str(out)) == 0
    assert capsys.readouterr().err.strip() == cli.SEASON_WRITTEN.format(name="Autumn league", path=out)
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert [r[1] for r in rows[1:5]] == [c["club"] for c in document["standings"]]
