"""Unique Setup cards (003 l.187–219, "003" below).

l.191: "Before the game, each player draws 2 random Unique Setup cards and places them so that they cover the
corresponding parts of their boards or place them below the appropriate board. One card must be played with its
positive (green) side faceup and the other with its negative (red) side faceup. During the game, you must apply the
effects of these cards."  The demo's eight cards are samples (the leaflet shows them as pictures), one for each part
the leaflet names, l.195–219.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import errors as E
from engine import host
from engine.legal import auto_lineup, setup_events
from engine.loader import DataError, clear_cache
from engine.modules import unique_setup as U
from engine.rules.context import move_stat
from engine.state import Held, State
from engine.tx import Tx

from tests.engine.helpers import at_stage, club, demo, refused, run, set_club

GAME = {"type": "game", "modules": ["unique_setup"]}


def _game(cards: dict[int, tuple[str, str]], modules: tuple[str, ...] = ("unique_setup",), profile: Any = None) -> tuple[Any, State]:
    """A game past its setup, each seat playing its (green, red) Unique Setup cards."""
    profile = profile or demo()
    events = setup_events(profile, sorted(cards), game={**GAME, "modules": list(modules)})
    places = [{"type": "unique_setup", "seat": s, "green": g, "red": r} for s, (g, r) in cards.items()]
    return profile, run(profile, [*events, *places])


def _tuesday(cards: dict[int, tuple[str, str]], **changes: Any) -> tuple[Any, State]:
    profile, state = _game(cards)
    state = at_stage(profile, state, "tuesday")
    return profile, set_club(state, 1, **changes) if changes else state


def _matchday(cards: dict[int, tuple[str, str]], **changes: Any) -> tuple[Any, State]:
    """Seat 1's Matchday, its lineup set (the engine's automatic one), ``changes`` made before the kick-off."""
    profile, state = _game(cards)
    state = at_stage(profile, state, "matchday")
    state = run(profile, [auto_lineup(profile, club(state, 1))], state)
    return profile, set_club(state, 1, **changes)


# --- placing the cards -------------------------------------------------------------------------------------------


def test_the_setup_waits_until_every_club_has_placed_two_cards_one_green_one_red() -> None:
    profile = demo()
    state = run(profile, setup_events(profile, [1, 2], game=GAME))
    assert state.stage == "setup"
    assert [(n["seat"], n["need"], n["text"], n["page"]) for n in state.awaiting] == [
        (1, "unique_setup", U.NEED.format(seat=1), True), (2, "unique_setup", U.NEED.format(seat=2), True)]
    place = {"type": "unique_setup", "seat": 1, "green": "us_1", "red": "us_2"}
    assert refused(profile, state, {**place, "red": "us_1"}, E.NotAllowed) == U.SAME_CARD.format(seat=1)
    assert refused(profile, state, {**place, "green": "us_9"}, E.NotAllowed).startswith(
        'There is no Unique Setup card "us_9" in this deck. Unique Setup cards: us_1 (Family stand)')
    assert "green" in refused(profile, state, {"type": "unique_setup", "seat": 1, "red": "us_2"}, E.BadEvent)
    step = engine.apply(profile, state, place)
    assert step.announcements[0]["text"] == (
        "Seat 1 plays Family stand green side up (Stands #2 takes 2 Fanbase) and Wage structure red side up "
        "(Players' wages are high: the Players track costs sooner).")
    state = step.state
    assert refused(profile, state, place, E.NotAllowed) == U.ALREADY.format(seat=1, green="Family stand", red="Wage structure")
    assert refused(profile, state, {**place, "seat": 2, "green": "us_3"}, E.NotAllowed) == \
        U.TAKEN.format(name="Wage structure", seat=1)  # each club draws its own cards
    state = run(profile, [{**place, "seat": 2, "green": "us_3", "red": "us_4"}], state)
    assert state.stage == "monday" and state.week == 1
    assert refused(profile, state, {**place, "seat": 1}, E.WrongStage) == U.SETUP_ONLY


# --- each part of the boards -------------------------------------------------------------------------------------


def test_stands_two_takes_two_fanbase_on_the_green_side_and_none_on_the_red() -> None:
    """l.195: "This card increases or decreases the number of [Fanbase] that you may assign to your Stands #2"."""
    profile, state = _game({1: ("us_1", "us_2"), 2: ("us_3", "us_4")})
    views = {c["seat"]: c for c in engine.view(profile, state)["clubs"]}
    assert views[1]["board"]["stands"] == [1, 2] and views[2]["board"]["stands"] == [1, 1]
    profile, state = _game({1: ("us_2", "us_1")})
    assert engine.view(profile, state)["clubs"][0]["board"]["stands"] == [1, 0]


def test_a_lineup_may_place_as_many_fanbase_as_the_clubs_own_stands_take() -> None:
    profile, state = _matchday({1: ("us_1", "us_2"), 2: ("us_3", "us_4")})
    lineup = {**auto_lineup(profile, club(state, 1)), "stands": 3}
    state = set_club(state, 1, lineup=None, res=(0, 5, 0, 5))
    assert club(run(profile, [lineup], state), 1).stands == 3
    assert refused(profile, state, {**lineup, "stands": 4}, E.NotAllowed) == E.STANDS_LIMIT.format(seat=1, stands=3, count=4)
    other = {**auto_lineup(profile, club(state, 2)), "stands": 3}
    state = set_club(state, 2, res=(0, 5, 0, 5))
    assert refused(profile, state, other, E.NotAllowed) == E.STANDS_LIMIT.format(seat=2, stands=2, count=3)


def _maintenance_paid(profile: Any, state: State) -> dict[int, int]:
    """Play on to the next Monday: the Maintenance each club was due."""
    said: list[dict[str, Any]] = []
    week = state.week
    while state.week == week:
        options = engine.legal_events(profile, state)
        step = engine.apply(profile, state, next((e for e in options if e["type"] in ("pass", "keep")), options[0]))
        said.extend(step.announcements)
        state = step.state
    return {a["seat"]: a["due"] for a in said if a["kind"] == "maintenance"}


def test_the_maintenance_tracks_are_the_clubs_own() -> None:
    """l.199: "This card changes the values of Maintenance tracks" (us_2: the Players track; the demo's asks 1 €
    for 4 Players and nothing for 3).  Seat 2 plays other cards: the demo's track."""
    base = demo().board
    assert (base.maintenance_due("players", 4), base.maintenance_due("players", 3)) == (1, 0)
    four = tuple(Held(p.id) for p in demo().cards_of("player")[:4])
    staff = base.maintenance_due("staff", 1)
    for cards, due in (({1: ("us_2", "us_1"), 2: ("us_3", "us_4")}, {1: 0, 2: 1}),   # green: cheaper
                       ({1: ("us_1", "us_2"), 2: ("us_3", "us_4")}, {1: 1, 2: 1})):  # red: 1 € for 4 as well...
        profile, state = _tuesday(cards)
        state = set_club(set_club(state, 1, players=four, res=(10, 0, 0, 0)), 2, players=four, res=(10, 0, 0, 0))
        assert {c["seat"]: c["maintenance"]["players"] for c in engine.view(profile, state)["clubs"]} == due
        assert _maintenance_paid(profile, state) == {seat: n + staff for seat, n in due.items()}
    # ...and already for 3, where the demo's asks nothing
    profile, state = _tuesday({1: ("us_1", "us_2"), 2: ("us_3", "us_4")})
    state = set_club(set_club(state, 1, players=four[:3]), 2, players=four[:3])
    assert {c["seat"]: c["maintenance"]["players"] for c in engine.view(profile, state)["clubs"]} == {1: 1, 2: 0}


