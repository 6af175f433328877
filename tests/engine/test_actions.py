"""The Tuesday–Thursday actions."""

from __future__ import annotations


import engine
from engine import errors as E
from engine.cards import Ability, Effect, Staff
from engine.state import Held, evolve
from engine.views import view

from tests.engine.helpers import at_stage, club, demo, refused, run, set_club, tuesday, with_cards


def test_hiring_a_player_costs_the_printed_price_and_the_card_can_only_be_hired_once() -> None:
    profile, state = tuesday(seats=(1, 2))
    card = profile.cards["pl_03"]
    state = set_club(state, 1, res=(card.untrained.cost, 0, 0, 0))
    step = engine.apply(profile, state, {"type": "hire_player", "seat": 1, "card": "pl_03"})
    assert club(step.state, 1).res[0] == 0
    assert club(step.state, 1).held("pl_03") is not None
    assert step.announcements[0]["kind"] == "hire" and step.announcements[0]["cost"] == card.untrained.cost
    refused(profile, step.state, {"type": "hire_player", "seat": 2, "card": "pl_03"}, E.NotAllowed, "already belongs to Seat 1")


def test_hiring_without_enough_budget_is_refused_with_what_it_costs() -> None:
    profile, state = tuesday(seats=(1,))
    state = set_club(state, 1, res=(2, 0, 0, 0))
    text = refused(profile, state, {"type": "hire_player", "seat": 1, "card": "pl_04"}, E.NotEnoughResources)
    assert text == "Seat 1 cannot hire Test pl_04: it costs 4 Budget and the club has 2 Budget.".replace("Test pl_04", profile.cards["pl_04"].name)


def test_a_youngster_cannot_be_hired_when_the_deck_is_empty() -> None:
    profile, state = tuesday(seats=(1, 2))
    youngsters = [y.id for y in profile.cards_of("youngster")]
    owned_elsewhere = {h.id for h in club(state, 1).players}
    rest = tuple(Held(y) for y in youngsters if y not in owned_elsewhere)
    state = set_club(state, 2, players=club(state, 2).players + tuple(h for h in rest if club(state, 2).held(h.id) is None))
    state = set_club(state, 1, res=(20, 0, 0, 0))
    refused(profile, state, {"type": "hire_youngster", "seat": 1, "card": youngsters[0]}, E.NotAllowed)
    free = [y for y in youngsters if all(c.held(y) is None for c in state.clubs)]
    assert free == []


def test_selling_gives_five_euros_and_the_vp_tokens_and_half_when_injured() -> None:
    profile, state = tuesday(seats=(1,))
    vet = club(state, 1).players[0]
    refused(profile, state, {"type": "sell", "seat": 1, "card": vet.id}, E.NotAllowed, "not trained")
    fit = set_club(state, 1, res=(0, 0, 0, 0), vp_tokens=0, players=(vet.__class__(vet.id, trained=True, vp=3),) + club(state, 1).players[1:])
    after = engine.apply(profile, fit, {"type": "sell", "seat": 1, "card": vet.id}).state
    assert (club(after, 1).res[0], club(after, 1).vp_tokens) == (5, 3)
    assert club(after, 1).held(vet.id) is None
    hurt = set_club(fit, 1, players=(vet.__class__(vet.id, trained=True, vp=3, injury=1),) + club(state, 1).players[1:])
    after = engine.apply(profile, hurt, {"type": "sell", "seat": 1, "card": vet.id}).state
    assert (club(after, 1).res[0], club(after, 1).vp_tokens) == (2, 1)


def test_a_sold_youngster_goes_back_to_the_deck() -> None:
    profile, state = tuesday(seats=(1, 2))
    young = club(state, 1).players[1]
    state = set_club(state, 1, players=(club(state, 1).players[0], Held(young.id, trained=True)))
    state = engine.apply(profile, state, {"type": "sell", "seat": 1, "card": young.id}).state
    state = set_club(state, 2, res=(20, 0, 0, 0))
    state = engine.apply(profile, state, {"type": "hire_youngster", "seat": 2, "card": young.id}).state
    assert club(state, 2).held(young.id) is not None


def test_hiring_staff_pays_the_cost_and_applies_the_immediate_bonus() -> None:
    profile, state = tuesday(seats=(1,))
    staff = profile.cards["st_07"]  # bonus: Fitness Stat +1
    state = set_club(state, 1, res=(staff.cost, 0, 0, 0))
    before = club(state, 1).stats[3]
    after = engine.apply(profile, state, {"type": "hire_staff", "seat": 1, "card": "st_07"}).state
    assert club(after, 1).res[0] == 0 and club(after, 1).stats[3] == before + 1
    assert view(profile, after)["clubs"][0]["maintenance"]["staff"] == profile.board.maintenance_due("staff", 2)


