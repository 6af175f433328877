"""Betting (003 l.377–432) checked against the leaflet by hand-computed weeks: the same week is played twice, once
with the bets and once with every club passing, so the difference in each club's € is the bet's own (its stake
paid, its winnings gained) and nothing else of the week."""

from __future__ import annotations

from typing import Any

import engine
from engine import errors as E
from engine.legal import setup_events
from engine.state import State

from tests.engine.helpers import _prefer_pass, at_stage, club, demo, refused, run, set_club

GAME = {"type": "game", "modules": ["betting"], "options": {"weeks": 3}, "revision": engine.REVISION}
BUDGET = 20

# The demo's League teams and their Opponent dice (board.toml): opp_red faces are 3, 3, 3, 1, 1, 0 League spaces,
# so a 1 is a win for the team, a 4 a draw and a 6 a loss.
RED_WIN, RED_DRAW, RED_LOSS = 1, 4, 6


def _setup(seats: list[int], cards: list[str] | None) -> list[dict[str, Any]]:
    events = setup_events(demo(), seats, game=GAME)
    if cards is not None:
        events = [{"type": "betting_cards", "cards": cards} if e["type"] == "betting_cards" else e for e in events]
    return events


def _at_betting(seats: list[int], cards: list[str] | None = None, budget: int = BUDGET) -> State:
    profile = demo()
    state = at_stage(profile, run(profile, _setup(seats, cards)), "betting")
    for seat in seats:
        state = set_club(state, seat, res=(budget,) + club(state, seat).res[1:])
    return state


def _week(seats: list[int], bets: dict[int, dict[str, Any]], rolls: dict[str, int] | None = None,
          cards: list[str] | None = None, budget: int = BUDGET) -> tuple[State, list[dict[str, Any]]]:
    """Week 1 played to the Monday of week 2 with these bets (a seat without one passes) and these Opponent dice
    (team -> face; a team not named rolls a 2): the state and everything announced from the bets on."""
    profile = demo()
    state = _at_betting(seats, cards, budget)
    said: list[dict[str, Any]] = []

    def step(event: dict[str, Any]) -> None:
        nonlocal state
        done = engine.apply(profile, state, event)
        said.extend(done.announcements)
        state = done.state

    for seat in seats:
        step({"type": "bet", "seat": seat, **bets[seat]} if seat in bets else {"type": "pass", "seat": seat})
    return _to_monday(state, said, rolls), said


def _to_monday(state: State, said: list[dict[str, Any]], rolls: dict[str, int] | None = None) -> State:
    """The week played on from its Betting to the next Monday, the Opponent dice rolling these faces (team -> face;
    a team not named rolls a 2), keeping what is announced; the rest of the week (abilities passed, Maintenance) is
    the same however the clubs bet."""
    profile = demo()
    state = _play(state, lambda s: s.stage == "results", said)
    while state.stage == "results" and state.awaiting and state.awaiting[0].get("purpose") == "opponent_die":
        team = state.awaiting[0]["team"]
        step = engine.apply(profile, state, {"type": "roll", "seat": None, "team": team, "value": (rolls or {}).get(team, 2)})
        said.extend(step.announcements)
        state = step.state
    return _play(state, lambda s: s.week == 2, said)


def _play(state: State, done: Any, said: list[dict[str, Any]]) -> State:
    """`advance_until`'s simplest events until ``done``, keeping what they announce."""
    profile = demo()
    for _ in range(3000):
        if done(state):
            return state
        step = engine.apply(profile, state, _prefer_pass(engine.legal_events(profile, state), state.events))
        said.extend(step.announcements)
        state = step.state
    raise AssertionError("the week did not end")


def _budget_change(seats: list[int], bets: dict[int, dict[str, Any]], **kw: Any) -> dict[int, int]:
    """Each club's € at the next Monday with these bets, less its € when every club passed."""
    with_bets, _ = _week(seats, bets, **kw)
    without, _ = _week(seats, {}, **kw)
    return {s: club(with_bets, s).res[0] - club(without, s).res[0] for s in seats}


def _results(said: list[dict[str, Any]]) -> dict[int, str]:
    """Each club's match result as announced."""
    return {a["seat"]: a["result"] for a in said if a["kind"] == "result"}


# -- Setup (l.383) ----------------------------------------------------------------------------------------------


