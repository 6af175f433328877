"""Choosing a game's rule modules outside the page: the table file's ``[game]`` default (checked with the engine's
sentences at the line and field), and the modules carried into exports and ``touchline games``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
from device import cli
from device.export import build_export, render
from device.store import EventStore
from device.table_file import parse_table

from tests.device.test_table_file import SEAT_1, line_of, only_problem


def test_the_table_file_names_the_modules_and_options_a_new_game_plays_by_default() -> None:
    table = parse_table('[game]\nmodules = ["division"]\noptions = { division = 2, weeks = 6 }\n' + SEAT_1)
    assert table.modules == ("division",) and table.options == (("division", 2), ("weeks", 6))
    assert parse_table(SEAT_1).modules == () and parse_table(SEAT_1).options == ()


@pytest.mark.parametrize(("game", "field", "needle", "sentence"), [
    ('modules = ["umpires"]', "game.modules", "modules", engine.game_problem(["umpires"])),
    ('modules = "division"', "game.modules", "modules", None),
    ('modules = ["division"]\n[game.options]\ndivision = 0', "game.options.division", "division = 0",
     engine.game_problem(["division"], {"division": 0})),
    ("[game.options]\ndivision = 2", "game.options.division", "division = 2", engine.game_problem([], {"division": 2})),
    ("moduls = []", "game.moduls", "moduls", None),
])
def test_a_wrong_game_section_is_named_by_line_and_field_in_the_engines_words(game: str, field: str, needle: str,
                                                                              sentence: str | None) -> None:
    text = "[game]\n" + game + "\n" + SEAT_1
    problem = only_problem(text)
    assert problem.field == field and problem.line == line_of(text, needle)
    if sentence is not None:
        assert problem.message == sentence


def _played(db: Path, first: dict) -> int:
    profile = engine.load_profile()
    from engine.legal import setup_events

    with EventStore(db) as store:
        game = store.new_game(seats={1: "Ana", 2: "Ben"})
        for event in setup_events(profile, [1, 2], game=first):
            store.append(game.id, event)
        return game.id


def test_exports_and_the_games_list_say_which_modules_a_game_played(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    modular = _played(db, {"type": "game", "modules": ["division"], "options": {"division": 1}})
    with EventStore(db) as store:
        base = store.new_game(seats={1: "Cleo"}).id
        store.append(base, {"type": "club", "seat": 1})
        document = json.loads(render(build_export(store, modular), "json"))
        plain = json.loads(render(build_export(store, base), "json"))
    assert document["game"]["modules"] == ["division"] and document["game"]["options"] == {"division": 1}
    assert plain["game"]["modules"] == [] and plain["game"]["options"] == {}
    assert cli.main(["games", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "rules" in lines[0]
    assert "division; division 1" in lines[1] and "base game" in lines[2]
