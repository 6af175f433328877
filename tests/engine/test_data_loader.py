"""Loading a deck folder: what an owner sees when a file is wrong, and how an owner's folder replaces the demo."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from engine.loader import (
    ALL_FILES,
    BAD_TOML,
    DEMO_FOLDER,
    MANDATORY_COST,
    PRODUCTION_COST,
    MISSING_FILE,
    NOT_A_FOLDER,
    DataError,
    load_profile,
)


@pytest.fixture()
def owner(tmp_path: Path) -> Path:
    """A copy of the demo folder that a test may break, marked as an owner's own transcription."""
    folder = tmp_path / "deck"
    shutil.copytree(DEMO_FOLDER, folder)
    edit(folder, "profile.toml", "sample = true", "sample = false")
    return folder


def edit(folder: Path, file: str, old: str, new: str, count: int = 1) -> None:
    """Replace text in one file of a folder (the text must be there)."""
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {file}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def card_block(folder: Path, file: str, card_id: str) -> str:
    """The text of one [[card]] block, from its header to the next one."""
    text = (folder / file).read_text(encoding="utf-8")
    start = text.index(f'[[card]]\nid = "{card_id}"')
    end = text.find("[[card]]", start + 1)
    return text[start:] if end < 0 else text[start:end]


def load_error(folder: Path) -> str:
    """The message of the DataError the folder raises."""
    with pytest.raises(DataError) as caught:
        load_profile(folder)
    return str(caught.value)


def test_the_demo_loads_and_every_shipped_file_says_it_is_sample_data() -> None:
    profile = load_profile()
    assert profile.sample is True
    assert profile.source == DEMO_FOLDER
    for file in ALL_FILES:
        first = (DEMO_FOLDER / file).read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# SAMPLE DATA"), file
    assert load_profile() is profile  # parsed once, then served from the cache


def test_a_bad_number_names_file_card_field_and_what_was_expected(owner: Path) -> None:
    block = card_block(owner, "players.toml", "pl_07")
    edit(owner, "players.toml", block, block.replace("strength = 2", 'strength = "x"', 1))
    assert load_error(owner) == 'players.toml, card pl_07, field "untrained.strength": expected a whole number 0–4, got "x"'


def test_an_out_of_range_number_is_refused(owner: Path) -> None:
    block = card_block(owner, "staff.toml", "st_05")
    edit(owner, "staff.toml", block, block.replace("cost = 3", "cost = 12", 1))
    assert load_error(owner) == 'staff.toml, card st_05, field "cost": expected a whole number 0–9, got 12'


def test_an_unknown_field_is_named_with_the_fields_that_exist(owner: Path) -> None:
    edit(owner, "tactics.toml", 'id = "tac_03"', 'id = "tac_03"\ncolour = "red"')
    message = load_error(owner)
    assert message.startswith('tactics.toml, card tac_03, field "colour": unknown field; the fields here are:')
    assert "effects" in message and "name" in message


def test_a_missing_required_field_says_what_belongs_there(owner: Path) -> None:
    block = card_block(owner, "staff.toml", "st_10")
    edit(owner, "staff.toml", block, re.sub(r'profession = "[^"]*"\n', "", block, count=1))
    assert load_error(owner) == 'staff.toml, card st_10, field "profession": missing; expected a non-empty text'


def test_a_duplicate_id_names_both_places(owner: Path) -> None:
    block = card_block(owner, "players.toml", "pl_03")
    edit(owner, "players.toml", block, block + block)
    assert load_error(owner) == (
        'players.toml, card pl_03, field "id": id "pl_03" is used twice (also in players.toml); every card needs its own id'
    )


def test_an_id_with_the_wrong_prefix_is_refused(owner: Path) -> None:
    edit(owner, "staff.toml", 'id = "st_12"', 'id = "pl_12"')
    assert load_error(owner) == 'staff.toml, card pl_12, field "id": id "pl_12" must start with "st_" in staff.toml'


def test_an_unknown_effect_op_lists_the_ops(owner: Path) -> None:
    edit(owner, "tactics.toml", 'op = "gain"', 'op = "teleport"')
    message = load_error(owner)
    assert message.startswith('tactics.toml, card tac_09, field "effects[1].op": expected one of "gain", "lose", "stat"')
    assert message.endswith(', got "teleport"')