def test_with_three_clubs_one_token_lies_on_an_opponent_card_and_the_game_waits_for_it() -> None:
    # 003 l.387: "Each player gets a Betting token. If you are playing in a game with less than 4 players, draw random
    # Opponent cards from your Division and place a remaining Betting token on each of them."
    profile = demo()
    events = [e for e in _setup([1, 2, 3], None) if e["type"] not in ("betting_cards", "first_player")]
    state = run(profile, events)
    needs = [{k: v for k, v in a.items() if k != "text"} for a in state.awaiting]
    assert {"seat": None, "need": "betting_cards", "count": 1} in needs
    # two cards for one remaining token, or a card a club was dealt, are refused and change nothing
    refused(profile, state, {"type": "betting_cards", "cards": ["opp_downtown_4", "opp_harbour_4"]}, E.NotAllowed,
            "not 2")
    dealt = club(state, 1).opponents[0]
    refused(profile, state, {"type": "betting_cards", "cards": [dealt]}, E.NotAllowed)
    refused(profile, state, {"type": "first_player", "seat": 1}, E.NotAllowed, "Betting token(s) must lie on")
    state = run(profile, [{"type": "betting_cards", "cards": ["opp_harbour_4"]}, {"type": "first_player", "seat": 1}], state)
    assert engine.view(profile, state)["modules"]["betting"]["cards"][0]["team"] == "harbour"


def test_with_four_clubs_no_token_lies_on_a_card() -> None:
    # 003 l.387: only "a game with less than 4 players" draws Opponent cards for tokens
    profile = demo()
    state = run(profile, [e for e in _setup([1, 2, 3, 4], None) if e["type"] != "betting_cards"])
    assert state.stage != "setup"
    refused(profile, state, {"type": "betting_cards", "cards": ["opp_harbour_4"]}, E.WrongStage)


def test_with_the_division_module_the_tokens_lie_on_cards_of_the_games_division() -> None:
    # 003 l.387: "draw random Opponent cards from your Division"
    profile = demo()
    game = {"type": "game", "modules": ["betting", "division"], "options": {"weeks": 3, "division": 2},
            "revision": engine.REVISION}
    events = [e for e in setup_events(profile, [1, 2, 3], game=game) if e["type"] not in ("betting_cards", "first_player")]
    state = run(profile, events)
    why = refused(profile, state, {"type": "betting_cards", "cards": ["opp_riverside_1"]}, E.NotAllowed)
    assert "Division 3" in why and "Division 2" in why  # opp_riverside_1 is printed for Division 3
    run(profile, [{"type": "betting_cards", "cards": ["opp_oldcastle_4"]}], state)  # a Division 2 card nobody holds


# -- Thursday: placing a bet (l.389–391) ---------------------------------------------------------------------------


def test_a_bet_is_placed_after_thursday_on_a_space_a_border_or_a_corner_only() -> None:
    # 003 l.389: "Tokens may be placed on spaces, or on any of the 4 borders of a space ... split your bet between
    # 2 or 4 spaces"
    profile = demo()
    state = _at_betting([1, 2, 3])
    assert [a["need"] for a in state.awaiting] == ["bet", "bet", "bet"]  # every club, in any order
    # two spaces far apart, three spaces, and a pattern that is no space are no place on the board
    for on in (["3/3/3/3", "0/0/0/0"], ["3/1/0/0", "3/3/0/0", "3/0/0/0"], ["2/2/2/2"]):
        refused(profile, state, {"type": "bet", "seat": 2, "on": on}, E.NotAllowed, "is not a place on the Bet board")
    # a space, a border (side by side, or one above the other) and a corner of four
    run(profile, [{"type": "bet", "seat": 2, "on": "3/1/0/0"}], state)
    run(profile, [{"type": "bet", "seat": 2, "on": ["3/1/0/0", "3/0/0/0"]}], state)
    run(profile, [{"type": "bet", "seat": 2, "on": "3/3/0/0|3/1/0/0"}], state)
    run(profile, [{"type": "bet", "seat": 2, "on": ["3/1/1/0", "3/1/0/0", "1/1/1/0", "1/1/0/0"]}], state)
    # a corner needs four spaces in a square: 3/3/3/3 has only one space below it on each side
    refused(profile, state, {"type": "bet", "seat": 2, "on": ["3/3/3/3", "3/3/3/1", "3/3/1/1", "3/3/1/0"]},
            E.NotAllowed)