def test_the_match_consequence_table_is_the_clubs_own() -> None:
    """l.203: "This card changes the Match Consequences table" (us_3 green: a loss injures nobody)."""
    profile, state = _matchday({1: ("us_3", "us_4"), 2: ("us_5", "us_6")}, conceded=9, res=(0, 0, 0, 0))
    state = run(profile, [{"type": "kickoff", "seat": 1}], state)
    assert club(state, 1).result == "loss"
    while state.awaiting[0].get("purpose") != "match_consequence":  # the footballers' own rolls after the match first
        state = run(profile, [{"type": "roll", "seat": 1, "value": 6}], state)
    step = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 1})
    consequence = next(a for a in step.announcements if a["kind"] == "match_consequence")
    assert consequence["effects"] == [{"op": "stat", "stat": "fitness", "steps": -1}]
    assert not any(n.get("purpose") == "injury" for n in step.state.awaiting)
    assert [e.op for e in demo().board.consequence("loss", 1)] == ["injure"]  # where the demo's table injures


def test_the_spaces_for_stadium_infrastructure_tokens_are_the_clubs_own() -> None:
    """l.207: "This card increases or decreases the number of your spaces for Stadium Infrastructure tokens"
    (us_4 red: one of the four improvement spaces is covered; green: a fifth)."""
    built = ("lighting", "merchandise", "training_camp")
    profile, state = _tuesday({1: ("us_1", "us_4"), 2: ("us_3", "us_2")}, res=(20, 0, 0, 0), infrastructure=built)
    assert refused(profile, state, {"type": "build", "seat": 1, "kind": "training_ground"}, E.NotAllowed) == \
        E.INFRA_NO_SPACE.format(seat=1, name="Training ground", spaces=3, space="improvement")
    assert engine.view(profile, state)["clubs"][1]["stadium"]["spaces"]["improvement"] == {"spaces": 4, "built": 0}
    profile, state = _tuesday({1: ("us_4", "us_1")})
    assert engine.view(profile, state)["clubs"][0]["stadium"]["spaces"]["improvement"] == {"spaces": 5, "built": 0}