def test_a_bad_effect_parameter_is_refused(owner: Path) -> None:
    edit(owner, "board_meetings.toml", '{ op = "gain", resource = "budget", amount = 2 }', '{ op = "gain", resource = "gold", amount = 2 }')
    message = load_error(owner)
    assert message.startswith('board_meetings.toml, card bm_01, field "decisions[1].effects[1].resource": expected one of "budget"')


def test_a_hire_from_the_sponsors_row_is_refused_since_a_sponsor_is_contracted(owner: Path) -> None:
    """000 l.524: a Sponsor is contracted ("choose what type of contract you want to sign"), never hired: such an effect could never be
    played, so the deck is refused where it says so."""
    edit(owner, "staff.toml", 'extra = 2, lasting = "round" }]', 'extra = 2, lasting = "action" }, { op = "hire", row = "sponsors" }]')
    assert load_error(owner) == ('staff.toml, card st_37, field "abilities[1].effects[2].row": '
                                 'expected one of "players", "staff", "youngster", got "sponsors"')


def test_an_effect_parameter_the_op_does_not_take_is_refused(owner: Path) -> None:
    edit(owner, "board_meetings.toml", '{ op = "gain", resource = "budget", amount = 2 }', '{ op = "gain", resource = "budget", amount = 2, weeks = 1 }')
    assert load_error(owner).startswith('board_meetings.toml, card bm_01, field "decisions[1].effects[1].weeks": unknown field')


def test_a_mandatory_ability_with_a_cost_is_refused_since_nothing_would_pay_it(owner: Path) -> None:
    edit(owner, "players.toml", 'optional = false, text = "After the match, pay 1 € in wages."',
         'optional = false, cost = { budget = 1 }, text = "After the match, pay 1 € in wages."')
    message = load_error(owner)
    assert re.match(r'players\.toml, card pl_\d+, field "untrained\.abilities\[1\]\.cost": ', message)
    assert message.endswith(MANDATORY_COST)


def test_a_production_ability_with_a_cost_is_refused_since_nothing_would_pay_it(owner: Path) -> None:
    # 000 l.288: Production is Monday's own step, done by itself; a cost on it would never be paid (the card would
    # produce for free), on a Staff card as on a Stadium Infrastructure token
    edit(owner, "staff.toml", '{ timing = "action", cost = { fitness = 1 }', '{ timing = "production", cost = { fitness = 1 }')
    message = load_error(owner)
    assert re.match(r'staff\.toml, card st_\d+, field "abilities\[1\]\.cost": ', message)
    assert message.endswith(PRODUCTION_COST)


def test_a_jersey_target_without_a_jersey_is_refused(owner: Path) -> None:
    edit(owner, "board_meetings.toml", 'op = "injure", target = "roll_d10"', 'op = "injure", target = "jersey"')
    message = load_error(owner)
    assert re.match(r'board_meetings\.toml, card bm_\d+, field "decisions\[\d\]\.effects\[\d\]\.jersey": missing', message)


def test_a_bad_condition_is_refused(owner: Path) -> None:
    edit(owner, "tactics.toml", '{ test = "roll", die = "d6", at_least = 5 }', '{ test = "roll", die = "d6", at_least = 9 }')
    assert load_error(owner) == 'tactics.toml, card tac_06, field "effects[1].when[1].at_least": expected a d6 result 1–6, got 9'


def test_a_reference_to_an_unknown_card_is_refused(owner: Path) -> None:
    edit(owner, "board.toml", 'first_trainers = ["st_01"', 'first_trainers = ["st_99"')
    assert load_error(owner) == 'board.toml, field "setup.first_trainers": no card "st_99" in this profile'


def test_a_reference_to_an_unknown_team_or_set_is_refused(owner: Path) -> None:
    edit(owner, "opponents.toml", 'team = "millbrook"', 'team = "atlantis"')
    message = load_error(owner)
    assert message.startswith('opponents.toml, card opp_millbrook_1, field "team": expected a team of this profile (')
    assert message.endswith('got "atlantis"')


