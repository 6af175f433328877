"""The Referee rules (003 l.60–98) checked against the leaflet by hand-computed matches: Seat 1 fields footballers
of known Strength and tags against an Opponent card of known zones, so every goal, token and € the referee's call
changes is counted by hand.  The cells are read as engine/RULES.md ("Referee") writes them."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

import pytest

import engine
from engine import errors as E
from engine.cards import ZONES, PlayerCard
from engine.legal import setup_events
from engine.state import Held, State

from tests.engine.helpers import at_stage, club, demo, footballer, opponent, refused, run, set_club, with_cards

GAME = {"type": "game", "modules": ["referee"], "revision": engine.REVISION}
# The referees by their d6 face (003 l.68, l.84) and a d12 face for each group of tags (l.69–80)
UNJUST, METICULOUS, INEXPERIENCED, FRIENDLY, GOAL_EAGER, PERFECTIONIST = 1, 2, 3, 4, 5, 6
NBL_STR_SUP, HAR_HOT_GLA, QUI_PER_SWI = 1, 2, 4  # l.69, l.70, l.72
STR_HOT_FAS, SWI_HEA_PEN = 8, 12  # l.76, l.80
# Every League result's points (demo board): a win 3, a draw 1, a loss 0
WIN, DRAW, LOSS = 3, 1, 0


def _card(card_id: str, jersey: int, strength: int, tags: tuple[str, ...], trained_tags: tuple[str, ...] | None = None,
          experience: tuple[str, ...] = ()) -> PlayerCard:
    card = footballer(card_id, jersey, "attack", strength)
    return replace(card, untrained=replace(card.untrained, tags=tags, experience=experience),
                   trained=replace(card.trained, tags=tags if trained_tags is None else trained_tags))


def _wall(card_id: str, defence: int, attackers: str = "") -> Any:
    """An Opponent card of Downtown with four defenders of that Strength in every zone (and attackers facing Seat 1's
    central defence)."""
    zones = {z: " ".join([f"D{defence}"] * 4) for z in ZONES}
    zones["fwd_centre"] += f" {attackers}" if attackers else ""
    return opponent(card_id, "downtown", zones)


# Where each test footballer plays: a forward zone each (facing four defenders), the Youngster in midfield
ZONE = {"pl_08": "def_centre", "pl_13": "mid_centre", "pl_str": "fwd_centre", "pl_hot": "fwd_left", "pl_str2": "fwd_right", "yg_swi": "mid_left", "pl_flip": "mid_right"}


@lru_cache(maxsize=1)
def _profile() -> Any:
    return with_cards(
        demo(),
        _card("pl_str", 9, 10, ("STR",)), _card("pl_hot", 10, 10, ("HOT",)), _card("pl_str2", 11, 10, ("STR",)),
        _card("yg_swi", 7, 1, ("SWI",), experience=("played", "played")),
        _card("pl_flip", 8, 10, ("STR",), trained_tags=("HOT",)),
        _wall("opp_wall9", 9), _wall("opp_wall10", 10), _wall("opp_wall9_att", 9, "A9 A9 A9"))


@lru_cache(maxsize=2)
def _matchday(modules: tuple[str, ...] = ("referee",)) -> State:
    profile = _profile()
    game = {**GAME, "modules": list(modules)}
    return at_stage(profile, run(profile, setup_events(profile, [1, 2], game=game)), "matchday")


def _lined(fielded: list[str], opp: str = "opp_wall9", bench: tuple[str, ...] = (), fanbase: int = 0,
           trained: tuple[str, ...] = (), assign: dict[str, Any] | None = None, tactics: tuple[str, ...] = (),
           modules: tuple[str, ...] = ("referee",)) -> State:
    """Seat 1 lined up with these footballers in their zones (the other jerseys plain markers), ``bench`` held but not
    assigned, against that Opponent card: the state awaiting the referee's d6."""
    profile = _profile()
    state = _matchday(modules)
    players = tuple(Held(c, trained=c in trained) for c in [*fielded, *bench])
    state = set_club(state, 1, players=players, opponents=(opp,) + club(state, 1).opponents[1:], res=(5, fanbase, 5, 5),
                     **({"tactics": tactics} if tactics else {}))
    placed = [{"zone": ZONE[c], "jersey": profile.cards[c].untrained.jersey, "card": c, "style": "attack"} for c in fielded]
    lineup = engine.fill_lineup(profile, state, 1, placed)
    lineup["players"] = [{**p, "card": None} if p["card"] in bench else p for p in lineup["players"]]
    if assign:
        lineup["assign"] = assign
    return run(profile, [lineup], state)


