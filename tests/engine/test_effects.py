"""Card effects from data during a match, die-dependent effects, and Objectives checked from data at the end."""

from __future__ import annotations

import engine
from engine import errors as E
from engine.cards import Ability, Condition, Effect, Staff
from engine.legal import auto_lineup
from engine.state import Held, evolve

from tests.engine.helpers import at_stage, club, demo, refused, run, set_club, tuesday, with_cards
from tests.engine.test_match_and_round import BASIC, lineup, plain


def _matchday(seats=(1,)):
    profile, state = tuesday(seats=seats)
    return profile, at_stage(profile, state, "matchday")


def test_a_staff_match_ability_with_a_die_condition_waits_for_the_roll() -> None:
    profile, state = _matchday()
    state = set_club(state, 1, staff=club(state, 1).staff + (Held("st_08"),), res=(0, 0, 0, 2))  # Set-piece coach
    state = run(profile, [lineup(1, BASIC)], state)
    state = engine.apply(profile, state, {"type": "use_card", "seat": 1, "card": "st_08"}).state
    assert club(state, 1).res[3] == 0
    assert state.awaiting[0] == {"seat": 1, "need": "roll", "die": "d6", "purpose": "effect", "rerollable": True, "card": "st_08"}
    miss = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 4}).state
    assert club(miss, 1).goals == 0
    hit = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 5}).state
    assert club(hit, 1).goals == 1
    refused(profile, hit, {"type": "use_card", "seat": 1, "card": "st_08"}, E.NotAllowed, "once per round")


def test_a_footballer_ability_is_paid_from_resources_assigned_to_him_before_the_match() -> None:
    profile, state = _matchday()
    state = set_club(state, 1, players=club(state, 1).players + (Held("pl_01", trained=True),), res=(0, 0, 0, 3))
    players = [p for p in BASIC if p["jersey"] != 2] + [{"zone": "def_left", "jersey": 2, "card": "pl_01"}]
    unpaid = run(profile, [lineup(1, players)], state)
    refused(profile, unpaid, {"type": "use_card", "seat": 1, "card": "pl_01"}, E.NotEnoughResources, "assigned to the card")
    paid = run(profile, [{**lineup(1, players), "assign": {"pl_01": {"fitness": 1}}}], state)
    assert club(paid, 1).res[3] == 3 - 2
    after = engine.apply(profile, paid, {"type": "use_card", "seat": 1, "card": "pl_01"}).state
    assert club(after, 1).held("pl_01").assigned == (0, 0, 0, 0)
    assert club(after, 1).opp_mods == (("fwd", "attack", -1),)


def test_ten_must_play_so_numbers_of_injured_cards_are_replaced_by_blank_markers() -> None:
    profile, state = _matchday()
    hurt = tuple(Held(p.id, injury=3) for p in profile.cards_of("player") if p.untrained.jersey in (2, 3, 4, 5, 6))
    state = set_club(state, 1, players=club(state, 1).players + hurt)
    vet_young = {profile.cards[h.id].untrained.jersey for h in club(state, 1).players[:2]}
    numbers = [n for n in range(7, 12) if n not in vet_young]
    used = [plain(z, n, "attack" if z.startswith("fwd") else "defence") for z, n in zip(("fwd_centre", "fwd_left", "mid_centre", "mid_left", "mid_right"), numbers)]
    blanks = [plain(z, None) for z in ("def_centre", "def_centre", "def_centre", "def_left", "def_right", "mid_centre", "mid_centre")][: 10 - len(used)]
    engine.apply(profile, state, lineup(1, used + blanks))


def _last_week(objective: str, **changes):
    profile, state = _matchday(seats=(1,))
    state = set_club(state, 1, objective=objective, opponents=club(state, 1).opponents[:1], **changes)
    return profile, evolve(state, weeks=1)


def test_objectives_written_as_data_are_checked_at_the_end() -> None:
    for stands, result in ((2, "perfect"), (1, "fulfilled"), (0, "missed")):
        profile, state = _last_week("obj_04", infrastructure=("stands",) * stands)  # Full house: 1 Stand, perfect 2
        state = at_stage(profile, state, "over")
        assert club(state, 1).objective_result == result
        assert engine.view(profile, state)["final"][0]["objective"] == {"perfect": 4, "fulfilled": 2, "missed": 0}[result]


def test_an_objective_in_words_is_asked_of_the_table() -> None:
    sponsors = tuple(s.id for s in demo().cards_of("sponsor")[:3])
    profile, state = _last_week("obj_16", megaphones=sponsors)  # perfect only if the other clubs agree
    state = at_stage(profile, state, "final_scoring")
    assert state.awaiting == ({"seat": 1, "need": "objective_result", "card": "obj_16"},)
    refused(profile, state, {"type": "objective_result", "seat": 1, "result": "great"}, E.BadEvent)
    over = engine.apply(profile, state, {"type": "objective_result", "seat": 1, "result": "perfect"}).state
    assert over.stage == "over" and engine.view(profile, over)["final"][0]["objective"] == 4


