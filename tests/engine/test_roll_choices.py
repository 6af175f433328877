"""`engine.uses.use` for a ``roll``, ``keep`` or ``reroll``: which cards the result it brings asks the club to choose
(a Board meeting decision for "a footballer of your choice", the card a ``hire`` effect takes), with the cards that
fit, as the rules answer when the event is tried; the same answer for a card's action that hires.

Rulebook 000 l.385-386: "Each player rolls a 6 sided die and checks the result on their Director cards. [...] Resolve
the effect corresponding to the decision with the most votes."  l.331: "When rolling a die, you may spend 1 fanbase
to reroll it": the decision is known once the result can no longer be rerolled (kept, or no Fanbase to pay).
"""

from __future__ import annotations

import engine
from engine import errors as E
from engine.cards import Ability, Condition, Effect, Profile, Staff
from engine.state import Held, State
from engine.uses import Choice, use

from tests.engine.helpers import club, demo, director, run, set_club, started, tuesday, with_cards

TRAINING_CAMP = "bm_04"
"""Red decision "Book it": lose 2 €, train a footballer of your choice."""
ACADEMY = "bm_35"
"""Blue decision "Hire a youngster": 1 € less for the Youngster hired by the decision."""


def _monday(votes: str, card: str, fanbase: int = 0) -> tuple[Profile, State]:
    """One club on Monday whose three Directors all vote ``votes`` (a letter per d6 face), its Board meeting card
    revealed: the d6 is awaited."""
    board = tuple(director(f"dir_t{i}", votes) for i in range(3))
    profile = with_cards(demo(), *board)
    state = set_club(started(profile, seats=(1,)), 1, directors=tuple(d.id for d in board), res=(9, fanbase, 0, 0))
    state = run(profile, [{"type": "board_meeting", "seat": 1, "card": card}], state)
    assert state.awaiting[0]["need"] == "roll"
    return profile, state


def _footballers(state: State) -> tuple[str, ...]:
    return tuple(h.id for h in club(state, 1).players)


def test_a_board_meeting_decision_for_a_footballer_of_your_choice_asks_for_one_of_the_clubs_footballers() -> None:
    profile, state = _monday("rrrrrr", TRAINING_CAMP)
    roll = {"type": "roll", "seat": 1, "value": 3}
    footballers = _footballers(state)
    assert len(footballers) > 1
    assert use(profile, state, roll).choices == (Choice("chosen_player", footballers),)
    # what was offered is what the engine takes: the decision trains the footballer the roll names
    chosen = footballers[1]
    after = engine.apply(profile, state, {**roll, "targets": [chosen]})
    assert club(after.state, 1).held(chosen).trained
    assert not any(a["kind"] == "table_resolves" for a in after.announcements)


def test_without_the_footballer_named_the_table_is_asked_and_records_it_on_the_page() -> None:
    """The Play page's way stays: a roll without ``targets`` asks the table, and its ``adjust`` trains the card."""
    profile, state = _monday("rrrrrr", TRAINING_CAMP)
    chosen = _footballers(state)[0]
    step = engine.apply(profile, state, {"type": "roll", "seat": 1, "value": 3})
    asked = [a for a in step.announcements if a["kind"] == "table_resolves"]
    assert len(asked) == 1 and "train a footballer of your choice" in asked[0]["text"]
    assert not any(h.trained for h in club(step.state, 1).players if h.id == chosen)
    fixed = engine.apply(profile, step.state, {"type": "adjust", "seat": 1, "what": "trained", "card": chosen, "delta": 1,
                                               "reason": "Book it"})
    assert club(fixed.state, 1).held(chosen).trained


