"""Seasons: kept in the game log, and ranked from the engine's final scoring of each of their games."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from device import errors
from device.errors import GameNotFound, SeasonNotFound, SeasonRefused
from device.export import build_export, to_json
from device.seasons import ABANDONED, NOT_OVER, FinalScores, SeasonBook, render_season, standings
from device.store import MIGRATIONS, SCHEMA_VERSION, EventStore, GameRecord, open_store
from tests.season_logs import evenings


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[list[dict[str, Any]]]]:
    """Three whole games played by the engine (shared read-only: tests copy the log before changing it)."""
    return evenings(tmp_path_factory.mktemp("league"))


@pytest.fixture
def store(league: tuple[Path, Any], tmp_path: Path) -> EventStore:
    """A copy of the three games' log, to change."""
    target = tmp_path / "touchline.db"
    with sqlite3.connect(league[0]) as source, sqlite3.connect(target) as copied:
        source.backup(copied)
    source.close()
    copied.close()
    opened = open_store(target)
    yield opened  # type: ignore[misc]
    opened.close()


@pytest.fixture
def blank(tmp_path: Path) -> EventStore:
    """A log with three finished games whose logs are empty (their final scoring comes from the test when needed)."""
    opened = open_store(tmp_path / "blank.db")
    for _ in range(3):
        opened.finish(opened.new_game().id)
    yield opened  # type: ignore[misc]
    opened.close()


# --- keeping seasons -------------------------------------------------------------------------------------------------


def test_a_season_keeps_its_games_in_the_order_they_were_added_across_a_restart(blank: EventStore) -> None:
    season = blank.new_season("  Autumn league ")
    assert season.name == "Autumn league" and season.games == ()
    blank.add_to_season(season.id, [3, 1])
    blank.add_to_season(season.id, [2, 1])  # game 1 is in already: it keeps its place
    blank.close()
    with open_store(blank.path) as again:
        assert [(s.name, s.games) for s in again.seasons()] == [("Autumn league", (3, 1, 2))]
        assert again.season("autumn LEAGUE").id == season.id
        assert again.season_of(1) == again.season(season.id) and again.season_of(99) is None


@pytest.mark.parametrize(("name", "sentence"), [
    ("", errors.SEASON_NAME_EMPTY),
    ("   ", errors.SEASON_NAME_EMPTY),
    ("x" * 61, errors.SEASON_NAME_TOO_LONG.format(limit=60, length=61)),
    ("Autumn\nleague", errors.SEASON_NAME_BAD),
])
def test_a_bad_name_is_refused_with_what_to_do_and_nothing_is_made(blank: EventStore, name: str, sentence: str) -> None:
    with pytest.raises(SeasonRefused) as refused:
        blank.new_season(name)
    assert str(refused.value) == sentence
    assert blank.seasons() == []


def test_a_name_already_taken_in_another_case_is_refused(blank: EventStore) -> None:
    blank.new_season("Autumn league")
    with pytest.raises(SeasonRefused, match="There is already a season called 'Autumn league'"):
        blank.new_season("AUTUMN LEAGUE")
    assert len(blank.seasons()) == 1


def test_a_game_counts_in_one_season_only_and_a_refused_add_adds_nothing(blank: EventStore) -> None:
    autumn = blank.new_season("Autumn")
    winter = blank.new_season("Winter")
    blank.add_to_season(autumn.id, [1])
    with pytest.raises(SeasonRefused) as refused:
        blank.add_to_season(winter.id, [2, 1])
    assert str(refused.value) == errors.GAME_IN_OTHER_SEASON.format(game=1, season="Autumn")
    with pytest.raises(GameNotFound, match="There is no game 99"):
        blank.add_to_season(winter.id, [2, 99])
    with pytest.raises(SeasonRefused, match="Name at least one game"):
        blank.add_to_season(winter.id, [])
    assert blank.season(winter.id).games == ()  # game 2 was not added by either refused request