def _move(profile: Any, state: State, seat: int, stat: str, steps: int) -> Any:
    tx = Tx(profile, host.rules_for(state.game), state, {})
    return move_stat(tx, club(state, seat), stat, steps)


def test_a_stat_marker_past_the_top_or_below_one_does_what_the_clubs_cards_say() -> None:
    """l.211: "These cards change the effects of modifying Stat levels above 5 or below 1" (us_5: past the top;
    us_6: below 1).  The rulebook's (000 l.225) still holds for a club without them: past 6 gain the resource;
    below 1 lose it, or 1 €."""
    def moved(cards: dict[int, tuple[str, str]]) -> list[tuple[int, int]]:
        profile, state = _game(cards)
        out = []
        for seat in sorted(cards):
            state = set_club(state, seat, stats=(2, 6, 1, 2), res=(3, 0, 0, 0))
            up, down = _move(profile, state, seat, "fanbase", 1), _move(profile, state, seat, "operation", -1)
            out.append((up.res[1] + up.res[0] - 3, down.res[0] - 3))  # what a step up gains, what a step down costs
        return out

    # seat 1: us_5 green (gain the resource and 1 €) and us_6 red (lose 2, 1 € for each missing); seat 2: none of them
    assert moved({1: ("us_5", "us_6"), 2: ("us_1", "us_2")}) == [(2, -2), (1, -1)]
    # us_6 green (below 1 costs nothing) and us_5 red (past the top gains nothing)
    assert moved({1: ("us_6", "us_5")}) == [(0, 0)]


def test_a_club_gains_after_a_win_on_the_green_side_and_loses_after_a_loss_on_the_red() -> None:
    """l.215: "This card gives additional effects depending on your Match result" (us_7)."""
    profile, state = _matchday({1: ("us_7", "us_1"), 2: ("us_2", "us_3")}, goals=9)
    step = engine.apply(profile, state, {"type": "kickoff", "seat": 1})
    assert club(step.state, 1).result == "win"
    assert any(a["kind"] == "gain" and (a["resource"], a["amount"]) == ("fanbase", 1) for a in step.announcements)
    profile, state = _matchday({1: ("us_1", "us_7")}, conceded=9, res=(0, 2, 0, 5))
    step = engine.apply(profile, state, {"type": "kickoff", "seat": 1})
    assert club(step.state, 1).result == "loss"
    assert any(a["kind"] == "lose" and (a["resource"], a["amount"]) == ("fanbase", 1) for a in step.announcements)
    profile, state = _matchday({1: ("us_1", "us_2")}, conceded=9, res=(0, 2, 0, 5))
    step = engine.apply(profile, state, {"type": "kickoff", "seat": 1})
    assert not any(a["kind"] in ("gain", "lose") for a in step.announcements)


def test_the_office_track_is_the_clubs_own() -> None:
    """l.219: "This card changes the Office track" (us_8 green: each space 1 € less; red: 1 € more)."""
    profile, state = _tuesday({1: ("us_8", "us_1")}, res=(2, 0, 0, 0))
    state = run(profile, [{"type": "office", "seat": 1}], state)
    assert club(state, 1).office == 1 and club(state, 1).res[0] == 0
    profile, state = _tuesday({1: ("us_1", "us_8")}, res=(3, 0, 0, 0))
    assert engine.view(profile, state)["clubs"][0]["board"]["office"][0] == {"cost": 4, "vp": 2}
    assert refused(profile, state, {"type": "office", "seat": 1}, E.NotEnoughResources).startswith("Seat 1 cannot move on the Office track")


# --- the page, the data ------------------------------------------------------------------------------------------


def test_the_view_shows_each_clubs_cards_and_the_play_page_offers_the_free_ones() -> None:
    profile = demo()
    state = run(profile, [*setup_events(profile, [1, 2], game=GAME),
                          {"type": "unique_setup", "seat": 1, "green": "us_1", "red": "us_2"}])
    part = engine.view(profile, state)["modules"]["unique_setup"]
    assert part["placed"]["1"]["green"]["changes"] == ["Stands #2 takes 2 Fanbase"]
    assert part["placed"]["1"]["red"]["text"] == "Players' wages are high: the Players track costs sooner."
    [ask] = part["asks"]
    assert ask["seat"] == 2 and ask["options"][0]["event"] == {"type": "unique_setup", "seat": 2}
    assert {c["value"] for c in ask["options"][0]["fields"][0]["choices"]} == {f"us_{n}" for n in range(3, 9)}