def test_a_club_adds_as_many_of_its_own_euros_as_it_has_and_no_more() -> None:
    # 003 l.391: "each player places 1 € from the supply and as many € from their supply as they like"
    profile = demo()
    state = _at_betting([1, 2, 3], budget=3)
    refused(profile, state, {"type": "bet", "seat": 1, "on": "3/1/0/0", "stake": 4}, E.NotEnoughResources, "has 3 €")
    refused(profile, state, {"type": "bet", "seat": 1, "on": "3/1/0/0", "stake": -1}, E.BadEvent)
    state = run(profile, [{"type": "bet", "seat": 1, "on": "3/1/0/0", "stake": 3}], state)
    assert club(state, 1).res[0] == 3  # secret: nothing leaves the supply before every club has answered
    refused(profile, state, {"type": "bet", "seat": 1, "on": "0/0/0/0"}, E.NotAllowed, "already answered")
    state = run(profile, [{"type": "pass", "seat": 2}, {"type": "bet", "seat": 3, "on": "0/0/0/0", "stake": 0}], state)
    assert club(state, 1).res[0] == 0 and club(state, 3).res[0] == 3


def test_bets_are_secret_until_every_club_has_answered() -> None:
    # 003 l.389: "each player may simultaneously place their Betting token"
    profile = demo()
    state = run(profile, [{"type": "bet", "seat": 1, "on": "3/1/0/0", "stake": 2}], _at_betting([1, 2, 3]))
    for viewer in ("table", 2, 3):
        mine = engine.view(profile, state, viewer)["modules"]["betting"]["bets"][0]
        assert mine.get("secret") is True and "on" not in mine and "stake" not in mine
    assert engine.view(profile, state, 1)["modules"]["betting"]["bets"][0]["on"] == ["3/1/0/0"]
    state = run(profile, [{"type": "pass", "seat": 2}, {"type": "pass", "seat": 3}], state)
    shown = engine.view(profile, state, "table")["modules"]["betting"]["bets"][0]
    assert shown["on"] == ["3/1/0/0"] and shown["on_token"] == 3


# -- the End of the week (l.413–431) ----------------------------------------------------------------------------


def test_the_leaflets_example_a_club_beats_the_team_with_the_token() -> None:
    # 003 l.397–411: three clubs and a token on an Opponent card of a team a club plays this week: that team's result
    # is the reverse of the club's.  In the demo's week 1 Seat 1 plays Downtown (opp_downtown_1) and the token lies
    # on another Downtown card (opp_downtown_4); Seat 1 draws, Seats 2 and 3 lose: 1 (Seat 1), 1 (Downtown, a draw
    # too), 0, 0 -> the winning space is 1/1/0/0.
    state, said = _week([1, 2, 3], {
        1: {"on": "1/1/0/0", "stake": 2},                                 # a space: (1 + 2) € × 4 = 12 €
        2: {"on": ["1/1/0/0", "1/0/0/0"], "stake": 0},                    # a border: 1 € × 3 = 3 €
        3: {"on": ["3/1/1/0", "3/1/0/0", "1/1/1/0", "1/1/0/0"], "stake": 1},  # a corner: 2 € × 2 = 4 €
    }, cards=["opp_downtown_4"])
    assert _results(said) == {1: "draw", 2: "loss", 3: "loss"}
    settled = next(a for a in said if a["kind"] == "bet_settled")
    assert settled["space"] == "1/1/0/0"
    assert settled["results"] == {"seat:1": 1, "seat:2": 0, "seat:3": 0, "opp_downtown_4": 1}
    assert {a["seat"]: a["gain"] for a in said if a["kind"] == "bet_won"} == {1: 12, 2: 3, 3: 4}
    # each club's € against the same week without bets: its winnings less the € of its own it put on the token
    assert _budget_change([1, 2, 3], {1: {"on": "1/1/0/0", "stake": 2}, 2: {"on": ["1/1/0/0", "1/0/0/0"]},
                                      3: {"on": ["3/1/1/0", "3/1/0/0", "1/1/1/0", "1/1/0/0"], "stake": 1}},
                          cards=["opp_downtown_4"]) == {1: 12 - 2, 2: 3, 3: 4 - 1}


