"""A finished game exported for BG Stats names the people who played each seat, never the clubs, as players."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from urllib.parse import unquote

from device.export import BGSTATS_LINK, UNNAMED_PLAYER, build_export, engine_final_scoring, render
from device.replay import parse, run_step
from device.sim import SimulatedTable
from web.actions import parse_action

SCENARIO = Path(__file__).parents[2] / "scenarios" / "full-game.toml"
PLAYERS = {1: "Anna and Ben", 2: "Chidi", 3: "Dora"}
"""Seat 4's players give no name."""


def _bgstats(table: SimulatedTable) -> dict[str, object]:
    export = build_export(table.session.store, table.session.game, scorer=engine_final_scoring)
    link = render(export, "bgstats").strip()
    assert link.startswith(BGSTATS_LINK)
    return json.loads(unquote(link[len(BGSTATS_LINK):]))


def test_bgstats_gets_the_names_each_seat_gave_and_the_club_as_its_role(tmp_path: Path) -> None:
    scenario = parse(SCENARIO)
    first, *rest = scenario.steps
    assert first.kind == "page" and first.target == "new_game"
    clubs = [{**club, **({"players": PLAYERS[club["seat"]]} if club["seat"] in PLAYERS else {})}
             for club in first.args["clubs"]]
    named = dataclasses.replace(first, action=parse_action({"type": "new_game", **first.args, "clubs": clubs}))
    with SimulatedTable.open(tmp_path / "game.db", dice=scenario.dice) as table:
        for step in (named, *rest):
            run_step(table, step)
        play = _bgstats(table)
        clubs_by_seat = {c["seat"]: c["name"] for c in table.view()["clubs"]}
    players = {int(p["sourcePlayerId"].removeprefix("seat-")): p for p in play["players"]}  # type: ignore[index, union-attr]
    assert {seat: p["name"] for seat, p in players.items()} == {**PLAYERS, 4: UNNAMED_PLAYER.format(seat=4)}
    assert {seat: p["role"] for seat, p in players.items()} == clubs_by_seat
    assert not {p["name"] for p in players.values()} & set(clubs_by_seat.values())
