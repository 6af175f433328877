"""Exporting a finished game: JSON and CSV with the whole log and final scoring, and a BG Stats link."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from device import errors
from device.errors import ExportError
from device.export import BGSTATS_LINK, FinalScoring, bgstats_play, build_export, final_from_view, render
from device.store import EventStore, GameRecord

EVENTS = [
    {"type": "setup", "clubs": 3},
    {"type": "roll", "seat": 1, "value": 4},
    {"type": "tap", "seat": 2, "card": "bm_03"},
]

# The final scoring as the engine's view() gives it once the game is over.
VIEW = {
    "final": [
        {"seat": 1, "name": "Red Lions", "total": 31, "league_position": 2,
         "breakdown": {"league": 8, "vp_tokens": 5, "staff_sets": 6, "infrastructure": 4, "objectives": 3, "office": 5}},
        {"seat": 2, "name": "Blue Birds", "total": 34, "league_position": 1,
         "breakdown": {"league": 10, "vp_tokens": 6, "staff_sets": 6, "infrastructure": 4, "objectives": 3, "office": 5}},
        {"seat": 3, "name": "Green Town", "total": 22, "league_position": 5,
         "breakdown": {"league": 3, "vp_tokens": 4, "staff_sets": 3, "infrastructure": 4, "objectives": 3, "office": 5}},
    ]
}


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 18, 30, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def finished_game(tmp_path: Path, view: dict[str, Any] = VIEW) -> tuple[EventStore, int]:
    clock = Clock()
    store = EventStore(tmp_path / "touchline.db", clock=clock)
    game = store.new_game(seats={1: "Ana", 2: "Ben", 3: "Cleo"})
    for event in EVENTS:
        store.append(game.id, event)
    clock.now += timedelta(minutes=137)
    store.finish(game.id)
    return store, game.id


def scorer_for(view: dict[str, Any]) -> Any:
    def scorer(game: GameRecord, events: list[dict[str, Any]]) -> FinalScoring | None:
        assert events == EVENTS  # the export hands the whole log to the engine
        return final_from_view(view)

    return scorer


def test_json_holds_every_event_in_order_and_the_final_scoring(tmp_path: Path) -> None:
    store, game_id = finished_game(tmp_path)
    document = json.loads(render(build_export(store, game_id, scorer=scorer_for(VIEW)), "json"))
    assert [e["event"] for e in document["events"]] == EVENTS
    assert [e["seq"] for e in document["events"]] == [1, 2, 3]
    assert document["game"]["minutes"] == 137
    assert document["game"]["name"] == "Eleven"
    assert document["final"]["winners"] == [2]
    clubs = document["final"]["clubs"]
    assert [(c["seat"], c["player"], c["total"], c["rank"]) for c in clubs] == [
        (2, "Ben", 34, 1), (1, "Ana", 31, 2), (3, "Cleo", 22, 3)]
    assert clubs[0]["breakdown"]["league"] == 10


def test_csv_opens_as_a_score_table_then_the_log(tmp_path: Path) -> None:
    store, game_id = finished_game(tmp_path)
    text = render(build_export(store, game_id, scorer=scorer_for(VIEW)), "csv")
    scoring, log = text.split("\n\n")
    rows = list(csv.DictReader(io.StringIO(scoring)))
    assert [(r["club"], r["player"], r["total"], r["winner"]) for r in rows] == [
        ("Blue Birds", "Ben", "34", "yes"), ("Red Lions", "Ana", "31", "no"), ("Green Town", "Cleo", "22", "no")]
    assert rows[0]["office"] == "5"
    events = list(csv.DictReader(io.StringIO(log)))
    assert [json.loads(r["event"]) for r in events] == EVENTS
    assert [r["type"] for r in events] == ["setup", "roll", "tap"]


def test_the_bgstats_link_carries_players_scores_winner_date_and_duration(tmp_path: Path) -> None:
    store, game_id = finished_game(tmp_path)
    link = render(build_export(store, game_id, scorer=scorer_for(VIEW)), "bgstats").strip()
    assert link.startswith(BGSTATS_LINK)
    play = json.loads(unquote(link[len(BGSTATS_LINK):]))
    assert play["game"]["name"] == "Eleven" and play["game"]["highestWins"] is True
    assert play["durationMin"] == 137
    assert datetime.strptime(play["playDate"], "%Y-%m-%d %H:%M:%S").astimezone(UTC) == datetime(2026, 11, 21, 18, 30, tzinfo=UTC)
    assert [(p["name"], p["score"], p["winner"]) for p in play["players"]] == [
        ("Ben", 34, True), ("Ana", 31, False), ("Cleo", 22, False)]
    # Nothing in the link needs further escaping to be opened from a page or a QR code.
    assert " " not in link and '"' not in link and "{" not in link


def test_level_on_points_the_club_higher_in_the_league_wins() -> None:
    view = {"final": [
        {"seat": 1, "name": "A", "total": 30, "league_position": 3, "breakdown": {}},
        {"seat": 2, "name": "B", "total": 30, "league_position": 1, "breakdown": {}},
    ]}
    final = final_from_view(view)
    assert final is not None
    assert [(c.seat, c.rank, c.winner) for c in final.clubs] == [(2, 1, True), (1, 2, False)]


def test_level_on_points_and_league_position_the_victory_is_shared() -> None:
    view = {"final": {"clubs": [
        {"seat": 1, "club": "A", "vp": 30, "position": 2, "breakdown": [{"category": "league", "vp": 8}]},
        {"seat": 2, "club": "B", "vp": 30, "position": 2, "breakdown": [{"category": "league", "vp": 8}]},
        {"seat": 3, "club": "C", "vp": 12, "position": 6, "breakdown": [{"category": "league", "vp": 2}]},
    ]}}
    final = final_from_view(view)
    assert final is not None
    assert [(c.seat, c.rank, c.winner) for c in final.clubs] == [(1, 1, True), (2, 1, True), (3, 3, False)]
    assert final.categories == ("league",)


def test_the_engine_naming_the_winner_is_trusted() -> None:
    view = {"final": {"winners": [3], "clubs": VIEW["final"]}}
    final = final_from_view(view)
    assert final is not None and [c.seat for c in final.winners] == [3]


def test_a_game_not_over_exports_its_log_but_has_no_bgstats_link(tmp_path: Path) -> None:
    with EventStore(tmp_path / "t.db") as store:
        game = store.new_game()
        store.append(game.id, EVENTS[0])
        export = build_export(store, game.id, scorer=lambda game, events: final_from_view({"final": None}))
        assert json.loads(render(export, "json"))["final"] is None
        assert "setup" in render(export, "csv")
        with pytest.raises(ExportError) as caught:
            render(export, "bgstats")
        assert str(caught.value) == errors.GAME_NOT_OVER.format(game=game.id)
        with pytest.raises(ExportError):
            bgstats_play(export)


def test_an_unknown_format_lists_the_formats(tmp_path: Path) -> None:
    store, game_id = finished_game(tmp_path)
    with pytest.raises(ExportError) as caught:
        render(build_export(store, game_id, scorer=scorer_for(VIEW)), "xlsx")
    assert str(caught.value) == errors.UNKNOWN_FORMAT.format(fmt="xlsx")


def test_a_log_the_engine_cannot_score_says_to_send_the_log(tmp_path: Path) -> None:
    store, game_id = finished_game(tmp_path)

    def broken(game: GameRecord, events: list[dict[str, Any]]) -> FinalScoring | None:
        raise ValueError("Seat 4 is not playing.")

    with pytest.raises(ExportError) as caught:
        build_export(store, game_id, scorer=broken)
    assert str(caught.value) == errors.NO_FINAL_SCORING.format(game=game_id, reason="Seat 4 is not playing.")


def test_the_engines_final_rows_are_read_with_their_categories_and_winner() -> None:
    # The shape engine.view() gives once the stage is "over": categories as fields beside seat, total and rank.
    view = {"final": [
        {"seat": 3, "name": "Green Town", "position": 1, "league": 10, "vp_tokens": 2, "staff_sets": 3,
         "infrastructure": 2, "objective": 3, "office": 4, "budget": 1, "total": 25, "rank": 1, "winner": True},
        {"seat": 1, "name": "Red Lions", "position": 3, "league": 6, "vp_tokens": 5, "staff_sets": 6,
         "infrastructure": 4, "objective": 0, "office": 4, "budget": 0, "total": 25, "rank": 2, "winner": False},
    ]}
    final = final_from_view(view)
    assert final is not None
    assert [(c.seat, c.total, c.league_position, c.winner) for c in final.clubs] == [
        (3, 25, 1, True), (1, 25, 3, False)]
    assert final.categories == ("league", "vp_tokens", "staff_sets", "infrastructure", "objective", "office", "budget")
    assert sum(v for _, v in final.clubs[1].breakdown) == 25


def test_a_whole_game_in_the_log_exports_the_engines_final_scoring(tmp_path: Path) -> None:
    # The engine's golden four-club game, kept in the log as the table would have written it.
    golden = Path(__file__).parents[1] / "engine" / "golden"
    events = [json.loads(line) for line in (golden / "four_clubs.jsonl").read_text().splitlines() if line.strip()]
    with EventStore(tmp_path / "t.db") as store:
        game = store.new_game(seats={1: "Ana", 2: "Ben", 3: "Cleo", 4: "Dev"}, profile_source=str(golden / "deck"))
        for event in events:
            store.append(game.id, event)
        store.finish(game.id)
        export = build_export(store, game.id)
    import engine

    profile = engine.load_profile(golden / "deck")
    expected = engine.view(profile, engine.replay(profile, events))["final"]
    assert export.final is not None
    assert [(c.seat, c.total, c.winner) for c in export.final.clubs] == [(r["seat"], r["total"], r["winner"]) for r in expected]
    play = bgstats_play(export)
    names = {1: "Ana", 2: "Ben", 3: "Cleo", 4: "Dev"}
    assert [(p["name"], p["score"]) for p in play["players"]] == [(names[r["seat"]], r["total"]) for r in expected]
    assert sum(p["winner"] for p in play["players"]) >= 1


def test_a_game_the_engine_says_is_over_exports_even_before_the_log_marks_it(tmp_path: Path) -> None:
    clock = Clock()
    with EventStore(tmp_path / "t.db", clock=clock) as store:
        game = store.new_game(seats={1: "Ana", 2: "Ben", 3: "Cleo"})
        for event in EVENTS:
            clock.now += timedelta(minutes=40)
            store.append(game.id, event)
        export = build_export(store, game.id, scorer=scorer_for(VIEW))
    play = bgstats_play(export)
    assert play["durationMin"] == 120  # up to the last event, since no end was noted
    assert [p["winner"] for p in play["players"]] == [True, False, False]


def test_an_abandoned_game_has_no_final_scoring(tmp_path: Path) -> None:
    with EventStore(tmp_path / "t.db") as store:
        game = store.new_game()
        store.append(game.id, EVENTS[0])
        store.finish(game.id, status="abandoned")
        export = build_export(store, game.id, scorer=scorer_for(VIEW))
    assert export.final is None