def test_a_wrong_bet_gains_nothing_and_its_own_euros_are_discarded() -> None:
    # 003 l.427: "If at least 1 of the teams gets another result, you lose and don't gain anything."
    # l.431: "Finally, discard all € from your Betting token and take it back."
    assert _budget_change([1, 2, 3], {1: {"on": "3/3/3/3", "stake": 5}, 2: {"on": "1/0/0/0", "stake": 1},
                                      3: {"on": ["3/3/0/0", "3/1/0/0"], "stake": 0}},
                          cards=["opp_downtown_4"]) == {1: -5, 2: -1, 3: 0}


def test_a_club_with_no_euros_bets_the_supplys_euro_and_may_win() -> None:
    # 003 l.391: "each player places 1 € from the supply": a club with 0 € may still bet; a space pays 1 € × 4
    state, said = _week([1, 2, 3], {1: {"on": "1/1/0/0"}}, cards=["opp_downtown_4"], budget=0)
    assert [(a["seat"], a["gain"]) for a in said if a["kind"] == "bet_won"] == [(1, 4)]


def test_teams_nobody_plays_count_their_opponent_die_and_a_team_with_two_tokens_counts_twice() -> None:
    # 003 l.415: "Check the results of Matches of all players and teams with the Betting tokens."  Two clubs: two
    # tokens, on Harbour cards nobody plays in week 1, so Harbour's result is its red die's: a 4 moves it 1 space,
    # a draw.  Seat 1 draws, Seat 2 loses: 1, 0, 1, 1 -> 1/1/1/0.
    kw: dict[str, Any] = {"cards": ["opp_harbour_3", "opp_harbour_4"], "rolls": {"harbour": RED_DRAW}}
    state, said = _week([1, 2], {1: {"on": "1/1/1/0", "stake": 3}, 2: {"on": "1/1/0/0", "stake": 3}}, **kw)
    assert _results(said) == {1: "draw", 2: "loss"}
    assert next(a for a in said if a["kind"] == "bet_settled")["space"] == "1/1/1/0"
    assert _budget_change([1, 2], {1: {"on": "1/1/1/0", "stake": 3}, 2: {"on": "1/1/0/0", "stake": 3}}, **kw) == \
        {1: 4 * 4 - 3, 2: -3}
    # the same week with Harbour rolling a 1 (3 spaces, a win) and a 6 (no space, a loss)
    _, said = _week([1, 2], {}, cards=["opp_harbour_3", "opp_harbour_4"], rolls={"harbour": RED_WIN})
    assert next(a for a in said if a["kind"] == "bet_settled")["space"] == "3/3/1/0"
    _, said = _week([1, 2], {}, cards=["opp_harbour_3", "opp_harbour_4"], rolls={"harbour": RED_LOSS})
    assert next(a for a in said if a["kind"] == "bet_settled")["space"] == "1/0/0/0"


def test_a_border_and_a_corner_win_from_either_of_their_spaces() -> None:
    # 003 l.419–423: "You succeed if your Betting token is on that space or on its border"; the winning space here is
    # 1/1/1/0 (as above): a border whose other space is 1/1/1/1 and a corner with 1/1/1/0 in it both win.
    kw: dict[str, Any] = {"cards": ["opp_harbour_3", "opp_harbour_4"], "rolls": {"harbour": RED_DRAW}}
    assert _budget_change([1, 2], {1: {"on": ["1/1/1/1", "1/1/1/0"], "stake": 1},
                                   2: {"on": ["3/1/1/1", "3/1/1/0", "1/1/1/1", "1/1/1/0"], "stake": 4}}, **kw) == \
        {1: 2 * 3 - 1, 2: 5 * 2 - 4}


def _whole_game(seats: list[int], bets: dict[int, str], cards: list[str] | None = None) -> list[dict[str, Any]]:
    """A one-week game with these bets (stake 0), played to its end: everything announced."""
    profile = demo()
    game = {**GAME, "options": {"weeks": 1}}
    events = setup_events(profile, seats, game=game)
    if cards is not None:
        events = [{"type": "betting_cards", "cards": cards} if e["type"] == "betting_cards" else e for e in events]
    state = at_stage(profile, run(profile, events), "betting")
    said: list[dict[str, Any]] = []
    for seat in seats:
        step = engine.apply(profile, state, {"type": "bet", "seat": seat, "on": bets[seat]} if seat in bets
                            else {"type": "pass", "seat": seat})
        said += step.announcements
        state = step.state
    _play(state, lambda s: s.stage == "over", said)
    return said


