"""League matches between clubs (003 l.100–167) checked against the leaflet by hand-computed cases.

Each case fields cards of its own whose Strengths and styles are written below, so every goal is worked out by hand:
a half is "a normal Match" (l.150) between the two arrangements, each zone's attackers paired with the other club's
defenders facing them, strongest against strongest, and an attacker scores when stronger or left over (000 l.675).
In the two-club game of two weeks (``at_club_match``) the Stage marker has passed to Seat 2 in week 2, so Seat 2
hosts and Seat 1 visits.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

import engine
from engine import errors as E
from engine.cards import Ability, Effect, Goalkeeper
from engine.legal import setup_events
from engine.modules import club_matches as cm
from engine.state import Held, State

from tests.engine.helpers import club, demo, footballer, refused, run, set_club, with_cards
from tests.engine.modules.test_club_matches import GAME, SECTIONS, at_club_match, fixture

# a 4-4-2 of ten jerseys: (jersey, zone)
FOUR_FOUR_TWO = [(2, "def_left"), (3, "def_centre"), (4, "def_centre"), (5, "def_right"), (6, "mid_left"),
                 (7, "mid_centre"), (8, "mid_centre"), (9, "mid_right"), (10, "fwd_centre"), (11, "fwd_centre")]


def _side(prefix: str, attackers: dict[int, int] | None = None, keeper: Goalkeeper | None = None) -> list[Any]:
    """Ten cards of Strength 1 defending, but for the jerseys in ``attackers`` (jersey: Strength, attacking); the
    Goalkeeper (if any) wears #2."""
    cards = []
    attackers = attackers or {}
    for jersey, _ in FOUR_FOUR_TWO:
        card = footballer(f"pl_{prefix}{jersey}", jersey, "attack" if jersey in attackers else "defence",
                          attackers.get(jersey, 1), SECTIONS)
        if keeper is not None and jersey == 2:
            card = replace(card, untrained=replace(card.untrained, goalkeeper=keeper), trained=replace(card.trained, goalkeeper=keeper))
        cards.append(card)
    return cards


def _markers(prefix: str, cards: list[Any]) -> list[dict[str, Any]]:
    zones = dict(FOUR_FOUR_TWO)
    return [{"zone": zones[c.untrained.jersey], "jersey": c.untrained.jersey, "card": c.id, "style": c.untrained.style}
            for c in cards]


def _match(host_cards: list[Any], visitor_cards: list[Any], *, trained: tuple[str, ...] = (),
           assign: dict[str, Any] | None = None, first_half: tuple[dict[str, Any], ...] = ()
           ) -> tuple[Any, State, list[dict[str, Any]], dict[int, int]]:
    """Seat 2 (Host) and Seat 1 (Visitor) play both halves in a 4-4-2 with the cards given; no Fanbase, so no die
    waits for a reroll.  ``trained``: the cards held trained; ``assign``: the Visitor's resources on its cards;
    ``first_half``: events played in the first half before both say they are ready.  Returns the profile, the
    state, every announcement made and the League points before."""
    profile = with_cards(demo(), *host_cards, *visitor_cards)
    state = at_club_match(profile)
    state = set_club(state, 2, players=tuple(Held(c.id, trained=c.id in trained) for c in host_cards), res=(10, 0, 3, 12))
    state = set_club(state, 1, players=tuple(Held(c.id, trained=c.id in trained) for c in visitor_cards), res=(10, 0, 3, 12))
    host, visitor = _markers("h", host_cards), _markers("v", visitor_cards)
    before = {seat: club(state, seat).points for seat in (1, 2)}
    said: list[dict[str, Any]] = []
    for event in ({"type": "formation", "seat": 2, "shape": "4-4-2"}, {"type": "arrange", "seat": 2, "players": host},
                  {"type": "arrange", "seat": 1, "players": visitor, "assign": assign or {}}, *first_half,
                  {"type": "pass", "seat": 2}, {"type": "pass", "seat": 1},
                  {"type": "formation", "seat": 1, "shape": "4-4-2"}, {"type": "arrange", "seat": 1, "players": visitor},
                  {"type": "arrange", "seat": 2, "players": host}, {"type": "pass", "seat": 1}, {"type": "pass", "seat": 2}):
        step = engine.apply(profile, state, event)
        state = step.state
        said.extend(step.announcements)
    return profile, state, said, before


