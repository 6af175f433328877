"""Dice: fair rolls from the system's randomness, custom faces as data, scripted rolls for simulation."""

from __future__ import annotations

from collections import Counter

import pytest

from drivers import dice
from drivers.dice import D6, D10, D12, SME_DICE, Die, ScriptedDice, SystemDice, open_dice
from drivers.errors import DiceScriptExhausted, DriverConfigError

# Chi-square critical values far beyond p = 1e-6, so a fair die never fails these tests by bad luck,
# while a die that favours one face by a few percent over this many rolls fails them every time.
CHI_SQUARE_BOUND = {1: 30.0, 2: 35.0, 3: 38.0, 4: 40.0, 5: 45.0, 7: 50.0, 9: 55.0, 11: 60.0}
ROLLS = 60_000


def chi_square(die: Die, rolls: list[int]) -> tuple[float, int]:
    """Return the chi-square statistic of the rolled values against the die's faces, and its degrees of freedom."""
    weights = Counter(die.faces)
    seen = Counter(rolls)
    total = len(rolls)
    stat = 0.0
    for value, count in weights.items():
        expected = total * count / len(die.faces)
        stat += (seen[value] - expected) ** 2 / expected
    return stat, len(weights) - 1


@pytest.mark.parametrize("die", [D6, D10, D12, SME_DICE["orange"], SME_DICE["green"], SME_DICE["yellow"]])
def test_system_dice_are_fair(die: Die) -> None:
    rolls = SystemDice().roll_many([die] * ROLLS)
    assert set(rolls) == set(die.faces)
    stat, dof = chi_square(die, rolls)
    assert stat < CHI_SQUARE_BOUND[dof], f"{die.name}: chi-square {stat:.1f} over {dof} degrees of freedom"


def test_the_fairness_check_catches_a_loaded_die() -> None:
    # A d6 landing on 6 a fifth of the time instead of a sixth must fail the same check.
    loaded = [6] * (ROLLS // 5) + [1, 2, 3, 4, 5] * (ROLLS * 4 // 25)
    stat, dof = chi_square(D6, loaded)
    assert stat > CHI_SQUARE_BOUND[dof]


def test_soccer_manager_express_dice_match_the_rulebook() -> None:
    assert len(SME_DICE) == 9
    assert all(len(die.faces) == 6 for die in SME_DICE.values())
    # The Green die is the only one with an 8; the Orange die only shows 2s and 3s.
    assert max(SME_DICE["green"].faces) == 8
    assert Counter(SME_DICE["orange"].faces) == {2: 3, 3: 3}


def test_a_die_without_faces_is_refused_with_a_clear_message() -> None:
    with pytest.raises(DriverConfigError, match="has no faces"):
        Die("broken", (3,))
    with pytest.raises(ValueError, match="needs a name"):
        Die(" ", (1, 2))


def test_scripted_dice_roll_in_order_then_say_they_ran_out() -> None:
    scripted = ScriptedDice([4, 2, 6])
    assert scripted.roll(D6) == 4
    assert scripted.roll_many([D6, D6]) == [2, 6]
    with pytest.raises(DiceScriptExhausted) as caught:
        scripted.roll(D12)
    assert str(caught.value) == dice.SCRIPT_EXHAUSTED.format(used=3, die="d12")
    assert isinstance(caught.value, LookupError)


def test_a_scripted_value_that_is_not_on_the_die_is_refused_and_consumes_nothing() -> None:
    scripted = ScriptedDice([5, 3])
    with pytest.raises(DriverConfigError, match="not a face of the orange"):
        scripted.roll(SME_DICE["orange"])
    assert scripted.remaining == 2
    # Half a handful is never rolled: the whole roll fails and the script stays where it was.
    with pytest.raises(DiceScriptExhausted):
        scripted.roll_many([D6, D6, D6])
    assert scripted.roll_many([D6, D6]) == [5, 3]


def test_open_dice_scripts_only_in_simulation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TOUCHLINE_BACKEND", raising=False)
    assert isinstance(open_dice("sim", script=[1]), ScriptedDice)
    assert isinstance(open_dice("real", script=[1]), SystemDice)
    monkeypatch.setenv("TOUCHLINE_BACKEND", "sim")
    assert open_dice("real", script=[2]).roll(D6) == 2


@pytest.mark.parametrize("faces", [("one", "two"), (1.5, 2), (True, False), "123456"])
def test_a_die_whose_faces_are_not_whole_numbers_is_refused(faces: object) -> None:
    with pytest.raises(DriverConfigError) as caught:
        Die("odd", faces)  # type: ignore[arg-type]
    if isinstance(faces, str):
        assert str(caught.value) == dice.DIE_WITHOUT_FACES.format(name="odd")
    else:
        assert str(caught.value) == dice.DIE_FACES_NOT_NUMBERS.format(name="odd", faces=list(faces))  # type: ignore[call-overload]
    assert Die("blue", ["1", "1", "2", "2", "3", "3"]).faces == (1, 1, 2, 2, 3, 3), "numbers from a data file"