def _play(state: State, *events: dict[str, Any] | int) -> tuple[State, list[dict[str, Any]]]:
    """Seat 1's events (a number is a roll), and what they announce."""
    said: list[dict[str, Any]] = []
    for ev in events:
        event = {"type": "roll", "seat": 1, "value": ev} if isinstance(ev, int) else ev
        step = engine.apply(_profile(), state, event)
        said += step.announcements
        state = step.state
    return state, said


KICKOFF = {"type": "kickoff", "seat": 1}


def _held(state: State, card: str) -> Held:
    held = club(state, 1).held(card)
    assert held is not None
    return held


def _downtown(state: State) -> int:
    team = state.team("downtown")
    assert team is not None
    return team.points


# -- the dice (l.64) --------------------------------------------------------------------------------------------


def test_the_referees_dice_take_effect_at_once_without_fanbase_and_a_reroll_is_refused() -> None:
    # 003 l.64: "You may reroll these dice as usual, paying 1 [Fanbase] for each reroll" (000 l.331: "you may spend 1
    # fanbase to reroll it ... as long as you have enough fanbase")
    profile = _profile()
    state = _lined(["pl_str"])
    state, _ = _play(state, UNJUST)
    assert state.awaiting[0]["need"] == "roll" and state.awaiting[0]["die"] == "d12"  # the d6 kept at once
    refused(profile, state, {"type": "reroll", "seat": 1, "value": 3}, E.EngineError)


def test_each_reroll_of_the_referees_dice_costs_one_fanbase_until_there_is_none() -> None:
    # 003 l.64: "paying 1 [Fanbase] for each reroll"; Seat 1 has 1 Fanbase: it rerolls the d6 once, then the d12 is
    # kept as it falls
    state = _lined(["pl_str"], fanbase=1)
    state, _ = _play(state, UNJUST)
    assert state.awaiting[0]["need"] == "keep_or_reroll" and state.awaiting[0]["value"] == UNJUST
    state, _ = _play(state, {"type": "reroll", "seat": 1, "value": METICULOUS})
    assert club(state, 1).res[1] == 0
    assert state.awaiting[0]["need"] == "roll" and state.awaiting[0]["die"] == "d12"  # no Fanbase: kept as it fell
    state, said = _play(state, STR_HOT_FAS)
    assert state.awaiting[0]["need"] != "keep_or_reroll"
    call = next(a for a in said if a["kind"] == "referee")
    assert (call["referee"], call["d6"], call["d12"]) == ("Meticulous", METICULOUS, STR_HOT_FAS)


# The leaflet's rows, d12 faces 1 to 12 (003 l.69–80), and each referee's cell for faces 1–6 and 7–12 (l.68, l.84)
LEAFLET_TAGS = ["NBL/STR/SUP", "HAR/HOT/GLA", "LON/FAS/DIV", "QUI/PER/SWI", "BOD/FAN/HEA", "SPR/SMA/PEN",
                "NBL/HAR/LON", "STR/HOT/FAS", "SUP/GLA/DIV", "QUI/BOD/SPR", "PER/FAN/SMA", "SWI/HEA/PEN"]
LEAFLET_REFEREES = ["Unjust", "Meticulous", "Inexperienced", "Friendly", "Goal eager", "Perfectionist"]


@pytest.mark.parametrize("d12", range(1, 13))
def test_the_d12_names_the_leaflets_row_of_tags_and_the_d6_its_referee(d12: int) -> None:
    # 003 l.64: "resolve the corresponding effect": the row of the d12, the column of the d6
    d6 = (d12 - 1) % 6 + 1
    _, said = _play(_lined(["pl_str"]), d6, d12)
    call = next(a for a in said if a["kind"] == "referee")
    assert "/".join(call["tags"]) == LEAFLET_TAGS[d12 - 1]
    assert call["referee"] == LEAFLET_REFEREES[d6 - 1]


# -- Unjust (l.69–80) -------------------------------------------------------------------------------------------


