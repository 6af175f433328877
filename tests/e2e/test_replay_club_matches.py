"""A whole game of League matches between clubs (003 l.100–167), by the shipped scenario through ``touchline replay``:
four clubs, one week against an Opponent card, then the three weeks of the printed four-club schedule (l.126–132);
formations declared on the seats' buttons, arrangements made in secret, passes held, tie-breaks rolled by the buttons."""

from __future__ import annotations

import pytest

from .test_replay_game import replay

pytestmark = pytest.mark.slow

#: 003 l.130–132: Player 1 meets Player 2, then 4, then 3 (and so on for the others).
SCHEDULE = [{"week": 2, "pairs": [[1, 2], [3, 4]]}, {"week": 3, "pairs": [[1, 4], [2, 3]]},
            {"week": 4, "pairs": [[1, 3], [2, 4]]}]


def test_the_club_matches_scenario_plays_the_four_club_schedule_to_the_final_scoring() -> None:
    final = replay("club-matches-game.toml")  # its checks (the schedule, each club-match week's first step) held
    view = final["view"]
    assert view["stage"] == "over" and view["week"] == 4 and final["status"] == "finished"
    assert view["game"]["modules"] == ["club_matches"]
    assert view["modules"]["club_matches"]["schedule"] == SCHEDULE
    # one Opponent card each, for the only week against a regular Opponent (l.134)
    assert {len(c["opponents"]) for c in final["state"]["clubs"]} == {1}
    # the last week's two matches, as the Table page shows them: 1 v 3 and 2 v 4, two halves each, the first from the
    # Host's zones (l.152) and the second from the Visitor's (l.162); level after both, the tie-break decided
    fixtures = view["modules"]["club_matches"]["fixtures"]
    assert sorted(sorted((f["host"], f["visitor"])) for f in fixtures) == [[1, 3], [2, 4]]
    for f in fixtures:
        assert f["step"] == "played" and [h["first"] for h in f["halves"]] == [f["host"], f["visitor"]]
        assert all(len(h["sections"]) == 5 for h in f["halves"])
        if f["tiebreaks"]:
            assert f["winner"] == f["host"]  # the Host's button rolled 6, the Visitor's 1
    for row in view["final"]:
        assert row["total"] == sum(row[p] for p in ("league", "vp_tokens", "staff_sets", "infrastructure", "objective",
                                                     "office", "budget"))
    assert all("Game over" in "\n".join(lines) for sid, lines in final["screens"].items() if sid != "shared.screen")
    assert final == replay("club-matches-game.toml")
