"""Scenario files: parsed with errors that name the step and line, run against the simulated table, checks enforced."""

from __future__ import annotations

from pathlib import Path

import pytest

from device import replay
from device.replay import ScenarioError, parse, run_scenario

START = """
title = "two clubs"
[[step]]
page = "new_game"
clubs = [{ seat = 1, name = "Reds", opponents = ["opp_downtown_1", "opp_harbour_1"], objective = "obj_01", tactic = "tac_01" },
         { seat = 2, name = "Blues", opponents = ["opp_downtown_2", "opp_harbour_2"], objective = "obj_02", tactic = "tac_02" }]
deal = false
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_steps_are_parsed_with_their_lines(tmp_path: Path) -> None:
    scenario = parse(write(tmp_path, START + '\n[[step]]\ntap = "seat1.tap"\ncard = "dir_01"\ndice = [3]\n'))
    assert scenario.title == "two clubs"
    assert [s.kind for s in scenario.steps] == ["page", "tap"]
    assert scenario.steps[1].line == 9 and scenario.steps[1].dice == (3,)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[[step]]\npress = "seat1.roll"\nhold = "seat1.roll"\n', "needs exactly one of"),
        ('[[step]]\ntap = "seat1.tap"\n', 'needs card = "bm_01"'),
        ('[[step]]\nwait = "soon"\n', "'wait' is a number of seconds"),
        ('[[step]]\npress = "seat1.roll"\ndice = ["six"]\n', "list of whole numbers"),
        ("title = 'x'\n", "has no [[step]] tables"),
        ("[[step]\n", "not valid TOML"),
        ('[[step]]\npage = "lineup"\nseat = 1\nplacements = []\n',
         "step 1 (line 1): the page action 'lineup': players: Field required; placements: Extra inputs are not permitted"),
        ('[[step]]\npage = "new_game"\nclubs = [{ seat = 5, name = "Reds" }]\n',
         "the page action 'new_game': clubs.0.seat: Input should be less than or equal to 4"),
        ('[[step]]\npage = "dance"\n', "the page action 'dance': type: unknown event type 'dance'"),
    ],
)
def test_bad_scenarios_say_what_and_where(tmp_path: Path, text: str, expected: str) -> None:
    with pytest.raises(ScenarioError, match=None) as caught:
        parse(write(tmp_path, text))
    assert expected in str(caught.value)


def test_missing_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse(tmp_path / "nope.toml")
    assert str(caught.value) == replay.SCENARIO_MISSING.format(path=tmp_path / "nope.toml")


def test_a_run_returns_the_final_state_and_checks_pass(tmp_path: Path) -> None:
    final = run_scenario(write(tmp_path, START + """
[[step]]
tap = "seat1.tap"
card = "dir_01"
screen = { "seat1.screen" = "1 of 3 tapped" }
view = { stage = "setup", "clubs.0.name" = "Reds" }
"""))
    assert final["view"]["stage"] == "setup"
    assert final["events"] >= 2
    assert "1 of 3 tapped" in final["screens"]["seat1.screen"]


def test_a_failed_check_names_the_step_and_what_was_found(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as caught:
        run_scenario(write(tmp_path, START + '\n[[step]]\ncheck = true\nview = { week = 3 }\n'))
    assert "step 2 (line 9): view path week — expected 3, found 0." == str(caught.value)


def test_a_refused_page_action_is_expected_or_fails(tmp_path: Path) -> None:
    lineup = '\n[[step]]\npage = "kickoff"\nseat = 1\n'
    with pytest.raises(ScenarioError) as caught:
        run_scenario(write(tmp_path, START + lineup))
    assert "the table refused it" in str(caught.value) and "Matchday" in str(caught.value)
    final = run_scenario(write(tmp_path, START + lineup + 'refused = "Matchday"\n'))
    assert final["view"]["stage"] == "setup"


def test_an_unknown_pad_is_named(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as caught:
        run_scenario(write(tmp_path, START + '\n[[step]]\ntap = "seat9.tap"\ncard = "dir_01"\n'))
    assert "There is no pad 'seat9.tap'" in str(caught.value)


def test_unknown_tag_is_shown_and_changes_nothing(tmp_path: Path) -> None:
    from device.inputs import UNKNOWN_CARD

    final = run_scenario(write(tmp_path, START + '\n[[step]]\nplace_tag = "seat2.tap"\nuid = "04-11-22-33"\n'))
    assert UNKNOWN_CARD in final["screens"]["seat2.screen"]
    assert final["view"]["clubs"][1]["directors"] == []


def test_the_documented_example_of_every_step_kind_runs_as_written(tmp_path: Path) -> None:
    import re

    from device.replay import STEP_KINDS, parse, run_scenario

    docs = (Path(__file__).parents[2] / "docs" / "SCENARIOS.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```toml\n(.*?)```", docs, re.S) if b.startswith('title = "Every kind of step"'))
    scenario = tmp_path / "every-kind.toml"
    scenario.write_text(block, encoding="utf-8")
    assert {step.kind for step in parse(scenario).steps} == set(STEP_KINDS)
    final = run_scenario(scenario)  # raises, naming the step, when a documented check does not hold
    assert final["view"]["clubs"][0]["name"] == "Reds"


def test_a_scenario_on_a_table_whose_pads_sit_on_a_hub_reaches_the_right_seat(tmp_path: Path) -> None:
    from device.replay import run_scenario
    from device.table_file import TABLES_DIR

    scenario = tmp_path / "hub.toml"
    scenario.write_text(f'''table = "{TABLES_DIR / 'four-seats-hub.toml'}"
[[step]]
page = "new_game"
clubs = [{{ seat = 1, name = "Reds" }}, {{ seat = 2, name = "Blues" }}]
deal = false
[[step]]
place_tag = "seat2.tap"
uid = "04-DE-AD-BE-EF-00-02"
''', encoding="utf-8")
    screens = run_scenario(scenario)["screens"]
    assert any("Unknown card" in line for line in screens["seat2.screen"])
    assert not any("Unknown card" in line for line in screens["seat1.screen"])
