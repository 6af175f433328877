"""What a tap and a press mean, given what the engine awaits: events, messages, or nothing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from device import inputs as I
from device.inputs import Hold, Interpreter, Lift, Press, Tap
from device.screens import Message
from drivers.dice import ScriptedDice
from engine.uses import Use

KINDS = {"obj_epic": "objective", "pl_01": "player", "yg_01": "youngster", "vet_01": "veteran", "st_01": "staff", "st_02": "staff",
         "sp_01": "sponsor", "bm_01": "board_meeting", "dir_01": "director", "dir_02": "director",
         "dir_03": "director", "opp_a_1": "opponent", "opp_b_2": "opponent", "tac_01": "tactic"}


@dataclass
class Game:
    """What the interpreter is told about the game (the runtime reads it from engine state)."""

    awaiting: tuple[Mapping[str, Any], ...]
    held: dict[int, set[str]] = field(default_factory=dict)
    fans: int = 2
    opponents: dict[int, str] = field(default_factory=dict)
    sponsors: tuple[str, ...] = ("megaphone", "adboard", "shirt")
    choose: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """What each card's action asks the club to choose (card id → one word per pick); the club's footballers fit."""
    refuses: dict[str, str] = field(default_factory=lambda: {"auction": 'There is no event "auction".'})
    """The engine's sentence for each event type it would refuse now (the others it takes; a base game has no
    auction: Transferring Players is a module)."""
    outcomes: dict[str, tuple[Mapping[str, Any], ...]] = field(default_factory=dict)
    """What the engine would announce for an event type (a keep: what the held roll decides)."""
    boards: dict[int, str] = field(default_factory=dict)
    stats_refused: tuple[str, ...] = ("budget",)
    """The Stats a Club potential may not raise now (the demo board forbids Budget)."""

    def kind(self, card: str) -> str | None:
        return KINDS.get(card)

    def name(self, card: str) -> str:
        return card.upper()

    def cost(self, card: str) -> int | None:
        return 3 if card.startswith(("pl_", "st_")) else None

    def owns(self, seat: int, card: str) -> bool:
        return card in self.held.get(seat, set())

    def fanbase(self, seat: int) -> int:
        return self.fans

    def opponent(self, seat: int) -> str | None:
        return self.opponents.get(seat)

    def uses(self, seat: int, card: str) -> list[Use]:
        # what the engine lists (`engine.card_uses`): the card's action, then a hire, a sale or each contract, then
        # an auction (refused unless the game plays Transferring Players); each tried with `why_not`
        kind, owned = KINDS.get(card), self.owns(seat, card)
        if kind is None:
            return []
        action = {"type": "use_card", "seat": seat, "card": card}
        uses = [Use(action, self.why_not(action) if owned and kind in ("staff", "director") else "No action now.")]
        footballer = kind in ("player", "youngster", "veteran")
        more: list[dict[str, Any]] = []
        if footballer and owned:
            more = [{"type": "sell", "seat": seat, "card": card}, {"type": "auction", "seat": seat, "card": card}]
        elif kind in ("player", "veteran", "youngster", "staff") and not owned:
            more = [{"type": {"youngster": "hire_youngster", "staff": "hire_staff"}.get(kind, "hire_player"),
                     "seat": seat, "card": card}]
        elif kind == "sponsor":
            more = [{"type": "sponsor", "seat": seat, "card": card, "contract": c} for c in ("megaphone", "adboard", "shirt")]
        for event in more:
            why = self.why_not(event)
            if event["type"] == "sponsor" and event["contract"] not in self.sponsors:
                why = "Your board has no room for that contract."
            uses.append(Use(event, why))
        return uses

    def picks(self, event: Mapping[str, Any]) -> tuple[I.Pick, ...]:
        # what the engine answers: each choice with the club's cards that fit it (here: its footballers)
        fits = tuple(sorted(c for c in self.held.get(int(event["seat"]), set())
                            if KINDS.get(c) in ("player", "youngster", "veteran")))
        return tuple(I.Pick(what, fits) for what in self.choose.get(str(event.get("card")), ()))

    def why_not(self, event: Mapping[str, Any]) -> str | None:
        if event.get("type") == "potential" and event.get("stat") in self.stats_refused:
            return f"The {str(event['stat']).capitalize()} Stat cannot be raised now."
        return self.refuses.get(str(event.get("type")))

    def preview(self, event: Mapping[str, Any]) -> tuple[Mapping[str, Any], ...]:
        return self.outcomes.get(str(event.get("type")), ())

    def board_card(self, seat: int) -> str | None:
        return self.boards.get(seat)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def tap(seat: int | None, card: str | None, uid: str = "04-01") -> Tap:
    return Tap(f"seat{seat}.tap" if seat else "shared.opponent", seat, uid, card)


def press(seat: int | None) -> Press:
    return Press(f"seat{seat}.roll" if seat else "shared.undo", seat)


def hold(seat: int | None) -> Hold:
    return Hold(f"seat{seat}.roll" if seat else "shared.undo", seat)


TURN = ({"seat": 2, "need": "action", "day": "tuesday", "free_only": False},)


@pytest.fixture
def clock() -> Clock:
    return Clock()


def make(clock: Clock, dice: list[int] | None = None) -> Interpreter:
    return Interpreter(ScriptedDice(dice or []), clock=clock)


def test_unknown_tag_says_to_enrol_it_and_sends_nothing(clock: Clock) -> None:
    out = make(clock).handle(tap(2, None, "04-AA-BB"), Game(TURN))
    assert out.events == () and out.messages[2].headline == I.UNKNOWN_CARD


def test_before_a_game_the_screen_says_to_start_one(clock: Clock) -> None:
    out = make(clock).handle(press(1), None)
    assert out.events == () and out.messages[1].headline == I.NO_GAME


def test_long_hold_on_the_shared_control_undoes(clock: Clock) -> None:
    assert make(clock).handle(hold(None), Game(TURN)).undo


def test_setup_directors_are_collected_then_sent_as_one_event(clock: Clock) -> None:
    game = Game(({"seat": 1, "need": "card", "kinds": ["director"]},))
    interp = make(clock)
    assert interp.handle(tap(1, "dir_01"), game).messages[1].detail == ("1 of 3 tapped",)
    assert "again" in interp.handle(tap(1, "dir_01"), game).messages[1].headline
    assert interp.handle(tap(1, "dir_02"), game).events == ()
    out = interp.handle(tap(1, "dir_03"), game)
    assert out.events == ({"type": "directors", "seat": 1, "cards": ["dir_01", "dir_02", "dir_03"]},)


def test_starting_pair_needs_one_veteran_and_one_youngster(clock: Clock) -> None:
    game = Game(({"seat": 3, "need": "card", "kinds": ["veteran", "youngster"]},))
    interp = make(clock)
    interp.handle(tap(3, "vet_01"), game)
    out = interp.handle(tap(3, "yg_01"), game)
    assert out.events == ({"type": "starting_players", "seat": 3, "veteran": "vet_01", "youngster": "yg_01"},)


def test_hire_waits_for_the_confirming_press_and_shows_the_cost(clock: Clock) -> None:
    interp = make(clock)
    out = interp.handle(tap(2, "pl_01"), Game(TURN))
    assert out.events == () and out.messages[2] == I.Message("Hire PL_01 for €3?", (I.PRESS_TO_CONFIRM,))
    interp.handle(Lift("seat2.tap", 2, "04-01"), Game(TURN))  # lifting the card keeps the question
    assert interp.handle(press(2), Game(TURN)).events == ({"type": "hire_player", "seat": 2, "card": "pl_01"},)


def test_a_hold_cancels_a_proposal_instead_of_passing(clock: Clock) -> None:
    interp = make(clock)
    interp.handle(tap(2, "yg_01"), Game(TURN))
    out = interp.handle(hold(2), Game(TURN))
    assert out.events == () and out.messages[2].headline == I.CANCELLED
    assert interp.handle(hold(2), Game(TURN)).events == ({"type": "pass", "seat": 2},)


@pytest.mark.parametrize(("card", "owned", "event"), [
    ("pl_01", True, "sell"), ("yg_01", False, "hire_youngster"), ("st_01", False, "hire_staff"), ("st_02", True, "use_card"),
])
def test_what_a_card_means_on_the_seat_whose_turn_it_is(clock: Clock, card: str, owned: bool, event: str) -> None:
    interp = make(clock)
    game = Game(TURN, held={2: {card} if owned else set()})
    interp.handle(tap(2, card), game)
    assert interp.handle(press(2), game).events == ({"type": event, "seat": 2, "card": card},)


def test_a_footballer_the_engine_lets_go_two_ways_steps_them_with_the_button_and_a_hold_chooses(clock: Clock) -> None:
    interp = make(clock)
    game = Game(TURN, held={2: {"pl_01"}}, refuses={})  # Transferring Players: sold to the supply or by auction
    assert interp.handle(tap(2, "pl_01"), game).messages[2] == I.Message("PL_01: Sell to the supply",
                                                                       (I.PRESS_STEPS_HOLD_CHOOSES,))
    assert interp.handle(press(2), game).messages[2].headline == "PL_01: Auction"
    assert interp.handle(press(2), game).messages[2].headline == "PL_01: Cancel"
    assert interp.handle(hold(2), game).messages[2].headline == I.CANCELLED
    interp.handle(tap(2, "pl_01"), game)
    interp.handle(press(2), game)
    assert interp.handle(hold(2), game).events == ({"type": "auction", "seat": 2, "card": "pl_01"},)


def test_a_sponsor_of_the_club_whose_action_and_contracts_the_engine_takes_steps_through_them_all(clock: Clock) -> None:
    interp = make(clock)
    game = Game(TURN, held={2: {"sp_01"}}, sponsors=("shirt",))
    game.uses = lambda seat, card: [Use({"type": "use_card", "seat": seat, "card": card}, None),  # type: ignore[method-assign]
                                    Use({"type": "sponsor", "seat": seat, "card": card, "contract": "shirt"}, None)]
    assert interp.handle(tap(2, "sp_01"), game).messages[2].headline == "SP_01: Use it"
    assert interp.handle(press(2), game).messages[2].headline == "SP_01: Sign Shirt"
    assert interp.handle(hold(2), game).events == ({"type": "sponsor", "seat": 2, "card": "sp_01", "contract": "shirt"},)


def test_a_footballer_the_engine_lets_go_one_way_only_is_asked_once(clock: Clock) -> None:
    interp = make(clock)
    untrained = Game(TURN, held={2: {"pl_01"}}, refuses={"sell": "PL_01 is not trained: only trained footballers "
                                                                  "can be sold."})
    assert interp.handle(tap(2, "pl_01"), untrained).messages[2] == I.Message("Auction PL_01?", (I.PRESS_TO_CONFIRM,))
    assert interp.handle(press(2), untrained).events == ({"type": "auction", "seat": 2, "card": "pl_01"},)


def test_a_card_no_use_of_which_the_engine_takes_says_why_in_the_words_of_its_hire_or_sale(clock: Clock) -> None:
    interp = make(clock)
    broke = Game(TURN, refuses={"hire_player": "Club 2 has 2 €: PL_01 costs 3 €.", "auction": "No auction."})
    out = interp.handle(tap(2, "pl_01"), broke)
    assert out.refused and out.events == () and "PL_01 costs 3 €" in " ".join((out.messages[2].headline,
                                                                               *out.messages[2].detail))
    assert interp.handle(press(2), broke).events != ({"type": "hire_player", "seat": 2, "card": "pl_01"},)


def test_sponsor_kinds_step_with_the_button_and_a_hold_signs(clock: Clock) -> None:
    interp = make(clock)
    assert "Megaphone" in interp.handle(tap(2, "sp_01"), Game(TURN)).messages[2].headline
    assert "Adboard" in interp.handle(press(2), Game(TURN)).messages[2].headline
    assert "Shirt" in interp.handle(press(2), Game(TURN)).messages[2].headline
    assert "Megaphone" in interp.handle(press(2), Game(TURN)).messages[2].headline
    interp.handle(press(2), Game(TURN))
    assert interp.handle(hold(2), Game(TURN)).events == ({"type": "sponsor", "seat": 2, "card": "sp_01", "contract": "adboard"},)


def test_club_potential_picks_a_stat_with_the_button(clock: Clock) -> None:
    interp = make(clock)
    assert "Fanbase" in interp.handle(press(2), Game(TURN)).messages[2].headline
    interp.handle(press(2), Game(TURN))
    assert interp.handle(hold(2), Game(TURN)).events == ({"type": "potential", "seat": 2, "stat": "operation"},)


def test_club_potential_steps_only_through_the_stats_the_engine_would_raise(clock: Clock) -> None:
    interp = make(clock)
    top = Game(TURN, stats_refused=("budget", "fanbase"))  # Fanbase is at the top level
    assert "Operation" in interp.handle(press(2), top).messages[2].headline
    interp.handle(press(2), top)
    assert interp.handle(hold(2), top).events == ({"type": "potential", "seat": 2, "stat": "fitness"},)
    none = Game(TURN, stats_refused=("budget", "fanbase", "operation", "fitness"))
    out = interp.handle(press(2), none)
    assert out.refused and out.events == () and "Budget" in out.messages[2].text()


def test_after_the_action_a_press_says_a_hold_ends_the_turn(clock: Clock) -> None:
    game = Game(({"seat": 2, "need": "action", "day": "tuesday", "free_only": True},))
    out = make(clock).handle(press(2), game)
    assert out.events == () and out.messages[2] == I.Message(I.ACTION_TAKEN, (I.END_TURN,))


def test_a_press_rolls_the_awaited_die_and_a_second_press_in_time_rerolls(clock: Clock) -> None:
    interp = make(clock, [4, 2])
    rolling = Game(({"seat": 1, "need": "roll", "die": "d6", "purpose": "board_meeting", "rerollable": True},))
    assert interp.handle(press(1), rolling).events == ({"type": "roll", "seat": 1, "value": 4},)
    held = Game(({"seat": 1, "need": "keep_or_reroll", "die": "d6", "value": 4, "rerollable": True},))
    clock.now += I.REROLL_SECONDS - 1
    assert interp.handle(press(1), held).events == ({"type": "reroll", "seat": 1, "value": 2},)
    clock.now += I.REROLL_SECONDS - 1
    assert interp.expired(held) == ()  # the reroll opened a new window
    clock.now += 2
    assert interp.expired(held) == ({"type": "keep", "seat": 1},)


def test_a_press_after_the_window_keeps_the_roll(clock: Clock) -> None:
    interp = make(clock, [5])
    interp.handle(press(1), Game(({"seat": 1, "need": "roll", "die": "d6"},)))
    clock.now += I.REROLL_SECONDS + 1
    held = Game(({"seat": 1, "need": "keep_or_reroll", "die": "d6", "value": 5},))
    assert interp.handle(press(1), held).events == ({"type": "keep", "seat": 1},)


def test_doing_something_else_keeps_the_held_roll_first(clock: Clock) -> None:
    interp = make(clock)
    held = Game(({"seat": 2, "need": "keep_or_reroll", "die": "d6", "value": 5},) + TURN)
    out = interp.handle(tap(2, "sp_01"), held)
    assert out.events == ({"type": "keep", "seat": 2},) and out.again  # the tap is handled again once kept
    assert not interp.handle(press(2), held).again  # a late press only keeps the roll


def test_a_hold_on_a_held_roll_keeps_it_and_does_not_pass_the_coming_turn(clock: Clock) -> None:
    interp = make(clock)
    held = Game(({"seat": 2, "need": "keep_or_reroll", "die": "d6", "value": 5},) + TURN)
    out = interp.handle(hold(2), held)
    assert out.events == ({"type": "keep", "seat": 2},) and not out.again


def test_a_club_short_of_money_taps_a_card_for_each_missing_euro(clock: Clock) -> None:
    interp = make(clock)
    game = Game(({"seat": 4, "need": "suspensions", "count": 2},), held={4: {"st_01", "pl_01"}})
    first = interp.handle(tap(4, "st_01"), game)
    assert first.events == () and "Tap 1 more card(s)" in first.messages[4].detail
    out = interp.handle(tap(4, "pl_01"), game)
    assert out.events == ({"type": "suspensions", "seat": 4, "cards": ["st_01", "pl_01"]},)


def test_objective_result_is_stepped_and_confirmed(clock: Clock) -> None:
    interp = make(clock)
    game = Game(({"seat": 1, "need": "objective_result", "card": "obj_01"},))
    assert "Missed" in interp.handle(press(1), game).messages[1].headline
    assert "Fulfilled" in interp.handle(press(1), game).messages[1].headline
    assert interp.handle(hold(1), game).events == ({"type": "objective_result", "seat": 1, "result": "fulfilled"},)


def test_the_opponent_card_plays_its_clubs_match_wherever_it_is_tapped(clock: Clock) -> None:
    game = Game(({"seat": 1, "need": "kickoff"}, {"seat": 2, "need": "kickoff"}), opponents={1: "opp_a_1", 2: "opp_b_2"})
    interp = make(clock)
    assert interp.handle(tap(None, "opp_b_2"), game).events == ({"type": "kickoff", "seat": 2},)
    wrong = interp.handle(tap(1, "opp_b_2"), game)
    assert wrong.events == () and wrong.messages[1] == I.Message(I.NOT_THIS_OPPONENT.format(name="OPP_B_2"), ("This week: OPP_A_1",))


def test_the_table_rolls_opponent_dice_and_tied_board_meetings_by_itself(clock: Clock) -> None:
    interp = Interpreter(ScriptedDice([3, 6]), clock=clock)
    game = Game(({"seat": None, "need": "roll", "die": "d6", "purpose": "opponent_die", "team": "harbour"},))
    assert interp.automatic(game) == ({"type": "roll", "seat": None, "value": 3, "team": "harbour"},)
    tie = Game(({"seat": 2, "need": "roll", "die": "d6", "purpose": "board_meeting"},))
    assert interp.automatic(tie) == ()  # a first roll waits for the button
    assert interp.automatic(tie, ({"kind": "board_meeting_tie", "seat": 2},)) == ({"type": "roll", "seat": 2, "value": 6},)


def test_a_card_nobody_waits_for_goes_to_the_engine_for_its_reason(clock: Clock) -> None:
    game = Game(({"seat": 1, "need": "card", "kinds": ["board_meeting"]},))
    out = make(clock).handle(tap(2, "pl_01"), game)
    assert out.events == ({"type": "hire_player", "seat": 2, "card": "pl_01"},)


def test_only_the_contract_kinds_the_club_may_still_take_are_offered(clock: Clock) -> None:
    interp = make(clock)
    game = Game(TURN, sponsors=("megaphone", "adboard"))  # the shirt is taken
    interp.handle(tap(2, "sp_01"), game)
    assert "Adboard" in interp.handle(press(2), game).messages[2].headline
    assert "Megaphone" in interp.handle(press(2), game).messages[2].headline


def test_before_the_kickoff_a_tactic_is_played_and_an_own_card_uses_its_ability(clock: Clock) -> None:
    interp = make(clock)
    game = Game(({"seat": 1, "need": "kickoff"},), held={1: {"pl_01"}}, opponents={1: "opp_a_1"})
    assert interp.handle(tap(1, "tac_01"), game).events == ({"type": "tactic_played", "seat": 1, "card": "tac_01"},)
    assert interp.handle(tap(1, "pl_01"), game).events == ({"type": "use_card", "seat": 1, "card": "pl_01"},)
    assert interp.handle(press(1), game).events == ({"type": "kickoff", "seat": 1},)


def test_a_hold_drops_the_setup_cards_tapped_so_far(clock: Clock) -> None:
    game = Game(({"seat": 1, "need": "card", "kinds": ["director"]},))
    interp = make(clock)
    interp.handle(tap(1, "dir_01"), game)
    out = interp.handle(hold(1), game)
    assert out.events == () and out.messages[1] == I.Message(I.CANCELLED, ("Director cards",))
    assert interp.handle(tap(1, "dir_02"), game).messages[1].detail == ("1 of 3 tapped",)


def test_a_staff_action_for_a_footballer_asks_for_him_to_be_tapped_next(clock: Clock) -> None:
    game = Game(TURN, held={2: {"st_01", "st_02", "yg_01"}}, choose={"st_01": ("footballer",)})
    interp = make(clock)
    assert interp.handle(tap(2, "st_01"), game).messages[2].detail == (I.PRESS_TO_CONFIRM,)
    asked = interp.handle(press(2), game)
    assert asked.events == ()
    assert asked.messages[2] == Message(I.TAP_PICK.format(what="footballer"), (I.PICK_FOR.format(name="ST_01"), I.HOLD_TO_CANCEL))
    assert interp.handle(press(2), game).events == ()  # the button does not answer it (nor starts a Club potential)
    for wrong in ("st_02", "pl_01"):  # a Staff card, and a footballer of no club
        out = interp.handle(tap(2, wrong), game)
        assert out.events == () and out.messages[2].headline == I.NOT_A_PICK.format(what="footballer")
    out = interp.handle(tap(2, "yg_01"), game)
    assert out.events == ({"type": "use_card", "seat": 2, "card": "st_01", "targets": ["yg_01"]},)


def test_a_hold_while_a_footballer_is_awaited_cancels_the_action(clock: Clock) -> None:
    game = Game(TURN, held={2: {"st_01", "yg_01"}}, choose={"st_01": ("footballer",)})
    interp = make(clock)
    interp.handle(tap(2, "st_01"), game)
    interp.handle(press(2), game)
    out = interp.handle(hold(2), game)
    assert out.events == () and out.messages[2].headline == I.CANCELLED
    after = interp.handle(tap(2, "yg_01"), game)  # the footballer tapped now is offered for sale, as any other time
    assert after.events == () and after.messages[2].headline.startswith("Sell YG_01")


def test_a_match_ability_for_a_footballer_asks_for_him_before_it_is_used(clock: Clock) -> None:
    game = Game(({"seat": 1, "need": "kickoff"},), held={1: {"vet_01", "yg_01"}}, choose={"vet_01": ("footballer",)})
    interp = make(clock)
    asked = interp.handle(tap(1, "vet_01"), game)
    assert asked.events == () and asked.messages[1].headline == I.TAP_PICK.format(what="footballer")
    out = interp.handle(tap(1, "yg_01"), game)
    assert out.events == ({"type": "use_card", "seat": 1, "card": "vet_01", "targets": ["yg_01"]},)
    plain = Game(({"seat": 1, "need": "kickoff"},), held={1: {"vet_01"}})
    assert make(clock).handle(tap(1, "vet_01"), plain).events == ({"type": "use_card", "seat": 1, "card": "vet_01"},)


def test_a_sponsor_contract_whose_bonus_is_for_a_footballer_asks_for_him_after_the_signing_hold(clock: Clock) -> None:
    game = Game(TURN, held={2: {"yg_01"}}, choose={"sp_01": ("footballer",)})
    interp = make(clock)
    interp.handle(tap(2, "sp_01"), game)
    signed = interp.handle(hold(2), game)
    assert signed.events == () and signed.messages[2].headline == I.TAP_PICK.format(what="footballer")
    out = interp.handle(tap(2, "yg_01"), game)
    assert out.events == ({"type": "sponsor", "seat": 2, "card": "sp_01", "contract": "megaphone", "targets": ["yg_01"]},)


def test_a_modules_need_shows_its_own_words_and_a_hold_answers_it_with_a_pass(clock: Clock) -> None:
    """The Betting after Thursday (engine/modules/betting.py): the seat's screen says where to bet and that a hold
    places no bet; the hold is the engine's ``pass`` there."""
    from engine.modules import betting

    need = {"seat": 2, "need": "bet", "text": betting.WAIT.format(seat=2), "short": betting.WAIT_SHORT,
            "hint": betting.WAIT_HINT}
    game = Game(awaiting=(need,))
    interp = make(clock)
    assert interp.prompt(2, game) == Message(betting.WAIT_SHORT, (betting.WAIT_HINT,))
    assert interp.handle(Hold("seat2.roll", 2), game).events == ({"type": "pass", "seat": 2},)