def _kinds(said: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [a for a in said if a["kind"] == kind]


def test_the_first_half_opens_with_the_hosts_central_defenders_and_the_second_with_the_visitors() -> None:
    """l.152: "Compare the 5 pairs of Sections beginning with the Host's Central Defenders versus the Visitor's
    Central Forwards"; l.162: "beginning with the Visitor's Central Defenders versus the Host's Central Forwards".
    The Visitor's only attacker, #10 of Strength 2 in the centre forwards, beats the Host's central defenders (1 and
    1) in each half: in the first half in the first pair, in the second half in the third (the Visitor's Central
    Forwards against the Host's Central Defenders).  0–1 and 0–1: the Visitor wins 2–0 and takes 3 League points
    (000 l.714), the Host none."""
    profile, state, said, before = _match(_side("h"), _side("v", {10: 2}))
    pairs = _kinds(said, "pair")
    assert [(p["half"], p["section"], p["first"], p["goals"]) for p in pairs if sum(p["goals"].values())] == [
        (1, "centre_defence", 2, {"2": 0, "1": 1}), (2, "centre_attack", 1, {"1": 1, "2": 0})]
    assert [h["text"] for h in _kinds(said, "half_result")] == ["First half: Seat 2 0–1 Seat 1.", "Second half: Seat 2 0–1 Seat 1."]
    assert (club(state, 1).goals, club(state, 1).conceded, club(state, 1).result) == (2, 0, "win")
    assert (club(state, 2).goals, club(state, 2).conceded, club(state, 2).result) == (0, 2, "loss")
    assert not _kinds(said, "level") and fixture(state).winner == 0
    assert (club(state, 1).points - before[1], club(state, 2).points - before[2]) == (3, 0)


def test_a_match_where_nobody_scores_goes_to_the_dice_and_the_goalkeepers_luck_can_turn_the_lower_die_into_a_win() -> None:
    """l.150: a half "as if ... a normal Match": only defenders on both sides, so no goal in either half; l.167:
    "In case of a tie, each player rolls a six-sided die and subtracts the [luck] of their opponent's Goalkeeper ...
    The highest result wins".  The Visitor rolls 4 but the Host's Goalkeeper has 2 luck: 2; the Host rolls 3 and the
    Visitor has no Goalkeeper: 3.  The Host wins the tie-break, the score stays 0–0."""
    profile, state, said, before = _match(_side("h", keeper=Goalkeeper(gloves=1, luck=2)), _side("v"))
    assert [h["text"] for h in _kinds(said, "half_result")] == ["First half: Seat 2 0–0 Seat 1.", "Second half: Seat 2 0–0 Seat 1."]
    assert not _kinds(said, "blocked")  # no shot to block
    assert [a["text"] for a in _kinds(said, "level")] == ["Seat 2 and Seat 1 are level at 0–0: each rolls a d6 for the tie-break."]
    said = []
    for event in ({"type": "roll", "seat": 1, "value": 4}, {"type": "roll", "seat": 2, "value": 3}):
        step = engine.apply(profile, state, event)
        state, said = step.state, said + list(step.announcements)
    assert [a["text"] for a in _kinds(said, "tiebreak")] == [
        "Seat 1 rolls 4 for the tie-break, minus 2 for Seat 2's Goalkeeper: 2.",
        "Seat 2 rolls 3 for the tie-break, minus 0 for Seat 1's Goalkeeper: 3."]
    assert _kinds(said, "tiebreak_won")[0]["text"] == "Seat 2 wins the tie-break 3–2."
    assert (club(state, 2).result, club(state, 1).result) == ("win", "loss")
    assert (club(state, 2).goals, club(state, 2).conceded) == (0, 0)
    assert (club(state, 2).points - before[2], club(state, 1).points - before[1]) == (3, 0)


def _play(profile: Any, state: State, done: Callable[[State], bool]) -> State:
    """Play on with the first pass, formation or arrangement offered (a club still arranging), dice varied."""
    for n in range(3000):
        if done(state):
            return state
        options = engine.legal_events(profile, state)
        arranging = {w["seat"] for w in state.awaiting if w["need"] == "arrange"}
        event = next((e for e in options if e["type"] in ("pass", "keep", "formation")
                      or (e["type"] == "arrange" and e["seat"] in arranging)), None)
        if event is None:
            rolls = [e for e in options if e["type"] == "roll"]
            event = rolls[(n * 7) % len(rolls)] if rolls else options[0]
        state = engine.apply(profile, state, event).state
    raise AssertionError("the game did not reach the wanted moment")


def test_the_host_is_the_first_of_the_pair_in_turn_order_from_the_stage_marker() -> None:
    """l.142: "The First player (determined by the player with the Stage marker and moving clockwise) becomes the
    Host".  Four clubs, four weeks (the schedule's last four rows, l.126–132), Seat 3 First player in week 1, so the
    Stage marker is at Seat 4 in week 2 and at Seat 1 in week 3.  Week 2 (Player 1 v 2, 3 v 4): turn order 4, 1, 2,
    3, so Seat 4 hosts Seat 3 and Seat 1 hosts Seat 2.  Week 3 (1 v 4, 2 v 3): order 1, 2, 3, 4: Seat 1 hosts Seat
    4, Seat 2 hosts Seat 3.  l.134: each club is dealt one Opponent card, for its one regular week."""
    profile = demo()
    events = setup_events(profile, [1, 2, 3, 4], game={**GAME, "options": {"weeks": 4}})
    events[-1] = {"type": "first_player", "seat": 3}
    state = run(profile, events)
    assert [len(c.opponents) for c in state.clubs] == [1, 1, 1, 1]
    state = _play(profile, state, lambda s: s.stage == cm.STAGE)
    assert state.week == 2 and [(f.host, f.visitor) for f in state.slice(cm.NAME).fixtures] == [(4, 3), (1, 2)]
    assert [a["seat"] for a in state.awaiting] == [4, 1]  # the Hosts declare first (l.143)
    # 000 l.722: in a week nobody played an Opponent team, every team rolls its die, but one two clubs played in
    # week 1 (inactive) flips back instead
    inactive = {t.id for t in state.teams if t.inactive}
    state = _play(profile, state, lambda s: s.stage == "results")
    assert state.week == 2
    rolled: set[str] = set()
    while state.stage == "results":
        rolled.update(w["team"] for w in state.awaiting if w["need"] == "roll" and w.get("purpose") == "opponent_die")
        state = engine.apply(profile, state, engine.legal_events(profile, state)[0]).state
    assert rolled | inactive == {t.id for t in profile.board.teams} and not rolled & inactive
    assert not any(t.inactive for t in state.teams)
    state = _play(profile, state, lambda s: s.stage == cm.STAGE and s.week == 3)
    assert [(f.host, f.visitor) for f in state.slice(cm.NAME).fixtures] == [(1, 4), (2, 3)]
    # the Opponent card dealt was played in week 1 and no club plays one in the weeks against clubs
    assert all(engine.week_opponent(state, c, w) is None for c in state.clubs for w in (2, 3, 4))


def test_a_goal_from_an_ability_during_the_first_half_wins_a_match_where_no_section_scores() -> None:
    """l.151: "Players may resolve the effects of their Player cards by discarding assigned Resources and
    exhausting Player cards before proceeding to comparing Sections ... Exhausted Players will play in the Second
    Half, but you may not use their effects again"; l.166: the result as a normal Match.  Only defenders again, but
    the Visitor's #7 (trained) scores a goal for 1 assigned Fitness: the halves are 0–0, the match 1–0 to the
    Visitor, with no tie-break."""
    scorer = Ability(timing="during_match", cost=(("fitness", 1),), effects=(Effect.of("score", side="us", goals=1),),
                     text="Spend 1 assigned fitness: score a goal.")
    visitor = [footballer("pl_v7", 7, "defence", 1, SECTIONS, abilities=(scorer,)) if c.id == "pl_v7" else c for c in _side("v")]
    profile, state, said, before = _match(_side("h"), visitor, trained=("pl_v7",), assign={"pl_v7": {"fitness": 1}},
                                          first_half=({"type": "use_card", "seat": 1, "card": "pl_v7"},))
    assert [h["text"] for h in _kinds(said, "half_result")] == ["First half: Seat 2 0–0 Seat 1.", "Second half: Seat 2 0–0 Seat 1."]
    assert not _kinds(said, "level")
    assert (club(state, 1).goals, club(state, 1).conceded, club(state, 1).result) == (1, 0, "win")
    assert (club(state, 2).goals, club(state, 2).conceded, club(state, 2).result) == (0, 1, "loss")
    assert (club(state, 1).points - before[1], club(state, 2).points - before[2]) == (3, 0)


def test_with_three_clubs_the_club_left_over_plays_its_next_opponent_card_after_the_match_between_clubs() -> None:
    """l.116–122 (three clubs, the last four rows in a game of four weeks): week 2 is Player 1 v Player 2 while
    Player 3 meets a regular Opponent; l.134: each club is dealt 4 - 2 = 2 Opponent cards, played in its two
    regular weeks in order.  The Stage marker is at Seat 2 in week 2 (Seat 1 was First in week 1), so turn order
    2, 3, 1 makes Seat 2 the Host (l.142).  The match between clubs is played first, then Seat 3's Matchday."""
    profile = demo()
    state = run(profile, setup_events(profile, [1, 2, 3], game={**GAME, "options": {"weeks": 4}}))
    plays = {c.seat: [engine.week_opponent(state, c, w) for w in (1, 2, 3, 4)] for c in state.clubs}
    cards = {c.seat: c.opponents for c in state.clubs}
    assert {seat: len(dealt) for seat, dealt in cards.items()} == {1: 2, 2: 2, 3: 2}
    assert plays == {1: [cards[1][0], None, cards[1][1], None], 2: [cards[2][0], None, None, cards[2][1]],
                     3: [cards[3][0], cards[3][1], None, None]}
    state = _play(profile, state, lambda s: s.stage == cm.STAGE)
    assert state.week == 2 and [(f.host, f.visitor) for f in state.slice(cm.NAME).fixtures] == [(2, 1)]
    assert [(w["seat"], w["need"]) for w in state.awaiting] == [(2, "formation")]
    state = _play(profile, state, lambda s: s.stage == "matchday")
    assert [(w["seat"], w["need"]) for w in state.awaiting] == [(3, "lineup")]
    assert {club(state, 1).result, club(state, 2).result} == {"win", "loss"} and club(state, 3).result is None


def test_a_game_too_short_for_any_opponent_card_is_refused_as_the_club_that_makes_it_so_joins() -> None:
    """l.134: "prepare fewer Opponent cards so that you have a number of cards equal to the number of Matches
    against Regular Opponents": four clubs play three weeks against clubs (l.126–132), so a game of three weeks
    would deal each club none.  The fourth club is refused with the reason; three clubs (two weeks against clubs)
    may play three weeks.  A game begun before revision 3 keeps its old course (refused when dealing)."""
    profile = demo()
    game = {**GAME, "options": {"weeks": 3}, "revision": engine.REVISION}
    events = setup_events(profile, [1, 2, 3, 4], game=game)
    state = run(profile, events[:4])
    assert refused(profile, state, events[4], E.NotAllowed) == (
        "Seat 4 cannot join: with 4 clubs each club plays 3 week(s) against other clubs, so a game of 3 week(s) leaves "
        "none for its Opponent cards; choose at least 4 weeks or fewer clubs.")
    three = run(profile, setup_events(profile, [1, 2, 3], game=game))
    assert [len(c.opponents) for c in three.clubs] == [1, 1, 1] and three.weeks == 3
    old = setup_events(profile, [1, 2, 3, 4], game={**GAME, "options": {"weeks": 3}, "revision": 2})
    state = run(profile, old[:5])
    assert len(state.clubs) == 4
    opponents = next(i for i, e in enumerate(old) if e["type"] == "opponents")
    refused(profile, run(profile, old[5:opponents], state), old[opponents], E.BadEvent)