def test_unjust_suspends_the_one_assigned_footballer_with_the_tag_and_not_one_on_the_bench() -> None:
    # 003 l.69: "AFTER THE MATCH: Place a [Suspension token] on a Player card with any of these tags."  Pl_str (STR) is
    # assigned; pl_str2 (STR too) is the club's but not in the lineup: "the assigned Player cards" (l.64).
    state = _lined(["pl_str", "pl_hot"], bench=("pl_str2",))
    state, _ = _play(state, UNJUST, NBL_STR_SUP, KICKOFF)
    assert (_held(state, "pl_str").suspension, _held(state, "pl_hot").suspension, _held(state, "pl_str2").suspension) \
        == (1, 0, 0)
    assert not any(a["need"] == "referee_suspend" for a in state.awaiting)


def test_unjust_among_two_assigned_footballers_with_the_tag_suspends_the_one_the_club_chooses() -> None:
    # 003 l.69: "a Player card": one, the club's choice (engine/RULES.md); a card on the bench is not one of them
    profile = _profile()
    state = _lined(["pl_str", "pl_str2"], bench=("pl_hot",))
    state, _ = _play(state, UNJUST, NBL_STR_SUP, KICKOFF)
    need = next(a for a in state.awaiting if a["need"] == "referee_suspend")
    assert set(need["cards"]) == {"pl_str", "pl_str2"} and need["tokens"] == 1
    refused(profile, state, {"type": "referee_suspend", "seat": 1, "card": "pl_hot"}, E.NotAllowed,
            "is not an assigned footballer showing NBL/STR/SUP")
    state, _ = _play(state, {"type": "referee_suspend", "seat": 1, "card": "pl_str2"})
    assert (_held(state, "pl_str").suspension, _held(state, "pl_str2").suspension) == (0, 1)
    refused(profile, state, {"type": "referee_suspend", "seat": 1, "card": "pl_str"}, E.NotAllowed, "waits for no choice")


def test_a_footballer_shows_the_tags_of_his_side_facing_up() -> None:
    # 003 l.64: the effect falls "on the assigned Player cards" with the tags; pl_flip prints STR on its untrained
    # side only: trained, he shows HOT and Unjust watching NBL/STR/SUP leaves him alone
    state = _lined(["pl_flip"], trained=("pl_flip",))
    state, said = _play(state, UNJUST, NBL_STR_SUP, KICKOFF)
    assert _held(state, "pl_flip").suspension == 0
    assert any(a["kind"] == "no_effect" and "no assigned footballer has NBL/STR/SUP" in a["text"] for a in said)
    state = _lined(["pl_flip"])
    state, _ = _play(state, UNJUST, NBL_STR_SUP, KICKOFF)
    assert _held(state, "pl_flip").suspension == 1


def test_unjust_rolls_a_die_for_each_footballer_with_the_tags_and_each_six_is_a_goal_against() -> None:
    # 003 l.75–76: "AFTER THE MATCH: Roll a six-sided die for each Player card with any of these tags. 6: your
    # Opponent scores."  Watching STR/HOT/FAS: pl_str and pl_hot (one die each), not pl_str2 on the bench.  Both
    # Strength 10 against Strength 9 walls: 2–0, a win (3 League points).
    state = _lined(["pl_str", "pl_hot"], bench=("pl_str2",))
    state, said = _play(state, UNJUST, STR_HOT_FAS, KICKOFF)
    assert (club(state, 1).goals, club(state, 1).conceded, club(state, 1).points) == (2, 0, WIN)
    fouls = [a for a in state.awaiting if a.get("purpose") == "referee_foul"]
    assert len(fouls) == 2
    downtown = _downtown(state)
    # a 6 and a 5: one goal against, 2–1, still a win
    one, _ = _play(state, 6, 5)
    assert (club(one, 1).goals, club(one, 1).conceded, club(one, 1).result, club(one, 1).points) == (2, 1, "win", WIN)
    assert _downtown(one) == downtown
    # two 6s: 2–2, a draw: Seat 1 keeps 1 League point instead of 3, and Downtown gains the draw's 1
    two, said = _play(state, 6, 6)
    assert (club(two, 1).goals, club(two, 1).conceded, club(two, 1).result, club(two, 1).points) == (2, 2, "draw", DRAW)
    assert _downtown(two) == downtown + DRAW
    assert sum(a["kind"] == "referee_goal" for a in said) == 2


# -- Meticulous and Friendly: before the match (l.69–96) ------------------------------------------------------------