# --- League matches between clubs (003 l.143, l.145, l.167) ---------------------------------------------------------

FORMATION = ({"seat": 2, "need": "formation", "half": 1, "shapes": ["4-4-2", "5-4-1", "4-3-3"]},)


def test_the_declaring_seat_steps_through_the_formations_the_engine_lists_and_a_hold_declares(clock: Clock) -> None:
    interp = make(clock)
    game = Game(FORMATION)
    assert interp.handle(press(2), game).messages[2] == I.Message(I.FORMATION.format(shape="4-4-2"), (I.PRESS_STEPS_HOLD_DECLARES,))
    assert interp.handle(press(2), game).messages[2].headline == I.FORMATION.format(shape="5-4-1")
    assert interp.handle(press(2), game).messages[2].headline == I.FORMATION.format(shape="4-3-3")
    assert interp.handle(press(2), game).messages[2].headline == I.FORMATION.format(shape="4-4-2")  # round again
    assert interp.handle(hold(2), game).events == ({"type": "formation", "seat": 2, "shape": "4-4-2"},)
    assert interp.prompt(2, game) == I.Message(I.DECLARE_FORMATION, ("First half", "Press: choose · Hold: declare"))


def test_in_the_turns_after_the_reveal_an_own_card_tapped_is_used_and_a_hold_passes(clock: Clock) -> None:
    game = Game(({"seat": 1, "need": "abilities", "timing": "after_reveal"},), held={1: {"pl_01"}})
    interp = make(clock)
    assert interp.prompt(1, game) == I.Message(I.ABILITY_TURN.format(moment="after the reveal"), (I.TAP_OR_PASS,))
    assert interp.handle(tap(1, "pl_01"), game).events == ({"type": "use_card", "seat": 1, "card": "pl_01"},)
    assert interp.handle(hold(1), game).events == ({"type": "pass", "seat": 1},)
    half = Game(({"seat": 1, "need": "half", "half": 2},), held={1: {"pl_01"}})
    assert interp.prompt(1, half) == I.Message(I.HALF_NOW.format(half="second half"), (I.TAP_OR_READY,))
    assert interp.handle(hold(1), half).events == ({"type": "pass", "seat": 1},)