def _staff(card_id: str, *effects: Effect, timing: str = "action") -> Staff:
    """A Staff card whose action (or other timing) has the given effects."""
    return Staff(id=card_id, kind="staff", name=f"Test {card_id}", cost=0, profession="Analyst", set="yellow",
                 abilities=(Ability(timing=timing, effects=tuple(effects)),))


def _use(card: Staff, targets: tuple[str, ...] = (), res: tuple[int, int, int, int] = (10, 0, 0, 0)):
    """A one-club game on Tuesday where the club holds the card and uses it."""
    profile, state = tuesday(seats=(1,), profile=with_cards(demo(), card))
    state = set_club(state, 1, staff=club(state, 1).staff + (Held(card.id),), res=res)
    return profile, engine.apply(profile, state, {"type": "use_card", "seat": 1, "card": card.id, "targets": list(targets)})


def test_a_discount_for_the_round_lowers_the_next_hires_in_that_row() -> None:
    profile, step = _use(_staff("st_t_disc", Effect.of("discount", row="players", amount=2, lasting="round")))
    state = evolve(set_club(step.state, 1, acted=False, free_used=0), stage="tuesday", turn=1)
    cost = profile.cards["pl_04"].untrained.cost
    after = engine.apply(profile, state, {"type": "hire_player", "seat": 1, "card": "pl_04"}).state
    assert club(after, 1).res[0] == 10 - (cost - 2)


def test_an_action_that_hires_uses_its_own_discount_and_the_named_card() -> None:
    scout = _staff("st_t_scout", Effect.of("discount", row="players", amount=1, lasting="action"), Effect.of("hire", row="players"))
    profile, step = _use(scout, targets=["pl_04"])
    cost = profile.cards["pl_04"].untrained.cost
    assert club(step.state, 1).held("pl_04") is not None and club(step.state, 1).res[0] == 10 - (cost - 1)


def test_the_demo_marketing_manager_lets_a_club_contract_sponsors_from_the_whole_display_this_round() -> None:
    """The demo deck's st_37 (000 l.524: a Sponsor is taken "from the 3 rightmost", then contracted): its action
    reaches every card of the display until the End of the round, and the club pays its 1 Operation."""
    profile, state = tuesday(seats=(1,))
    manager = profile.cards["st_37"]
    state = set_club(state, 1, staff=club(state, 1).staff + (Held(manager.id),), res=(10, 0, 1, 0))
    step = engine.apply(profile, state, {"type": "use_card", "seat": 1, "card": manager.id})
    said = next(a for a in step.announcements if a["kind"] == "reach")
    assert (said["row"], said["reach"], said["lasting"]) == ("sponsors", profile.board.setup.display_size, "round")
    assert club(step.state, 1).res[2] == 0


def test_injury_prevention_stops_the_next_injury_only() -> None:
    vet = demo().cards_of("veteran")[0]
    hit = Effect.of("injure", target="jersey", jersey=vet.untrained.jersey, weeks=2)
    profile, step = _use(_staff("st_t_doc", Effect.of("prevent_injury", count=1, lasting="round"), hit, hit))
    assert [a["kind"] for a in step.announcements if a["kind"].startswith("injur")] == ["injury_prevented", "injury"]
    assert club(step.state, 1).held(vet.id).injury == 2 and club(step.state, 1).mod("prevent_injury:round") == 0


def test_free_rerolls_from_a_card_are_spent_before_fanbase() -> None:
    profile, step = _use(_staff("st_t_luck", Effect.of("reroll_free", count=1, lasting="round")), res=(0, 1, 0, 0))
    state = evolve(set_club(step.state, 1, acted=False, free_used=0, stats=(2, 2, 2, 2)), stage="tuesday", turn=1)
    state = run(profile, [{"type": "potential", "seat": 1, "stat": "fitness"}, {"type": "roll", "seat": 1, "value": 1},
                          {"type": "reroll", "seat": 1, "value": 2}], state)
    assert club(state, 1).res[1] == 1 and club(state, 1).mod("free_rerolls:round") == 0
    state = engine.apply(profile, state, {"type": "reroll", "seat": 1, "value": 6}).state
    assert club(state, 1).res[1] == 0 and club(state, 1).stats[3] == 3


def test_a_free_reroll_for_one_kind_of_roll_does_not_pay_for_another() -> None:
    luck = _staff("st_t_bm", Effect.of("reroll_free", count=1, lasting="round", purpose="board_meeting"))
    profile, step = _use(luck, res=(0, 0, 0, 0))
    state = evolve(set_club(step.state, 1, acted=False, free_used=0, stats=(2, 2, 2, 2)), stage="tuesday", turn=1)
    state = run(profile, [{"type": "potential", "seat": 1, "stat": "fitness"}], state)
    # no Fanbase and the only free reroll is for Board meetings: the Club potential roll takes effect at once
    after = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 1}).state
    assert after.awaiting[0]["need"] != "keep_or_reroll" and club(after, 1).stats[3] == 2
    assert club(after, 1).mod("free_rerolls:board_meeting:round") == 1