def test_meticulous_weakens_each_assigned_footballer_with_the_tags_before_the_match() -> None:
    # 003 l.75: "BEFORE THE MATCH: Place a [-1 Strength token] on each Player card with any of these tags" (read as
    # RULES.md writes it).  Strength 10 - 1 = 9 is no longer more than the walls' 9: both are blocked, 0–0.
    state = _lined(["pl_str", "pl_hot"], bench=("pl_str2",))
    state, _ = _play(state, METICULOUS, STR_HOT_FAS)
    # before the match: the tokens lie on them before the kick-off, not on the bench
    assert (_held(state, "pl_str").strength_temp, _held(state, "pl_hot").strength_temp,
            _held(state, "pl_str2").strength_temp) == (-1, -1, 0)
    state, _ = _play(state, KICKOFF)
    assert (club(state, 1).goals, club(state, 1).conceded, club(state, 1).result) == (0, 0, "draw")


def test_meticulous_on_a_tag_nobody_shows_changes_nothing() -> None:
    # the same match watching NBL/STR/SUP with only pl_hot assigned: 1–0 as the Strengths are printed
    state = _lined(["pl_hot"], bench=("pl_str",))
    state, _ = _play(state, METICULOUS, NBL_STR_SUP + 6, KICKOFF)  # d12 7: NBL/HAR/LON
    assert (club(state, 1).goals, _held(state, "pl_hot").strength_temp) == (1, 0)


def test_friendly_strengthens_each_assigned_footballer_with_the_tags_for_this_match_only() -> None:
    # 003 l.85: Friendly, "BEFORE THE MATCH: Place a [+1 Strength token] on each Player card with any of these tags".
    # Against walls of 10, Strength 10 is blocked; pl_str and pl_str2 with +1 (11) score, pl_hot (HOT) does not: 2–0.
    state = _lined(["pl_str", "pl_str2", "pl_hot"], opp="opp_wall10")
    state, _ = _play(state, FRIENDLY, NBL_STR_SUP, KICKOFF)
    assert (club(state, 1).goals, club(state, 1).conceded) == (2, 0)
    # the tokens are temporary: gone at the End of the round, and next week's match rolls a new referee
    profile = _profile()
    later = state
    for _ in range(200):
        if later.week == 2:
            break
        options = engine.legal_events(profile, later)
        pick = next((o for o in options if o["type"] in ("pass", "keep", "referee_suspend")), None) or \
            next((o for o in options if o["type"] == "roll"), options[0])
        later = engine.apply(profile, later, pick).state
    assert later.week == 2
    assert all(h.strength_temp == 0 for h in club(later, 1).players)
    assert engine.view(profile, later)["modules"]["referee"] == {}


# -- Inexperienced (l.69–96) ------------------------------------------------------------------------------------


def test_inexperienced_turns_the_match_consequences_injury_into_a_suspension_for_any_footballer() -> None:
    # 003 l.69: Inexperienced, "AFTER THE MATCH: If you have a Player with any of these tags, place a [Suspension
    # token] instead of a [Injury token] when resolving Match Consequences."  2–0, a win: the Match consequence's 1 is
    # "injure" (demo board); the d10 names number 10 (its face 9, RULES.md "The injury d10"), pl_hot: he has no STR, but the club has pl_str, so pl_hot
    # takes a Suspension token, no Injury token.
    state = _lined(["pl_str", "pl_hot"])
    state, _ = _play(state, INEXPERIENCED, NBL_STR_SUP, KICKOFF, 1, 9)
    assert (_held(state, "pl_hot").injury, _held(state, "pl_hot").suspension) == (0, 1)
    # watching a tag nobody shows (QUI/PER/SWI), the same dice injure him
    state = _lined(["pl_str", "pl_hot"])
    state, _ = _play(state, INEXPERIENCED, QUI_PER_SWI, KICKOFF, 1, 9)
    assert (_held(state, "pl_hot").injury, _held(state, "pl_hot").suspension) == (1, 0)


def test_inexperienced_keeps_youngsters_with_the_tags_from_their_experience_spaces() -> None:
    # 003 l.91: "AFTER THE MATCH: Don't place a [marker] on Experience spaces of your Youngsters with any of these
    # tags."  Yg_swi (SWI) plays; his card has "played" experience spaces.
    state = _lined(["pl_str", "yg_swi"])
    watched, _ = _play(state, INEXPERIENCED, SWI_HEA_PEN, KICKOFF)
    other, _ = _play(state, INEXPERIENCED, STR_HOT_FAS, KICKOFF)  # watching STR: pl_str is no Youngster
    assert _held(other, "yg_swi").experience == 1
    assert _held(watched, "yg_swi").experience == 0


# -- Goal eager (l.85–96) -----------------------------------------------------------------------------------------