def my_turn(state, seat: int = 1, **changes):
    """Seat's turn again on a Tuesday, with some club fields set (to take several actions in one test)."""
    return evolve(set_club(state, seat, acted=False, free_used=0, **changes), stage="tuesday", turn=seat)


def _sponsor_turns(profile, state, contracts):
    for card, contract in contracts:
        state = my_turn(state, res=(0, 0, 0, 0))
        state = engine.apply(profile, state, {"type": "sponsor", "seat": 1, "card": card, "contract": contract}).state
    return state


def test_one_shirt_two_adboards_and_a_third_with_the_additional_adboard_megaphones_unlimited() -> None:
    profile, state = tuesday(seats=(1,))
    sponsors = [s.id for s in profile.cards_of("sponsor")]
    state = _sponsor_turns(profile, state, [(sponsors[0], "shirt"), (sponsors[1], "adboard"), (sponsors[2], "adboard")])
    state = my_turn(state)
    refused(profile, state, {"type": "sponsor", "seat": 1, "card": sponsors[3], "contract": "shirt"}, E.NotAllowed, "1 shirt sponsor")
    refused(profile, state, {"type": "sponsor", "seat": 1, "card": sponsors[3], "contract": "adboard"}, E.NotAllowed, "2 adboard sponsor")
    state = _sponsor_turns(profile, state, [(s, "megaphone") for s in sponsors[4:9]])
    assert len(club(state, 1).megaphones) == 5
    state = set_club(state, 1, infrastructure=("adboard",))
    state = _sponsor_turns(profile, state, [(sponsors[3], "adboard")])
    assert len(club(state, 1).adboards) == 3


def test_a_sponsor_contract_resolves_the_chosen_section() -> None:
    profile, state = tuesday(seats=(1,))
    state = set_club(state, 1, res=(0, 0, 0, 0))
    after = engine.apply(profile, state, {"type": "sponsor", "seat": 1, "card": "sp_01", "contract": "megaphone"}).state
    assert club(after, 1).res[0] == 3  # Bramley Bakery as a megaphone: +3 €
    shirt = engine.apply(profile, state, {"type": "sponsor", "seat": 1, "card": "sp_01", "contract": "shirt"}).state
    assert club(shirt, 1).stats[0] == club(state, 1).stats[0] + 1 and club(shirt, 1).res[1] == 1  # Stat +1 and the bonus


def test_an_adboard_gives_either_its_bonus_now_or_its_adboard_effects_every_monday() -> None:
    profile, state = tuesday(seats=(1,))
    state = set_club(state, 1, res=(0, 0, 0, 0))
    effects = engine.apply(profile, state, {"type": "sponsor", "seat": 1, "card": "sp_01", "contract": "adboard"}).state
    bonus = engine.apply(profile, state, {"type": "sponsor", "seat": 1, "card": "sp_01", "contract": "adboard", "bonus": True}).state
    assert club(effects, 1).res[1] == 0 and club(bonus, 1).res[1] == 1  # Bramley Bakery's bonus: +1 Fanbase now
    # from here both clubs hold the same markers, so the rest of the week plays out alike
    bonus = set_club(bonus, 1, res=club(effects, 1).res)
    mondays = [at_stage(profile, s, "monday") for s in (effects, bonus)]
    assert club(mondays[0], 1).res[0] - club(mondays[1], 1).res[0] == 1  # the adboard's +1 € on Monday


def test_infrastructure_costs_three_one_of_each_kind_but_two_stands() -> None:
    profile, state = tuesday(seats=(1,))
    for kind, ok in (("stands", True), ("stands", True), ("stands", False)):
        state = my_turn(state, res=(3, 0, 0, 0))
        if ok:
            state = engine.apply(profile, state, {"type": "build", "seat": 1, "kind": kind}).state
            assert club(state, 1).res[0] == 0
        else:
            refused(profile, state, {"type": "build", "seat": 1, "kind": kind}, E.NotAllowed, "may build 2")
    state = my_turn(state, res=(3, 0, 0, 0))
    state = engine.apply(profile, state, {"type": "build", "seat": 1, "kind": "lighting"}).state
    state = my_turn(state, res=(3, 0, 0, 0))
    refused(profile, state, {"type": "build", "seat": 1, "kind": "lighting"}, E.NotAllowed, "may build 1")
    state = my_turn(state, res=(2, 0, 0, 0))
    refused(profile, state, {"type": "build", "seat": 1, "kind": "merchandise"}, E.NotEnoughResources)
    refused(profile, state, {"type": "build", "seat": 1, "kind": "moat"}, E.NotAllowed, "There is no Stadium Infrastructure")


def test_the_office_track_costs_the_space_above_and_stops_at_the_top() -> None:
    profile, state = tuesday(seats=(1,))
    track = profile.board.office
    for space in track:
        state = my_turn(state, res=(space.cost, 0, 0, 0))
        state = engine.apply(profile, state, {"type": "office", "seat": 1}).state
        assert club(state, 1).res[0] == 0
    assert club(state, 1).office == len(track)
    state = my_turn(state, res=(99, 0, 0, 0))
    refused(profile, state, {"type": "office", "seat": 1}, E.NotAllowed, "top space")


