"""`engine.card_uses`: what a club may do with a card now and which of its cards each use asks it to choose, as the
events themselves answer when tried (the table's taps show nothing else)."""

from __future__ import annotations

import engine
from engine import errors as E
from engine.state import Held
from engine.uses import Choice, use

from tests.engine.helpers import club, set_club, tuesday


def _allowed(uses: list[engine.uses.Use]) -> dict[str, tuple[Choice, ...]]:
    return {str(u.event.get("contract", u.event["type"])): u.choices for u in uses if u.why_not is None}


def test_a_staff_action_for_a_youngster_offers_only_the_clubs_youngsters() -> None:
    profile, state = tuesday()
    state = set_club(state, 1, staff=(Held("st_31"),), res=(5, 0, 5, 5))  # "spend 1 fitness to train a Youngster"
    youngsters = tuple(h.id for h in club(state, 1).players if profile.cards[h.id].kind == "youngster")
    assert youngsters and len(youngsters) < len(club(state, 1).players)
    assert _allowed(engine.card_uses(profile, state, 1, "st_31")) == {"use_card": (Choice("chosen_youngster", youngsters),)}
    # what was offered is what the engine takes: the action trains the Youngster named
    step = engine.apply(profile, state, {"type": "use_card", "seat": 1, "card": "st_31", "targets": [youngsters[0]]})
    assert club(step.state, 1).held(youngsters[0]).trained


def test_a_sponsor_asks_for_a_footballer_for_each_contract_whose_effects_choose_one() -> None:
    profile, state = tuesday()
    footballers = tuple(h.id for h in club(state, 1).players)
    heal = (Choice("chosen_player", footballers),)
    # Crescent Pharmacy: the megaphone heals a footballer at once, the adboard by its action later, the shirt's bonus
    assert _allowed(engine.card_uses(profile, state, 1, "sp_22")) == {"megaphone": heal, "adboard": (), "shirt": heal}


def test_a_use_the_rules_refuse_carries_their_sentence_and_asks_for_nothing() -> None:
    profile, state = tuesday()
    used = set_club(state, 1, staff=(Held("st_31", exhausted=True),), res=(5, 0, 5, 5))
    tried = use(profile, used, {"type": "use_card", "seat": 1, "card": "st_31", "targets": ["yg_02"]})
    assert tried.why_not == E.CARD_EXHAUSTED.format(name=profile.cards["st_31"].name) and tried.choices == ()
    assert tried.why_not == engine.why_not(profile, used, {"type": "use_card", "seat": 1, "card": "st_31"})
    # not the club's turn: the same card of Seat 2 is refused in the turn's words
    other = set_club(state, 2, staff=(Held("st_31"),), res=(5, 0, 5, 5))
    assert _allowed(engine.card_uses(profile, other, 2, "st_31")) == {}
    assert all(u.why_not for u in engine.card_uses(profile, other, 2, "st_31"))


def test_a_card_the_deck_does_not_have_has_no_use() -> None:
    profile, state = tuesday()
    assert engine.card_uses(profile, state, 1, "no_such_card") == []
