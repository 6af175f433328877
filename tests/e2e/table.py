"""Shared set-up for the end-to-end runs: a 4-club game on the simulated table, driven by taps, presses and the page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from device.sim import SimulatedTable

SEATS = (1, 2, 3, 4)
TEAMS = ("downtown", "harbour", "kingsbridge", "millbrook", "northfield", "oldcastle", "riverside", "steelchester")
DIRECTORS = {1: ("dir_01", "dir_02", "dir_03"), 2: ("dir_04", "dir_05", "dir_06"),
             3: ("dir_07", "dir_08", "dir_09"), 4: ("dir_10", "dir_11", "dir_12")}
STARTERS = {1: ("vet_01", "yg_02"), 2: ("vet_02", "yg_03"), 3: ("vet_03", "yg_04"), 4: ("vet_04", "yg_05")}
# Ten numbered jersey markers, four defenders, four midfielders and two forwards, five of each style.
LINEUP = (("def_left", 2, "defence"), ("def_centre", 3, "defence"), ("def_centre", 4, "defence"),
          ("def_right", 5, "defence"), ("mid_left", 6, "defence"), ("mid_centre", 7, "attack"),
          ("mid_centre", 8, "attack"), ("mid_right", 9, "attack"), ("fwd_centre", 10, "attack"),
          ("fwd_centre", 11, "attack"))


def opponents(seat: int) -> list[str]:
    """Eight Opponent cards with different emblems for a seat (card ``seat`` of each team)."""
    return [f"opp_{team}_{seat}" for team in TEAMS]


def new_game_action() -> dict[str, Any]:
    """The page's new game: four clubs with their Opponents, Objective and Tactic named; each seat taps the rest."""
    return {
        "type": "new_game",
        "clubs": [
            {"seat": s, "name": f"Club {s}", "opponents": opponents(s), "objective": f"obj_0{s}", "tactic": f"tac_0{s}"}
            for s in SEATS
        ],
        "deal": False,
    }


def lineup_action(seat: int, markers: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The page's lineup for a seat: the ten numbered markers, no footballer cards. A marker the game view shows
    (``markers``: number -> side) is placed as it shows (no side given); the others take the sides of ``LINEUP``,
    turned where needed so that, with the shown ones, no more than five show attack as at the setup."""
    shown = dict(markers or {})
    attack_left = 5 - sum(1 for side in shown.values() if side == "attack")
    unseen = [n for _, n, _ in LINEUP if str(n) not in shown]
    # the forward-most unseen markers show attack, as many as the setup's five allow
    attackers = set(unseen[len(unseen) - max(0, attack_left):]) if markers is not None else {n for _, n, st in LINEUP if st == "attack"}
    players = []
    for zone, number, _ in LINEUP:
        place: dict[str, Any] = {"zone": zone, "jersey": number}
        if str(number) not in shown:
            place["style"] = "attack" if number in attackers else "defence"
        players.append(place)
    return {"type": "lineup", "seat": seat, "players": players}


def screen(table: SimulatedTable, seat: int | None) -> str:
    """What a seat's screen (or the shared screen) says, as text."""
    return table.screen_texts()["shared.screen" if seat is None else f"seat{seat}.screen"]


def tap_setup(table: SimulatedTable) -> None:
    """Each seat taps its three Directors and its starting Veteran and Youngster."""
    for seat in SEATS:
        pad = f"seat{seat}.tap"
        for card in (*DIRECTORS[seat], *STARTERS[seat]):
            table.tap(pad, card)


def decisive_rolls(profile: Any, seat: int) -> list[int]:
    """The d6 results on which the seat's three Directors do not tie (so no free reroll follows)."""
    from collections import Counter

    values = []
    for value in range(1, 7):
        votes = Counter(profile.cards[d].vote(value) for d in DIRECTORS[seat])
        top = max(votes.values())
        if sum(1 for n in votes.values() if n == top) == 1:
            values.append(value)
    return values


def no_consequence(result: str) -> int:
    """A Match consequence face with no effect for this result on the demo board (3 after a win, 4 a draw, 5 a loss)."""
    return {"win": 3, "draw": 4, "loss": 5}[result]


def club(table: SimulatedTable, seat: int) -> dict[str, Any]:
    """The seat's club in the game view."""
    return next(c for c in table.view()["clubs"] if c["seat"] == seat)