def test_club_potential_rises_only_on_a_roll_higher_than_the_level_and_never_for_the_forbidden_stat() -> None:
    profile, state = tuesday(seats=(1, 2))
    forbidden = profile.board.potential_forbidden
    refused(profile, state, {"type": "potential", "seat": 1, "stat": forbidden}, E.NotAllowed, "cannot be raised")
    state = set_club(state, 1, res=(0, 0, 0, 0), stats=(2, 2, 3, 2))
    asked = engine.apply(profile, state, {"type": "potential", "seat": 1, "stat": "operation"}).state
    assert asked.awaiting[0] == {"seat": 1, "need": "roll", "die": "d6", "purpose": "potential", "rerollable": True, "stat": "operation"}
    refused(profile, asked, {"type": "pass", "seat": 1}, E.NotAllowed, "finish its potential roll")
    same = engine.apply(profile, asked, {"type": "roll", "seat": 1, "value": 3}).state
    assert club(same, 1).stats[2] == 3 and same.turn == 2
    up = engine.apply(profile, asked, {"type": "roll", "seat": 1, "value": 4}).state
    assert club(up, 1).stats[2] == 4


def test_a_fanbase_reroll_costs_one_fanbase_and_replaces_the_result() -> None:
    profile, state = tuesday(seats=(1,))
    state = set_club(state, 1, res=(0, 2, 0, 0), stats=(2, 2, 3, 2))
    state = run(profile, [{"type": "potential", "seat": 1, "stat": "operation"}, {"type": "roll", "seat": 1, "value": 2}], state)
    assert state.awaiting[0]["need"] == "keep_or_reroll" and club(state, 1).stats[2] == 3
    state = engine.apply(profile, state, {"type": "reroll", "seat": 1, "value": 5}).state
    assert club(state, 1).res[1] == 1 and state.awaiting[0]["value"] == 5
    state = engine.apply(profile, state, {"type": "keep", "seat": 1}).state
    assert club(state, 1).stats[2] == 4


def test_a_card_action_applies_its_effects_on_the_chosen_card() -> None:
    coach = Staff(id="st_test_coach", kind="staff", name="Test Coach", cost=1, profession="Coach", set="blue",
                  abilities=(Ability(timing="action", effects=(Effect.of("train", target="chosen_player"),)),))
    profile = with_cards(demo(), coach)
    profile, state = tuesday(seats=(1,), profile=profile)
    young = club(state, 1).players[1].id
    state = set_club(state, 1, staff=club(state, 1).staff + (Held(coach.id),))
    after = engine.apply(profile, state, {"type": "use_card", "seat": 1, "card": coach.id, "targets": [young]}).state
    assert club(after, 1).held(young).trained
    refused(profile, state, {"type": "use_card", "seat": 1, "card": "st_99"}, E.NotAllowed, "does not have")


def test_a_text_effect_is_announced_for_the_table_and_recorded_with_an_adjust_event() -> None:
    odd = Staff(id="st_test_odd", kind="staff", name="Test Agent", cost=0, profession="Agent", set="purple",
                bonus=(Effect.of("text", text="Swap a footballer with another club."),))
    profile = with_cards(demo(), odd)
    profile, state = tuesday(seats=(1,), profile=profile)
    step = engine.apply(profile, state, {"type": "hire_staff", "seat": 1, "card": odd.id})
    ask = next(a for a in step.announcements if a["kind"] == "table_resolves")
    assert "Swap a footballer with another club." in ask["text"]
    fixed = engine.apply(profile, step.state, {"type": "adjust", "seat": 1, "what": "vp_tokens", "delta": 1, "reason": "Test Agent"})
    assert club(fixed.state, 1).vp_tokens == club(step.state, 1).vp_tokens + 1
    refused(profile, step.state, {"type": "adjust", "seat": 1, "what": "budget", "delta": -999}, E.NotAllowed, "cannot go below 0")


def test_maintenance_tracks_follow_the_counts_of_players_staff_and_infrastructure() -> None:
    profile, state = tuesday(seats=(1,))
    extra = tuple(Held(p.id) for p in profile.cards_of("player")[:6])
    state = set_club(state, 1, players=club(state, 1).players + extra, infrastructure=("stands", "lighting", "adboard", "merchandise"))
    shown = view(profile, state)["clubs"][0]["maintenance"]
    assert shown["players"] == profile.board.maintenance_due("players", 8)
    assert shown["infrastructure"] == profile.board.maintenance_due("infrastructure", 4)
    assert shown["total"] == shown["players"] + shown["staff"] + shown["infrastructure"]