def test_a_seat_asked_to_arrange_is_sent_to_its_page_with_its_declared_formation(clock: Clock) -> None:
    game = Game(({"seat": 2, "need": "arrange", "half": 1, "shape": "5-4-1"}, {"seat": 1, "need": "arrange", "half": 1, "shape": None}))
    interp = make(clock)
    assert interp.prompt(2, game) == I.Message(I.ARRANGE_ON_PAGE, (I.ARRANGE_SHAPE.format(half="first half", shape="5-4-1"),))
    assert interp.prompt(1, game) == I.Message(I.ARRANGE_ON_PAGE, (I.ARRANGE_SECRETLY.format(half="first half"),))


def test_the_tie_break_die_is_rolled_by_the_seats_button(clock: Clock) -> None:
    game = Game(({"seat": 3, "need": "roll", "die": "d6", "purpose": "club_tiebreak", "rerollable": True},))
    interp = make(clock, [5])
    assert interp.handle(press(3), game).events == ({"type": "roll", "seat": 3, "value": 5},)
    assert interp.prompt(3, game).detail == (I.ROLL_FOR.format(what="the tie-break"),)


def test_at_the_winter_break_a_seat_taps_its_objective_and_steps_how_it_went(clock: Clock) -> None:
    """The Epic League's Winter Break (003 l.477): the Objective card fulfilled (or the one discarded) is tapped on
    the seat's pad, the button steps fulfilled, perfect, missed, and a hold confirms."""
    from engine.modules import epic_league

    need = {"seat": 3, "need": "winter_objective", "text": epic_league.WAIT_OBJECTIVE.format(seat=3),
            "short": epic_league.OBJECTIVE_SHORT, "hint": epic_league.OBJECTIVE_HINT}
    game = Game((need,))
    interp = make(clock)
    assert interp.prompt(3, game) == Message(epic_league.OBJECTIVE_SHORT, (epic_league.OBJECTIVE_HINT,))
    shown = interp.handle(tap(3, "obj_epic"), game).messages[3]
    assert shown.headline == "OBJ_EPIC: Fulfilled"
    assert interp.handle(press(3), game).messages[3].headline == "OBJ_EPIC: Perfect"
    assert interp.handle(hold(3), game).events == ({"type": "winter_objective", "seat": 3, "card": "obj_epic", "result": "perfect"},)


def test_after_the_match_a_clubs_footballer_tapped_uses_the_ability_the_engine_takes_not_a_sale(clock: Clock) -> None:
    """A Match consequence roll awaited: a footballer with an ability for after the match, tapped, uses it (asking for
    the footballer it is for first) rather than proposing a sale the engine refuses on Matchday."""
    roll = ({"seat": 1, "need": "roll", "die": "d6", "purpose": "match_consequence"},)
    game = Game(roll, held={1: {"vet_01", "yg_01"}}, choose={"vet_01": ("footballer",)},
                refuses={"sell": "Seat 1 cannot sell now: it is Matchday."})
    interp = make(clock)
    asked = interp.handle(tap(1, "vet_01"), game)
    assert asked.events == () and asked.messages[1].headline == I.TAP_PICK.format(what="footballer")
    out = interp.handle(tap(1, "yg_01"), game)
    assert out.events == ({"type": "use_card", "seat": 1, "card": "vet_01", "targets": ["yg_01"]},)
    # a card the engine will not use now means its kind's own use, refused in the engine's words
    game.refuses["use_card"] = "Gordon McBride has no action to use."
    refused = make(clock).handle(tap(1, "vet_01"), game)
    assert refused.refused and refused.messages[1].headline == "Cannot sell"