def test_removing_keeps_the_game_and_frees_it_for_another_season(blank: EventStore) -> None:
    autumn = blank.new_season("Autumn")
    blank.add_to_season(autumn.id, [1, 2])
    with pytest.raises(SeasonRefused, match="Game 3 is not in the season 'Autumn'"):
        blank.remove_from_season(autumn.id, [2, 3])
    assert blank.season(autumn.id).games == (1, 2)
    assert blank.remove_from_season(autumn.id, [1]).games == (2,)
    assert [g.id for g in blank.games()] == [1, 2, 3]
    winter = blank.new_season("Winter")
    blank.add_to_season(winter.id, [1])
    blank.delete_season(autumn.id)
    assert [s.name for s in blank.seasons()] == ["Winter"]
    assert blank.add_to_season(winter.id, [2]).games == (1, 2)


def test_an_unknown_season_names_the_seasons_there_are(blank: EventStore) -> None:
    with pytest.raises(SeasonNotFound) as none_yet:
        blank.season("Autumn")
    assert str(none_yet.value) == errors.NO_SEASONS_YET.format(season="Autumn")
    blank.new_season("Winter")
    with pytest.raises(SeasonNotFound) as unknown:
        blank.season("Autumn")
    assert str(unknown.value) == errors.NO_SUCH_SEASON.format(season="Autumn", known="'Winter'")


