"""What happened: the whole game's log is kept across restarts and paged, every line filed in its week, what was
undone is marked (and an undo says only what each viewer may see), and clubs, cards and dice are named."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import engine
from device import inputs
from device.game_log import UNDONE_LINE
from device.session import RECENT, Session
from device.sim import ForcedDice, SimulatedTable
from device.store import open_store
from device.table_file import default_sim_table
from engine.views import TABLE
from tests.played import played
from web.live import Broadcast

ROOT = Path(__file__).resolve().parents[2]
PROFILE = engine.load_profile()
SEAT_WORDS = re.compile(r"(?<!takes )\bSeat \d")
IDS = re.compile(r"\b(opp|dir|vet|yg|pl|st|obj|tac|bm|sp)_\w+")


@pytest.fixture(scope="module")
def week(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A four-club game played through its first week to the next Monday (the shipped scenario), kept in a log."""
    return played("full-week.toml", tmp_path_factory.mktemp("week"))[0]


def reopen(db: Path) -> Session:
    """The table started again on this log (what a restart does)."""
    return Session(default_sim_table(), open_store(db), ForcedDice(strict=True))


def whole_log(session: Session, viewer: int | str = TABLE, page: int = 40) -> list[dict[str, Any]]:
    """Every line of the game, newest first, read a page at a time as the log page does."""
    lines: list[dict[str, Any]] = []
    before = None
    while True:
        answer = session.said(viewer, before=before, limit=page)
        lines += answer["lines"]
        if not answer["more"]:
            return lines
        before = answer["lines"][-1]["id"]


def test_the_whole_game_is_kept_across_a_restart_and_read_a_page_at_a_time(week: Path) -> None:
    session = reopen(week)
    try:
        lines = whole_log(session)
        ids = [line["id"] for line in lines]
        assert ids == sorted(ids, reverse=True) and len(set(ids)) == len(ids)
        assert len(lines) > 3 * RECENT  # far more than the live snapshot carries
        assert lines[-1]["week"] == 0 and "club_joined" in {line["kind"] for line in lines if line["week"] == 0}
        # the live snapshot carries the newest lines, in order
        assert [line["id"] for line in session.snapshot()["log"]] == ids[:RECENT][::-1]
    finally:
        session.store.close()


def test_the_end_of_a_week_is_filed_in_that_week_and_the_new_week_in_its_own(week: Path) -> None:
    session = reopen(week)
    try:
        lines = whole_log(session)[::-1]
        ending = next(i for i, line in enumerate(lines) if line["kind"] == "end_of_round")
        last_die = max(i for i, line in enumerate(lines[:ending]) if line["kind"] == "opponent_die")
        new_week = next(i for i, line in enumerate(lines) if line["kind"] == "week" and line["week"] == 2)
        assert {lines[i]["week"] for i in range(last_die, new_week)} == {1}  # last die, End of round, Maintenance
        assert any(line["kind"] == "maintenance" for line in lines[last_die:new_week])
        assert {line["week"] for line in lines[new_week:]} == {2}  # the new week's start and what follows
    finally:
        session.store.close()


def test_lines_name_clubs_cards_and_dice_never_seats_or_ids(week: Path) -> None:
    session = reopen(week)
    try:
        lines = whole_log(session, viewer=1)
        texts = [line["text"] for line in lines if line.get("text")]
        assert texts and not [t for t in texts if SEAT_WORDS.search(t) or IDS.search(t)]
        dice = [line["text"] for line in lines if line["kind"] == "opponent_die"]
        assert dice and all(re.search(r"on the (red|blue|green) die", t) for t in dice)
        assert {line["club"] for line in lines if line.get("seat")} == {"Club 1", "Club 2", "Club 3", "Club 4"}
    finally:
        session.store.close()


def test_a_game_logged_before_the_table_kept_its_lines_gets_them_when_it_starts(tmp_path: Path, week: Path) -> None:
    old = open_store(week)
    try:
        events = old.events(old.games()[-1].id)
    finally:
        old.close()
    store = open_store(tmp_path / "old.db")
    store.start_game(events)  # the events alone, as an older release kept them
    assert store.said(store.games()[-1].id) == []
    store.close()
    session = reopen(tmp_path / "old.db")
    try:
        assert len(whole_log(session)) == len(whole_log(reopen(week)))
    finally:
        session.store.close()


SECRET_SETUP = {"type": "new_game", "deal": False, "clubs": [
    {"seat": 1, "name": "Reds", "opponents": ["opp_downtown_1"], "tactic": "tac_01", "objective": "obj_01"},
    {"seat": 2, "name": "Blues", "opponents": ["opp_downtown_2"], "tactic": "tac_02"}]}


def test_undoing_an_objective_says_so_without_showing_it_to_anyone_but_its_seat(tmp_path: Path) -> None:
    objective = PROFILE.cards["obj_02"]
    with SimulatedTable.open(tmp_path / "t.db") as table:
        table.page(SECRET_SETUP)
        table.tap("seat2.tap", "obj_02")  # Blues keep their Objective, face down
        kept = next(line for line in table.session.recent if line["kind"] == "objective" and line["seat"] == 2)
        table.hold("shared.undo")

        session = table.session
        assert session.state.club(2).objective is None
        public = session.snapshot(TABLE)
        lines = {line["id"]: line for line in public["log"]}
        assert lines[kept["id"]]["undone"] is True and "card" not in lines[kept["id"]]
        undo = public["log"][-1]
        assert (undo["kind"], undo["club"]) == ("undo", "Blues")
        assert undo["text"] == UNDONE_LINE.format(what="Blues keeps an Objective card.")
        # Nothing anyone may see names the card: not the screens, nor the page's log, nor the live stream's bytes.
        for text in (json.dumps(public), "\n".join(table.screen_texts().values()),
                     Broadcast(session.snapshot, lambda: session.version).encoded(TABLE).json.decode()):
            assert objective.name not in text and objective.id not in text
        assert inputs.UNDONE in table.screen_texts()["seat1.screen"]
        # Its own seat still sees which card it was (and after a restart too).
        assert next(line for line in session.said(2)["lines"] if line["id"] == kept["id"])["card"] == objective.id
        assert "card" not in next(line for line in session.said(1)["lines"] if line["id"] == kept["id"])
    again = reopen(tmp_path / "t.db")
    try:
        lines = whole_log(again)
        assert next(line for line in lines if line["id"] == kept["id"])["undone"] is True
        assert lines[0]["kind"] == "undo" and objective.name not in json.dumps(lines)
    finally:
        again.store.close()