def test_a_free_reroll_for_board_meetings_pays_a_board_meeting_reroll() -> None:
    luck = _staff("st_t_bm", Effect.of("reroll_free", count=1, lasting="round", purpose="board_meeting"))
    profile, step = _use(luck, res=(0, 0, 0, 0))
    state = evolve(set_club(step.state, 1, board_card=None, board_done=False), stage="monday", turn=0)
    card = profile.cards_of("board_meeting")[0].id
    state = run(profile, [{"type": "board_meeting", "seat": 1, "card": card}, {"type": "roll", "seat": 1, "value": 1}], state)
    assert state.awaiting[0]["need"] == "keep_or_reroll"
    state = engine.apply(profile, state, {"type": "reroll", "seat": 1, "value": 2}).state
    assert club(state, 1).mod("free_rerolls:board_meeting:round") == 0 and club(state, 1).res[1] == 0


def test_a_reach_effect_tells_the_table_how_many_rightmost_cards_it_may_now_take_from() -> None:
    profile, step = _use(_staff("st_t_eye", Effect.of("reach", row="players", extra=2, lasting="round")))
    said = next(a for a in step.announcements if a["kind"] == "reach")
    rightmost = profile.board.setup.reach
    assert said["reach"] == rightmost + 2
    assert said["text"] == (f"Seat 1 may hire from the {rightmost + 2} rightmost cards of the Players row instead of the "
                            f"{rightmost} rightmost, until the End of the round: take the card and name it in the hire.")


def test_a_suspended_director_cannot_act_until_matchdays_have_shed_its_token() -> None:
    """Rulebook, Suspension of other cards and tokens: no actions or features while a token lies on it."""
    ban = _staff("st_t_ban", Effect.of("suspend", target="chosen_card", tokens=1))
    profile, state = tuesday(seats=(1,), profile=with_cards(demo(), ban))
    state = set_club(state, 1, staff=club(state, 1).staff + (Held(ban.id),), directors=("dir_12",) + club(state, 1).directors[1:], res=(0, 0, 9, 0))
    state = engine.apply(profile, state, {"type": "use_card", "seat": 1, "card": ban.id, "targets": ["dir_12"]}).state
    state = evolve(set_club(state, 1, acted=False, free_used=0), stage="tuesday", turn=1)
    assert club(state, 1).suspension_on("dir_12") == 1
    refused(profile, state, {"type": "use_card", "seat": 1, "card": "dir_12"}, E.NotAllowed, "injured or suspended")
    assert next(d for d in engine.view(profile, state)["clubs"][0]["directors"] if d["id"] == "dir_12")["suspension"] == 1
    matchday = at_stage(profile, state, "matchday")
    assert club(matchday, 1).suspension_on("dir_12") == 1  # l.632: the token goes at step 4, after the lineup
    lined_up = engine.apply(profile, matchday, auto_lineup(profile, club(matchday, 1))).state
    assert club(lined_up, 1).suspension_on("dir_12") == 0 and "dir_12" in club(lined_up, 1).exhausted


def test_a_suspended_stands_token_lends_no_stands_and_the_table_can_record_it() -> None:
    profile, state = _matchday()
    state = set_club(state, 1, infrastructure=("stands",), res=(0, 9, 0, 9))
    stands = profile.board.board_stands + 1
    state = engine.apply(profile, state, {"type": "adjust", "seat": 1, "what": "suspension", "delta": 2, "card": "stands", "reason": "card effect"}).state
    refused(profile, state, {**lineup(1, BASIC), "stands": stands}, E.NotAllowed, f"has {stands - 1} Stands")
    engine.apply(profile, state, {**lineup(1, BASIC), "stands": stands - 1})
    refused(profile, state, {"type": "adjust", "seat": 1, "what": "suspension", "delta": -3, "card": "stands"}, E.NotAllowed, "cannot go below 0")


def test_a_die_condition_on_an_infrastructure_token_asks_for_its_roll_on_monday() -> None:
    from dataclasses import replace

    lucky = Ability(timing="monday", optional=False, effects=(Effect.of("gain", resource="budget", amount=2, when=(Condition.of("roll", die="d6", at_least=5),)),))
    base = demo()
    kinds = tuple(replace(k, abilities=(lucky,)) if k.id == "lighting" else k for k in base.board.infrastructure)
    profile = replace(base, board=replace(base.board, infrastructure=kinds))
    profile, state = tuesday(seats=(1,), profile=profile)
    state = set_club(state, 1, infrastructure=("lighting",))
    monday = at_stage(profile, state, "monday")
    assert monday.awaiting[0] == {"seat": 1, "need": "roll", "die": "d6", "purpose": "effect", "rerollable": True, "card": "lighting"}
    budget = club(monday, 1).res[0]
    for value, gained in ((6, 2), (4, 0)):
        # the club has Fanbase from Production, so it is first asked whether to keep the result
        kept = run(profile, [{"type": "roll", "seat": 1, "value": value}, {"type": "keep", "seat": 1}], monday)
        assert club(kept, 1).res[0] == budget + gained