def test_a_board_meeting_colour_no_director_votes_for_is_refused(owner: Path) -> None:
    edit(owner, "board_meetings.toml", 'colour = "blue"', 'colour = "green"')
    message = load_error(owner)
    assert message.startswith('board_meetings.toml, card bm_01, field "decisions[2].colour": expected a colour some Director votes for')


def test_a_missing_file_says_how_to_fix_it(owner: Path) -> None:
    (owner / "tactics.toml").unlink()
    assert load_error(owner) == MISSING_FILE.format(file="tactics.toml", folder=owner.resolve())


def test_broken_toml_names_the_file(owner: Path) -> None:
    edit(owner, "sponsors.toml", 'name = "Bramley Bakery"', 'name = "Bramley Bakery')
    assert load_error(owner).startswith(BAD_TOML.split("(")[0].format(file="sponsors.toml"))


def test_a_folder_that_is_not_there(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    assert load_error(missing) == NOT_A_FOLDER.format(folder=missing.resolve())


def test_a_broken_edit_after_a_good_load_is_not_hidden_by_the_cache(owner: Path) -> None:
    good = load_profile(owner)
    assert good.card("tac_01").name == "All-out attack"
    edit(owner, "tactics.toml", 'name = "All-out attack"', 'name = ""')
    assert load_error(owner) == 'tactics.toml, card tac_01, field "name": expected a non-empty text, got ""'
    edit(owner, "tactics.toml", 'name = ""', 'name = "Total football"')
    assert load_profile(owner).card("tac_01").name == "Total football"


def test_an_owner_folder_replaces_the_demo(owner: Path) -> None:
    edit(owner, "players.toml", 'name = "Ray Dunmore"', 'name = "Sam Owner"')
    mine = load_profile(owner)
    assert mine.sample is False
    assert mine.source == owner.resolve()
    assert mine.card("pl_01").name == "Sam Owner"
    assert load_profile().card("pl_01").name == "Ray Dunmore"


def test_an_owner_may_transcribe_part_and_inherit_the_rest_of_the_demo(tmp_path: Path) -> None:
    folder = tmp_path / "partial"
    folder.mkdir()
    (folder / "profile.toml").write_text('name = "Half done"\ninherit = "demo"\n', encoding="utf-8")
    (folder / "tactics.toml").write_text(
        '[[card]]\nid = "tac_mine"\nname = "Our tactic"\neffects = [{ op = "gain", resource = "fitness", amount = 1 }]\n',
        encoding="utf-8",
    )
    profile = load_profile(folder)
    assert [t.id for t in profile.cards_of("tactic")] == ["tac_mine"]
    assert len(profile.cards_of("player")) == len(load_profile().cards_of("player"))
    assert profile.sample is True  # most of it is still the demo's sample data


def test_an_unknown_kind_is_a_clear_key_error() -> None:
    with pytest.raises(KeyError, match="unknown card kind"):
        load_profile().cards_of("referee")


def test_every_club_needs_its_own_first_trainer(owner: Path) -> None:
    edit(owner, "board.toml", 'first_trainers = ["st_01", "st_02", "st_03", "st_04"]', 'first_trainers = ["st_01", "st_02", "st_02"]')
    assert load_error(owner) == (
        'board.toml, field "setup.first_trainers": expected 4 different Staff card ids (one for each of max_clubs clubs), '
        "got ['st_01', 'st_02', 'st_02']"
    )


def test_a_club_cannot_keep_more_directors_than_it_is_dealt(owner: Path) -> None:
    edit(owner, "board.toml", "directors_kept = 3", "directors_kept = 5")
    assert load_error(owner) == 'board.toml, field "setup.directors_kept": expected a whole number 1–4, got 5'


def test_a_wrong_board_table_names_the_table(owner: Path) -> None:
    edit(owner, "board.toml", "fanbase = [1, 2, 2, 3, 3, 4]", "fanbase = [1, 2, 2, 3, 3]")
    assert load_error(owner) == (
        'board.toml, field "stats.production.fanbase": expected a list of 6 whole numbers 0–20, got [1, 2, 2, 3, 3]'
    )