def test_the_last_weeks_bets_are_settled_before_the_final_scoring() -> None:
    # 003 l.413: "At the end of the Week, check your Bet" — the last week too.  Four clubs, no token on a card; in the
    # one week every club plays Downtown: Seat 1 draws, Seats 2 and 3 lose, Seat 4 draws: 1/1/0/0.
    said = _whole_game([1, 2, 3, 4], {1: "3/3/3/3", 3: "1/1/0/0", 4: "1/0/0/0"})
    assert _results(said) == {1: "draw", 2: "loss", 3: "loss", 4: "draw"}
    assert all("against Downtown United" in a["text"] for a in said if a["kind"] == "result")
    kinds = [a["kind"] for a in said]
    assert kinds.index("bet_settled") < kinds.index("final_scoring")
    assert [(a["seat"], a["gain"]) for a in said if a["kind"] == "bet_won"] == [(3, 4)]
    assert sorted(a["seat"] for a in said if a["kind"] == "bet_lost") == [1, 4]


def test_a_team_with_a_token_played_by_several_clubs_counts_its_best_result() -> None:
    # 003 l.415: "Check the results of Matches of all players and teams with the Betting tokens"; a team that played
    # several clubs in one week has several results: RULES.md reads the League spaces it moved, 3 or more a win.  In
    # the one-week game every club plays Downtown: Seat 1 draws (Downtown 1 space), Seats 2 and 3 lose (3 spaces
    # each): Downtown moved 7, a win: 3, 1, 0, 0.
    said = _whole_game([1, 2, 3], {1: "3/1/0/0"}, cards=["opp_downtown_4"])
    assert _results(said) == {1: "draw", 2: "loss", 3: "loss"}
    assert all("against Downtown United" in a["text"] for a in said if a["kind"] == "result")
    settled = next(a for a in said if a["kind"] == "bet_settled")
    assert settled["results"]["opp_downtown_4"] == 3 and settled["space"] == "3/1/0/0"
    assert [(a["seat"], a["gain"]) for a in said if a["kind"] == "bet_won"] == [(1, 4)]


def test_a_bets_own_euros_are_at_most_what_the_club_still_has_when_the_bets_are_shown() -> None:
    # 003 l.391: "each player places 1 € from the supply and as many € from their supply as they like": the € lie on
    # the token from then on.  Seat 1 bets its 3 € on 1/1/0/0; before the others answer, the table corrects its
    # budget by -2: only 1 € of its own is left to lie on the token, so it holds 2 € and a win pays 2 × 4 = 8 €.
    profile = demo()
    state = _at_betting([1, 2, 3], ["opp_downtown_4"], budget=3)
    state = run(profile, [{"type": "bet", "seat": 1, "on": "1/1/0/0", "stake": 3},
                          {"type": "adjust", "seat": 1, "what": "budget", "delta": -2, "reason": "correction"},
                          {"type": "pass", "seat": 2}, {"type": "pass", "seat": 3}], state)
    assert club(state, 1).res[0] == 0
    assert engine.view(profile, state, "table")["modules"]["betting"]["bets"][0]["on_token"] == 2
    said: list[dict[str, Any]] = []
    _to_monday(state, said)
    assert [(a["seat"], a["gain"]) for a in said if a["kind"] == "bet_won"] == [(1, 8)]


def test_a_game_begun_under_revision_2_keeps_the_stake_as_bet() -> None:
    # engine/RULES.md "Revisions": older games replay as recorded (the token kept the 3 € bet)
    profile = demo()
    state = at_stage(profile, run(profile, [{**e, "revision": 2} if e["type"] == "game" else e
                                            for e in _setup([1, 2, 3], ["opp_downtown_4"])]), "betting")
    state = set_club(state, 1, res=(3,) + club(state, 1).res[1:])
    state = run(profile, [{"type": "bet", "seat": 1, "on": "1/1/0/0", "stake": 3},
                          {"type": "adjust", "seat": 1, "what": "budget", "delta": -2, "reason": "correction"},
                          {"type": "pass", "seat": 2}, {"type": "pass", "seat": 3}], state)
    assert engine.view(profile, state, "table")["modules"]["betting"]["bets"][0]["on_token"] == 4
