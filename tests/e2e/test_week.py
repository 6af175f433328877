"""A whole week of a 4-club game on the simulated table, driven only by taps, presses, holds and the page.

Every die is forced (and a roll with nothing forced fails the test), so each step's screens and state are known.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from device import inputs, screens
from device.sim import SimulatedTable
from tests.e2e.table import (
    DIRECTORS,
    SEATS,
    club,
    decisive_rolls,
    lineup_action,
    new_game_action,
    no_consequence,
    opponents,
    screen,
)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[SimulatedTable]:
    with SimulatedTable.open(tmp_path / "week.db", strict_dice=True) as t:
        yield t


def events(table: SimulatedTable) -> int:
    """How many events the log holds."""
    return len(table.session.store.events(table.session.game))


def test_a_whole_week_from_setup_to_the_next_monday(table: SimulatedTable) -> None:
    profile = table.session.profile

    # --- setup: the page deals Opponents, Objective and Tactic; each seat taps its Directors and starters
    table.page(new_game_action())
    for seat in SEATS:
        assert screen(table, seat).splitlines()[0] == "Wk 0 Setup"
        assert "Tap your Director card" in screen(table, seat)
    table.tap("seat1.tap", "dir_01")
    assert "1 of 3 tapped" in screen(table, 1)
    assert club(table, 1)["directors"] == []  # nothing is sent before the set is complete
    table.tap("seat1.tap", "dir_01")
    assert "again" in screen(table, 1)
    for card in ("dir_02", "dir_03", "vet_01", "yg_02"):
        table.tap("seat1.tap", card)
    assert [d["id"] for d in club(table, 1)["directors"]] == ["dir_01", "dir_02", "dir_03"]
    for seat in (2, 3, 4):
        for card in (f"dir_{3 * seat - 2:02d}", f"dir_{3 * seat - 1:02d}", f"dir_{3 * seat:02d}"):
            table.tap(f"seat{seat}.tap", card)
        table.tap(f"seat{seat}.tap", f"vet_0{seat}")
        table.tap(f"seat{seat}.tap", f"yg_0{seat + 1}")
    view = table.view()
    assert (view["stage"], view["week"], view["weeks"]) == ("monday", 1, 8)
    for seat in SEATS:
        lines = screen(table, seat).splitlines()
        assert lines[0] == "Wk 1/8 Mon"
        money = club(table, seat)["resources"]
        assert lines[1].startswith(f"€{money['budget']} Fan{money['fanbase']} Op{money['operation']} Fit{money['fitness']}")
        assert "Tap your Board meeting card" in lines

    # --- bad input changes nothing: an unknown tag, a card at the wrong stage
    before = events(table)
    table.place_tag("seat2.tap", "04-DE-AD-BE-EF-00-01")
    assert inputs.UNKNOWN_CARD in screen(table, 2)
    table.lift("seat2.tap")
    table.tap("seat2.tap", "pl_03")
    assert "Cannot hire" in screen(table, 2).splitlines()
    assert events(table) == before

    # --- Monday: each seat's Board meeting card, its button rolls; seat 3 rerolls once for 1 Fanbase
    for seat in SEATS:
        table.tap(f"seat{seat}.tap", f"bm_0{seat}")
        assert profile.cards[f"bm_0{seat}"].name in screen(table, seat)
        value = decisive_rolls(profile, seat)[0]
        table.force_dice([value])
        table.press(f"seat{seat}.roll")
        assert f"Rolled {value}" in screen(table, seat)
    fanbase = club(table, 3)["resources"]["fanbase"]
    assert fanbase >= 1
    second = decisive_rolls(profile, 3)[1]
    table.force_dice([second])
    table.press("seat3.roll")  # within the reroll window
    assert f"Rerolled {second}" in screen(table, 3)
    assert club(table, 3)["resources"]["fanbase"] == fanbase - 1
    table.wait(inputs.REROLL_SECONDS + 1)  # every window closes: the rolls are kept
    view = table.view()
    assert view["stage"] == "tuesday" and view["turn"] == 1
    assert [table.lit(f"seat{seat}.roll") for seat in SEATS] == [True, False, False, False]  # whose turn it is
    for seat in SEATS:
        assert " wins" in screen(table, seat).splitlines()[2]
        # the roll and each Director's vote, in the order the club's Directors were tapped, by colour initial
        kept = second if seat == 3 else decisive_rolls(profile, seat)[0]
        votes = " ".join(profile.cards[d].vote(kept)[0].upper() for d in DIRECTORS[seat])
        assert screens.BOARD_VOTES.format(roll=kept, votes=votes) in screen(table, seat).splitlines()

    # --- Tuesday: out of turn is refused with the reason; seat 1 hires with a confirming press
    before = events(table)
    table.tap("seat2.tap", "pl_03")
    assert screen(table, 2).splitlines()[2:4] == ["Cannot hire", f"It is {club(table, 1)['name']}'s turn (Tuesday)."]
    assert events(table) == before
    budget = club(table, 1)["resources"]["budget"]
    cost = profile.cards["pl_03"].untrained.cost
    table.tap("seat1.tap", "pl_03")
    assert f"Hire {profile.cards['pl_03'].name} for €{cost}?" in screen(table, 1)
    assert events(table) == before  # nothing until the press
    table.press("seat1.roll")
    assert f"Hired {profile.cards['pl_03'].name}" in screen(table, 1)
    assert club(table, 1)["resources"]["budget"] == budget - cost
    assert "pl_03" in [p["id"] for p in club(table, 1)["players"]]
    table.hold("seat1.roll")  # end the turn
    assert table.view()["turn"] == 2

    # seat 2 contracts a Sponsor: the button steps through the contract kinds, a hold signs
    table.tap("seat2.tap", "sp_02")
    assert "Megaphone" in screen(table, 2)
    table.press("seat2.roll")
    assert "Adboard" in screen(table, 2)
    table.hold("seat2.roll")
    assert club(table, 2)["sponsors"]["adboards"] == ["sp_02"]
    table.hold("seat2.roll")

    # seat 3 tries the Club potential: press picks the Stat, hold chooses, press rolls the d6
    stat_before = club(table, 3)["stats"]["fanbase"]
    table.press("seat3.roll")
    assert "Potential: Fanbase" in screen(table, 3)
    table.hold("seat3.roll")
    table.force_dice([6])
    table.press("seat3.roll")
    table.wait(inputs.REROLL_SECONDS + 1)
    assert "Fanbase up!" in screen(table, 3)
    assert club(table, 3)["stats"]["fanbase"] == stat_before + 1
    table.hold("seat3.roll")

    # seat 4 gets €2 by a correction on the page, hires a second Staff card (its Maintenance goes up), ends its turn
    budget = club(table, 4)["resources"]["budget"]
    table.page({"type": "adjust", "seat": 4, "what": "budget", "delta": 2, "reason": "prize money"})
    assert club(table, 4)["resources"]["budget"] == budget + 2
    table.tap("seat4.tap", "st_08")
    table.press("seat4.roll")
    assert [s["id"] for s in club(table, 4)["staff"]][-1] == "st_08"
    assert club(table, 4)["maintenance"]["total"] >= 1
    table.hold("seat4.roll")
    assert table.view()["stage"] == "wednesday"
    while table.view()["stage"] in ("wednesday", "thursday"):
        turn = table.view()["turn"]
        table.hold(f"seat{turn}.roll")
        assert "Passed" in screen(table, turn)
    assert table.view()["stage"] == "matchday"

    # --- Matchday: lineups from the page; the Opponent card tapped reveals it and the match is played
    for seat in SEATS:
        table.page(lineup_action(seat, club(table, seat)["markers"]))
        assert "Lineup set" in screen(table, seat)
        assert inputs.KICKOFF in screen(table, seat)
    before = events(table)
    table.tap("seat1.tap", opponents(2)[0])  # another club's Opponent: refused on the screen
    assert "Not " in screen(table, 1) and events(table) == before
    for seat in SEATS:
        table.tap("shared.opponent", opponents(seat)[0])
        match = club(table, seat)["match"]
        headline = screen(table, seat).splitlines()[2]
        assert headline == f"{match['goals']}-{match['conceded']} {match['result'].capitalize()}"
    points = {seat: club(table, seat)["league_points"] for seat in SEATS}
    for seat in SEATS:
        assert points[seat] == {"win": 3, "draw": 1, "loss": 0}[club(table, seat)["match"]["result"]]

    # seat 4 spends everything (a correction on the page): it will be short of money at the End of the round
    money = club(table, 4)["resources"]["budget"]
    if money:  # (the page refuses a correction that changes nothing)
        table.page({"type": "adjust", "seat": 4, "what": "budget", "delta": -money, "reason": "spent in town"})

    # Match consequences: seat 1 rolls an injury and the d10 names the number; the others roll no effect
    result = club(table, 1)["match"]["result"]
    injured = club(table, 1)["players"][0]
    table.force_dice([1])
    table.press("seat1.roll")
    table.wait(inputs.REROLL_SECONDS + 1)
    assert result in ("win", "draw", "loss")
    # the d10's faces name the numbered jersey markers in order (face 1: the first number of the board)
    table.force_dice([engine.load_profile().board.pitch.jerseys.index(injured["jersey"]) + 1])
    table.press("seat1.roll")
    table.wait(inputs.REROLL_SECONDS + 1)
    assert f"{injured['name']} injured" in screen(table, 1)
    assert next(p for p in club(table, 1)["players"] if p["id"] == injured["id"])["injury"] > 0
    for seat in (2, 3):
        table.force_dice([no_consequence(club(table, seat)["match"]["result"])])
        table.press(f"seat{seat}.roll")
        table.wait(inputs.REROLL_SECONDS + 1)
    # the last consequence: then the Opponent dice for the seven teams nobody played roll by themselves
    table.force_dice([no_consequence(club(table, 4)["match"]["result"])] + [1] * 7)
    table.press("seat4.roll")
    table.wait(inputs.REROLL_SECONDS + 1)
    assert table.dice.waiting == 0
    assert all(name.startswith("opp_") for name, _ in table.dice.rolled[-7:])
    moves = [line for line in screen(table, None).splitlines() if re.fullmatch(r"[A-Z][a-z]+ \+\d", line)]
    assert len(moves) >= 2  # the shared screen lists the Opponent teams' moves

    # --- End of the round: Maintenance paid and shown; seat 4 cannot pay and taps the card for the Suspension
    assert {"seat": 4, "need": "suspensions", "count": club(table, 4)["maintenance"]["total"]} in table.view()["awaiting"]
    assert "Maintenance €0" in screen(table, 4) and "Short of €" in screen(table, 4)
    before = events(table)
    table.tap("seat4.tap", "st_08")
    assert events(table) == before + 1 or table.view()["stage"] == "monday"
    assert next(s for s in club(table, 4)["staff"] if s["id"] == "st_08")["suspension"] == 2

    # --- week 2 begins: each seat's screen shows the Maintenance it paid
    view = table.view()
    assert (view["stage"], view["week"]) == ("monday", 2)
    for seat in SEATS:
        lines = screen(table, seat).splitlines()
        assert lines[0] == "Wk 2/8 Mon"
        assert any(line.startswith("Maintenance €" if seat != 4 else "Set-piece") for line in lines), lines
    league = {row["name"]: row["points"] for row in view["league"]}
    assert sum(1 for row in view["league"] if row["kind"] == "opponent" and row["points"] > 0) >= 1
    assert all(league[f"Club {s}"] == points[s] for s in SEATS)

    # the page's charts get each week's numbers
    history = table.session.snapshot()["history"]
    assert [h["week"] for h in history] == [1, 2]
    assert {seat: history[0]["clubs"][str(seat)]["points"] for seat in SEATS} == points

    # --- Undo by a long hold on the shared control: the screens say what was undone
    last = table.session.store.events(table.session.game)[-1]
    count = events(table)
    table.hold("shared.undo")
    assert events(table) == count - 1
    for seat in SEATS:
        assert inputs.UNDONE in screen(table, seat)
    # ... in the words the undone event was announced with, clubs named as at the table
    said = engine.apply(profile, engine.replay(profile, table.session.store.events(table.session.game)), last)
    first = next(a["text"] for a in said.announcements if a.get("text"))
    for seat in SEATS:
        first = first.replace(f"Seat {seat}", f"Club {seat}")
    assert screen(table, 1).splitlines()[2:] == [inputs.UNDONE, first]