def test_a_roll_held_for_a_reroll_asks_nothing_until_its_result_is_final() -> None:
    profile, state = _monday("rrrrrr", TRAINING_CAMP, fanbase=1)
    roll = {"type": "roll", "seat": 1, "value": 3}
    assert use(profile, state, roll).choices == ()  # held: keep it, or spend the Fanbase to reroll
    held = engine.apply(profile, state, roll).state
    assert held.awaiting[0]["need"] == "keep_or_reroll"
    wanted = (Choice("chosen_player", _footballers(state)),)
    assert use(profile, held, {"type": "keep", "seat": 1}).choices == wanted
    # the last Fanbase pays for the reroll, so its result cannot be rerolled again: it is final
    assert use(profile, held, {"type": "reroll", "seat": 1, "value": 5}).choices == wanted
    richer = set_club(held, 1, res=(9, 3, 0, 0))
    assert use(profile, richer, {"type": "reroll", "seat": 1, "value": 5}).choices == ()


def test_a_decision_that_chooses_nothing_asks_for_nothing() -> None:
    profile, state = _monday("yyyyyy", TRAINING_CAMP)  # "Too expensive": gain 1 Operation
    assert use(profile, state, {"type": "roll", "seat": 1, "value": 2}).choices == ()


def test_a_board_meeting_hire_asks_for_the_youngster_taken_and_hires_it_for_less() -> None:
    profile, state = _monday("bbbbbb", ACADEMY)
    roll = {"type": "roll", "seat": 1, "value": 4}
    (choice,) = use(profile, state, roll).choices
    own = [h.id for h in club(state, 1).players if profile.cards[h.id].kind == "youngster"]
    free = [c.id for c in profile.cards_of("youngster") if c.id not in own]
    assert choice.what == "hire_youngster" and list(choice.cards) == free
    # a Youngster the club holds already is not one the hire takes, and the rules say why
    assert choice.refused[own[0]] == E.CARD_TAKEN.format(name=profile.cards[own[0]].name, seat=1)
    taken = free[0]
    after = engine.apply(profile, state, {**roll, "targets": [taken]}).state
    assert club(after, 1).held(taken) is not None
    assert club(after, 1).res[0] == 9 - (profile.cards[taken].untrained.cost - 1)


def test_a_staff_action_that_hires_asks_for_the_player_taken_among_those_the_club_can_pay() -> None:
    profile, state = tuesday(seats=(1,))
    budget = 3
    state = set_club(state, 1, staff=club(state, 1).staff + (Held("st_25"),), res=(budget, 1, 0, 0))  # hire any Player
    tried = use(profile, state, {"type": "use_card", "seat": 1, "card": "st_25"})
    assert tried.why_not is None
    (choice,) = tried.choices
    players = profile.cards_of("player")
    assert choice.what == "hire_player"
    assert list(choice.cards) == [p.id for p in players if p.untrained.cost <= budget]
    dear = next(p for p in players if p.untrained.cost > budget)
    assert dear.id in choice.refused and dear.id not in choice.cards
    after = engine.apply(profile, state, {"type": "use_card", "seat": 1, "card": "st_25", "targets": [choice.cards[0]]})
    assert club(after.state, 1).held(choice.cards[0]) is not None


def test_a_cards_die_result_asks_for_the_footballer_only_when_the_roll_makes_the_effect_happen() -> None:
    lucky = Staff(id="st_t_dice", kind="staff", name="Test dice", cost=0, profession="Analyst", set="yellow",
                  abilities=(Ability(timing="action", effects=(
                      Effect.of("train", target="chosen_player", when=(Condition.of("roll", at_least=4),)),)),))
    profile, state = tuesday(seats=(1,), profile=with_cards(demo(), lucky))
    state = set_club(state, 1, staff=club(state, 1).staff + (Held(lucky.id),), res=(0, 0, 0, 0))
    state = engine.apply(profile, state, {"type": "use_card", "seat": 1, "card": lucky.id}).state
    assert state.awaiting[0]["purpose"] == "effect"
    assert use(profile, state, {"type": "roll", "seat": 1, "value": 3}).choices == ()  # the effect does not happen
    assert use(profile, state, {"type": "roll", "seat": 1, "value": 5}).choices == (Choice("chosen_player", _footballers(state)),)