def test_goal_eager_pays_one_euro_for_each_footballer_with_the_tags_who_scored() -> None:
    # 003 l.85: "AFTER THE MATCH: If a Player with any of these tags scores, gain [1 €]."  Pl_str and pl_str2 (STR)
    # and pl_hot score against the walls of 9: two scorers with STR, 2 € more than under Perfectionist's same face.
    state = _lined(["pl_str", "pl_str2", "pl_hot"])
    eager, _ = _play(state, GOAL_EAGER, NBL_STR_SUP, KICKOFF)
    calm, _ = _play(state, PERFECTIONIST, NBL_STR_SUP, KICKOFF)
    assert club(calm, 1).goals == club(eager, 1).goals == 3
    assert club(eager, 1).res[0] - club(calm, 1).res[0] == 2


def test_goal_eager_lets_each_scorer_with_the_tags_score_again_and_the_result_follows() -> None:
    # 003 l.91: "AFTER THE MATCH: If a Player with any of these tags scores, score again."  Pl_str and pl_hot score,
    # three A9 Opponents beat Seat 1's three plain central defenders: 2–3, a loss.  Watching STR/HOT/FAS both score
    # again: 4–3, a win: 3 League points, and Downtown's 3 for beating Seat 1 are taken back.
    state = _lined(["pl_str", "pl_hot"], opp="opp_wall9_att")
    other, _ = _play(state, GOAL_EAGER, SWI_HEA_PEN, KICKOFF)
    assert (club(other, 1).goals, club(other, 1).conceded, club(other, 1).result, club(other, 1).points) == (2, 3, "loss", LOSS)
    downtown_lost = _downtown(other)
    state, _ = _play(state, GOAL_EAGER, STR_HOT_FAS, KICKOFF)
    assert (club(state, 1).goals, club(state, 1).conceded, club(state, 1).result, club(state, 1).points) == (4, 3, "win", WIN)
    assert _downtown(state) == downtown_lost - WIN


# -- "do not use the Referee rules" with Matches between clubs (l.62) --------------------------------------------


def test_the_referee_is_not_played_with_matches_between_clubs() -> None:
    # 003 l.62: "when playing Matches against other players, do not use the Referee rules mode"
    profile = demo()
    problem = engine.game_problem(["referee", "club_matches"], {}, profile)
    assert problem is not None and "Referee" in problem
    refused(profile, engine.initial_state(profile), {"type": "game", "modules": ["referee", "club_matches"]},
            E.EngineError)


# -- the match abilities: Meticulous, Friendly, Perfectionist ----------------------------------------------------
# pl_13 (demo deck), trained, shows HOT and a match ability: 1 Fitness assigned to him, +1 Strength this match.
PL13 = {"trained": ("pl_13",), "assign": {"pl_13": {"fitness": 1}}}
USE_13 = {"type": "use_card", "seat": 1, "card": "pl_13"}


def test_meticulous_ignores_the_abilities_of_assigned_footballers_with_the_tags() -> None:
    # 003 l.70: Meticulous, "BEFORE THE MATCH: Ignore the effects of Player cards with these tags."  HAR/HOT/GLA
    # (d12 2) watches pl_13: his ability is refused; watching NBL/STR/SUP (d12 1) it is his to use.
    profile = _profile()
    watched, _ = _play(_lined(["pl_13"], **PL13), METICULOUS, HAR_HOT_GLA)
    refused(profile, watched, USE_13, E.NotAllowed, "has no action to use")
    other, _ = _play(_lined(["pl_13"], **PL13), METICULOUS, NBL_STR_SUP)
    other, _ = _play(other, USE_13)
    assert (_held(other, "pl_13").strength_temp, _held(other, "pl_13").assigned[3]) == (1, 0)


def test_friendly_lets_assigned_footballers_with_the_tags_use_their_match_abilities_for_free() -> None:
    # 003 l.91: Friendly, "You may resolve the effects of assigned Players with any of these tags for free."
    # STR/HOT/FAS (d12 8) watches pl_13: +1 Strength and his assigned Fitness stays on him; under SWI/HEA/PEN (12)
    # he pays it.
    free, _ = _play(_lined(["pl_13"], **PL13), FRIENDLY, STR_HOT_FAS, USE_13)
    paid, _ = _play(_lined(["pl_13"], **PL13), FRIENDLY, SWI_HEA_PEN, USE_13)
    assert (_held(free, "pl_13").strength_temp, _held(free, "pl_13").assigned[3]) == (1, 1)
    assert (_held(paid, "pl_13").strength_temp, _held(paid, "pl_13").assigned[3]) == (1, 0)