def test_a_log_of_the_previous_version_gains_seasons_and_keeps_its_games(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    conn = sqlite3.connect(db)
    for step in MIGRATIONS[:4]:
        conn.executescript(step)
    conn.execute("INSERT INTO games (created, status) VALUES ('2026-10-02T18:00:00.000Z', 'finished')")
    conn.execute("PRAGMA user_version = 4")
    conn.commit()
    conn.close()
    with open_store(db) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert [g.status for g in store.games()] == ["finished"] and store.seasons() == []
        assert store.add_to_season(store.new_season("Autumn").id, [1]).games == (1,)


# --- standings -----------------------------------------------------------------------------------------------------


@pytest.mark.slow  # three whole games played by the engine
def test_standings_add_up_each_games_final_scoring_as_the_engine_gave_it(store: EventStore, league: Any) -> None:
    finals = league[1]
    season = store.add_to_season(store.new_season("Autumn").id, [1, 2, 3])
    table = standings(store, season)
    vp: dict[str, int] = defaultdict(int)
    wins: dict[str, int] = defaultdict(int)
    ranks: dict[str, list[int]] = defaultdict(list)
    for final in finals:
        for row in final:
            vp[row["name"]] += row["total"]
            wins[row["name"]] += row["winner"]
            ranks[row["name"]].append(row["rank"])
    assert {c.name: (c.played, c.vp, c.wins) for c in table.clubs} == {
        name: (len(ranks[name]), vp[name], wins[name]) for name in vp}
    assert {c.name: c.average_rank for c in table.clubs} == {n: Fraction(sum(r), len(r)) for n, r in ranks.items()}
    # Club 4 sat out the betting game (three clubs): it played two of the three.
    assert next(c for c in table.clubs if c.name == "Club 4").played == 2
    # Best first: most VP, then most wins, then the better average rank.
    merits = [(-c.vp, -c.wins, c.average_rank) for c in table.clubs]
    assert merits == sorted(merits) and [c.position for c in table.clubs] == [1, 2, 3, 4]
    for game, final in zip(table.games, finals):
        assert game.counted and game.winners == tuple(r["name"] for r in final if r["winner"])


@pytest.mark.slow  # three whole games played by the engine
def test_a_game_not_over_or_abandoned_counts_for_nothing_and_says_so(store: EventStore) -> None:
    setup = store.events(1)[:3]
    running = store.start_game(setup)
    dropped = store.start_game(setup)
    store.finish(dropped.id, status="abandoned")
    season = store.add_to_season(store.new_season("Autumn").id, [running.id, 1, dropped.id])
    table = standings(store, season)
    assert [(g.id, g.counted, g.note) for g in table.games] == [
        (running.id, False, NOT_OVER), (1, True, ""), (dropped.id, False, ABANDONED)]
    assert all(c.played == 1 for c in table.clubs)  # only game 1 counts
    assert table.games[0].final == () and table.games[2].final == ()


def _rows(*clubs: tuple[str, int, int]) -> list[dict[str, Any]]:
    return [{"seat": seat, "name": name, "total": vp, "rank": rank, "winner": rank == 1}
            for seat, (name, vp, rank) in enumerate(clubs, 1)]


def _scored(store: EventStore, finals: dict[int, list[dict[str, Any]]]) -> FinalScores:
    """Final scoring rows given per game, to hold the season's ordering rules to particular ties."""
    def view(game: GameRecord, _: list[dict[str, Any]]) -> dict[str, Any]:
        return {"final": finals[game.id]}
    return FinalScores(store, view)


def test_ties_go_to_more_wins_then_the_better_average_rank_then_are_shared(blank: EventStore) -> None:
    finals = {
        1: _rows(("Ann", 10, 1), ("Bea", 8, 2), ("Cid", 6, 3), ("Dan", 5, 4)),
        2: _rows(("Bea", 9, 1), ("Dan", 8, 2), ("Cid", 7, 3), ("Ann", 3, 4)),
        3: _rows(("Cid", 6, 1), ("Ann", 6, 2), ("Dan", 6, 3), ("Bea", 2, 4)),
    }
    # Each club 19 VP; Ann, Bea and Cid one win and ranks adding up to 7 each; Dan no win.
    season = blank.add_to_season(blank.new_season("Ties").id, [1, 2, 3])
    table = standings(blank, season, _scored(blank, finals))
    assert [(c.position, c.name, c.vp, c.wins) for c in table.clubs] == [
        (1, "Ann", 19, 1), (1, "Bea", 19, 1), (1, "Cid", 19, 1), (4, "Dan", 19, 0)]
    finals[3] = _rows(("Cid", 6, 1), ("Dan", 6, 2), ("Ann", 6, 3), ("Bea", 2, 4))  # Ann's ranks add up to 8 now
    table = standings(blank, blank.season(season.id), _scored(blank, finals))
    assert [(c.position, c.name) for c in table.clubs] == [(1, "Bea"), (1, "Cid"), (3, "Ann"), (4, "Dan")]


def test_clubs_are_matched_by_name_whatever_the_case_and_spaces(blank: EventStore) -> None:
    finals = {1: _rows(("Club  One", 5, 1), ("Two", 3, 2)), 2: _rows(("two", 6, 1), (" club one ", 1, 2))}
    season = blank.add_to_season(blank.new_season("Names").id, [1, 2])
    table = standings(blank, season, _scored(blank, finals))
    assert [(c.name, c.played, c.vp) for c in table.clubs] == [("Two", 2, 9), ("Club One", 2, 6)]


def test_a_game_replayed_once_is_not_replayed_again_until_its_log_changes(blank: EventStore) -> None:
    replays: list[int] = []

    def view(game: GameRecord, events: list[dict[str, Any]]) -> dict[str, Any]:
        replays.append(game.id)
        return {"final": _rows(("Ann", len(events), 1))}

    scores = FinalScores(blank, view)
    game = blank.new_game().id
    blank.append(game, {"type": "roll", "seat": 1, "value": 3})
    season = blank.add_to_season(blank.new_season("Cache").id, [game])
    assert [c.vp for c in standings(blank, season, scores).clubs] == [1]
    assert [c.vp for c in standings(blank, season, scores).clubs] == [1]
    assert replays == [game]
    blank.append(game, {"type": "roll", "seat": 1, "value": 5})
    assert [c.vp for c in standings(blank, season, scores).clubs] == [2]
    assert replays == [game, game]


# --- exports and the page's side ------------------------------------------------------------------------------------


@pytest.mark.slow  # three whole games played by the engine
def test_the_json_export_holds_the_standings_and_each_game_with_its_link(store: EventStore) -> None:
    season = store.add_to_season(store.new_season("Autumn").id, [1, 2, 3])
    document = json.loads(render_season(standings(store, season), "json"))
    assert document["format"] == "touchline-season" and document["name"] == "Autumn"
    assert [g["id"] for g in document["games"]] == [1, 2, 3]
    assert document["games"][0]["link"] == "/final?game=1"
    top = document["standings"][0]
    assert top["position"] == 1 and sum(p["vp"] for p in top["games"].values()) == top["vp"]


@pytest.mark.slow  # three whole games played by the engine
def test_the_csv_export_opens_as_the_standings_then_the_games(store: EventStore) -> None:
    season = store.add_to_season(store.new_season("Autumn").id, [1, 2])
    rows = list(csv.reader(io.StringIO(render_season(standings(store, season), "csv"))))
    assert rows[0][:6] == ["position", "club", "played", "vp", "wins", "average rank"]
    assert rows[0][6:] == ["game 1 rank", "game 1 vp", "game 2 rank", "game 2 vp"]
    club4 = next(r for r in rows[1:5] if r[1] == "Club 4")
    assert club4[2] == "1" and club4[8:10] == ["", ""]  # not at the betting game's table
    blank = rows.index([])
    assert rows[blank + 1] == ["number", "game", "status", "counted", "winner", "note"]
    assert [r[1] for r in rows[blank + 2:]] == ["1", "2"]


@pytest.mark.slow  # three whole games played by the engine
def test_the_page_reads_a_finished_games_final_scoring_and_is_told_when_there_is_none(store: EventStore) -> None:
    book = SeasonBook(store)
    final = book.final(1)
    assert final["game"]["id"] == 1 and [r["rank"] for r in final["final"]] == sorted(r["rank"] for r in final["final"])
    running = store.start_game(store.events(1)[:3])
    with pytest.raises(ValueError, match=f"Game {running.id} is not over yet"):
        book.final(running.id)
    with pytest.raises(LookupError, match="There is no game 99"):
        book.final(99)
    listed = book.games()
    assert [g["id"] for g in listed] == [running.id, 3, 2, 1]
    assert listed[-1]["clubs"] == [r["name"] for r in final["final"]] and listed[-1]["season"] is None


def test_a_games_own_export_names_the_season_it_counts_in(blank: EventStore) -> None:
    season = blank.add_to_season(blank.new_season("Autumn league").id, [2])

    def exported(game: int) -> Any:
        return json.loads(to_json(build_export(blank, game, scorer=lambda *_: None)))["game"]["season"]

    assert exported(2) == {"id": season.id, "name": "Autumn league"}
    assert exported(1) is None


def test_seasons_are_kept_when_a_damaged_log_is_salvaged(blank: EventStore) -> None:
    season = blank.add_to_season(blank.new_season("Autumn league").id, [2, 1])
    blank.start_game([{"type": "note", "text": "x" * 200, "n": value} for value in range(300)])  # one write
    blank.close()
    conn = sqlite3.connect(blank.path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(blank.path.read_bytes())
    start = len(data) // 2 // 4096 * 4096  # three pages amid the filler's events, as a failing card would
    data[start:start + 4096 * 3] = bytes([0xA5]) * (4096 * 3)
    blank.path.write_bytes(bytes(data))
    with open_store(blank.path) as salvaged:
        assert salvaged.damage is not None and "was damaged on the card" in salvaged.damage
        assert [(s.id, s.name, s.games) for s in salvaged.seasons()] == [(season.id, "Autumn league", (2, 1))]
        with pytest.raises(SeasonRefused, match="already counts in the season 'Autumn league'"):
            salvaged.add_to_season(salvaged.new_season("Winter").id, [1])