def test_the_demo_has_eight_cards_one_for_each_part_the_leaflet_names() -> None:
    """l.189: "Use these 8 cards"; l.195–219 name seven parts, the Stat levels' by two cards."""
    cards = U.cards_of(demo())
    assert len(cards) == 8
    changed = [{k for k in U.CHANGES if getattr(c.green, k) not in ((), 0, None)} for c in cards]
    assert changed == [{"stands"}, {"maintenance"}, {"match_consequences"}, {"infrastructure_spaces"}, {"past_top"},
                       {"below_bottom"}, {"after_result"}, {"office"}]


CARD = '[[card]]\nid = "us_1"\nname = "A"\n[card.green]\ntext = "g"\nstands = { 2 = 2 }\n[card.red]\ntext = "r"\nstands = { 2 = 0 }\n'
TWO = CARD + CARD.replace("us_1", "us_2")


@pytest.mark.parametrize("text, message", [
    (TWO.replace('stands = { 2 = 0 }\n[[card]]', 'walls = 2\n[[card]]'), 'unique_setup.toml, card us_1, field "red.walls": unknown field'),
    (TWO.replace('stands = { 2 = 0 }\n[[card]]', '\n[[card]]'), 'unique_setup.toml, card us_1, field "red.text": a side changes a part'),
    (TWO.replace('stands = { 2 = 0 }', 'stands = { two = 0 }', 1), 'unique_setup.toml, card us_1, field "red.stands.two": a printed Stands by its number'),
    (TWO.replace('stands = { 2 = 0 }', 'maintenance = { players = [0, "x"] }', 1),
     'unique_setup.toml, card us_1, field "red.maintenance.players": expected a list of whole numbers 0–20'),
    (TWO.replace('stands = { 2 = 0 }', 'infrastructure_spaces = 0', 1), 'unique_setup.toml, card us_1, field "red.infrastructure_spaces"'),
    (TWO.replace('stands = { 2 = 0 }', 'after_result = { win = [{ op = "gain", resource = "budget", amount = 1, when = { test = "roll", die = "d6", at_least = 4 } }] }', 1),
     'unique_setup.toml, card us_1, field "red.after_result.win": effects after a match cannot wait for a die'),
    (TWO.replace('stands = { 2 = 0 }', 'office = [{ cost = 3 }]', 1), 'unique_setup.toml, card us_1, field "red.office[1].vp": missing'),
    (TWO.replace('stands = { 2 = 0 }', 'match_consequences = { win = [[], []] }', 1),
     'unique_setup.toml, card us_1, field "red.match_consequences.win": expected six lists of effects'),
    (CARD, 'unique_setup.toml, field "card": expected at least two Unique Setup cards'),
])
def test_bad_unique_setup_data_is_refused_on_load_naming_the_file_the_card_and_the_field(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "profile.toml").write_text('name = "Unique test"\ninherit = "demo"\n')
    (tmp_path / "unique_setup.toml").write_text(text)
    clear_cache()
    with pytest.raises(DataError) as info:
        engine.load_profile(tmp_path)
    assert str(info.value).startswith(message)


def test_a_unique_setup_game_replays_and_survives_json() -> None:
    profile, state = _tuesday({1: ("us_8", "us_1"), 2: ("us_2", "us_3")})
    again = State.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state and isinstance(again.slice("unique_setup"), U.Placed)


def test_a_club_the_deck_has_no_two_cards_for_is_refused_when_it_joins_not_left_waiting(tmp_path: Path) -> None:
    # 003 l.191: "each player draws 2 random Unique Setup cards": an owner's deck of five cards serves two clubs; a
    # third joining is refused with what to do, rather than the setup waiting for cards nobody can draw
    demo_text = (Path(engine.__file__).parent / "data" / "demo" / "unique_setup.toml").read_text(encoding="utf-8")
    blocks = demo_text.split("[[card]]")
    (tmp_path / "profile.toml").write_text('name = "Small deck"\ninherit = "demo"\n')
    (tmp_path / "unique_setup.toml").write_text("[[card]]".join(blocks[:6]), encoding="utf-8")
    clear_cache()
    try:
        profile = engine.load_profile(tmp_path)
    finally:
        clear_cache()
    assert len(U.cards_of(profile)) == 5
    game = {"type": "game", "modules": ["unique_setup"], "revision": engine.REVISION}
    two = run(profile, [game, {"type": "club", "seat": 1}, {"type": "club", "seat": 2}])
    why = refused(profile, two, {"type": "club", "seat": 3, "name": "Blues"}, E.NotAllowed)
    assert why == U.SHORT_DECK.format(profile=profile.name, cards=5, clubs=3, need=6)
    assert "Add cards to unique_setup.toml" in why
    # a game begun before the check (revision 2) replays as it was recorded
    assert run(profile, [{**game, "revision": 2}, *({"type": "club", "seat": s} for s in (1, 2, 3))]).clubs[2].seat == 3