def test_perfectionist_allows_one_more_tactic_card_with_a_footballer_with_the_tags() -> None:
    # 003 l.85: Perfectionist, "If you have a Player with any of these tags, you may play 1 additional Tactic card
    # this Match."  Pl_str (STR) plays; the club holds Midfield diamond (+1 Strength in midfield: its plain markers, 2,
    # are still blocked by the 9s) and Rotation (+2 Fitness).
    profile = _profile()
    both = {"tactics": ("tac_05", "tac_09")}
    state, _ = _play(_lined(["pl_str"], **both), PERFECTIONIST, NBL_STR_SUP)
    fitness = club(state, 1).res[3]
    state, _ = _play(state, {"type": "tactic_played", "seat": 1, "card": "tac_05"},
                     {"type": "tactic_played", "seat": 1, "card": "tac_09"}, KICKOFF)
    assert club(state, 1).res[3] == fitness + 2
    assert (club(state, 1).goals, club(state, 1).conceded) == (1, 0)  # pl_str scores past the 9s
    # nobody showing HAR/HOT/GLA: one Tactic card, as always
    state, _ = _play(_lined(["pl_str"], **both), PERFECTIONIST, HAR_HOT_GLA,
                     {"type": "tactic_played", "seat": 1, "card": "tac_05"})
    refused(profile, state, {"type": "tactic_played", "seat": 1, "card": "tac_09"}, E.NotAllowed,
            "has already played a Tactic card this match")


def test_perfectionists_goalkeeper_cell_is_announced_and_changes_no_goal() -> None:
    # 003 l.91: "If you have Players with any of these tags, they ignore the Opponent's Goalkeepers this Match."  The
    # demo's Opponent cards print no Goalkeeper (RULES.md): pl_str still scores exactly once, 1–0.
    state, said = _play(_lined(["pl_str"]), PERFECTIONIST, STR_HOT_FAS, KICKOFF)
    assert any("ignore the Opponent's Goalkeepers" in a["text"] for a in said)
    assert (club(state, 1).goals, club(state, 1).conceded) == (1, 0)


def test_goal_eager_counts_the_goals_footballers_score_in_their_zones_not_a_cards_goal() -> None:
    # 003 l.85: "If a Player with any of these tags scores, gain [€]"; RULES.md reads "scores" as beating his zone's
    # defence: pl_08 (demo deck, trained, PEN/SMA) spends his 2 assigned Fitness and rolls a 5: a goal before the
    # match, the club's; in defence he meets the walls' 9s and scores none: 1–0, and Goal eager watching SPR/SMA/PEN
    # (d12 6) pays nothing more than Perfectionist's same face.
    use = [{"type": "use_card", "seat": 1, "card": "pl_08"}, 5, KICKOFF]
    kw: dict[str, Any] = {"trained": ("pl_08",), "assign": {"pl_08": {"fitness": 2}}}
    eager, _ = _play(_lined(["pl_08"], **kw), GOAL_EAGER, 6, *use)
    calm, _ = _play(_lined(["pl_08"], **kw), PERFECTIONIST, 6, *use)
    assert (club(eager, 1).goals, club(eager, 1).conceded) == (1, 0)
    assert club(eager, 1).res[0] == club(calm, 1).res[0]


def test_the_referees_goal_after_the_match_is_the_result_the_bets_count() -> None:
    # 003 l.76 ("6: your Opponent scores", after the match) with Betting (l.415: "Check the results of Matches of all
    # players"): Seat 1's 2–0 turns 2–2 on two 6s, and the week's bets count Seat 1's draw (1), not a win (3)
    profile = _profile()
    state = _lined(["pl_str", "pl_hot"], modules=("referee", "betting"))
    state, _ = _play(state, UNJUST, STR_HOT_FAS, KICKOFF, 6, 6)
    assert club(state, 1).result == "draw"
    said: list[dict[str, Any]] = []
    for _ in range(500):
        if state.week == 2:
            break
        options = engine.legal_events(profile, state)
        pick = next((o for o in options if o["type"] in ("pass", "keep")), None) or \
            next((o for o in options if o["type"] == "roll"), options[0])
        step = engine.apply(profile, state, pick)
        said += step.announcements
        state = step.state
    settled = next(a for a in said if a["kind"] == "bet_settled")
    assert settled["results"]["seat:1"] == 1
