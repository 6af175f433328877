"""The whole suite's options: ``--quick`` (``make quick``) keeps the developer's inner loop under half a minute.

``make test`` runs everything.  ``make quick`` leaves out what takes seconds each: tests marked ``slow`` or
``browser``, the end-to-end runs of whole games, and the modules and tests below, which install, fuzz, start tables
in processes of their own, or play games far on the simulated table.  Everything left out still runs in ``make test``
(and in CI).
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

NOT_QUICK = (
    "tests/e2e/",  # whole games on the simulated table, killed and restarted tables
    "tests/soak/",
    "tests/engine/test_properties.py",  # random play, hundreds of events per example
    "tests/engine/test_data_fuzz.py",
    "tests/device/test_systemd.py",  # the installer, run against a fake root
    "tests/device/test_bench_test.py",
    "tests/device/test_hardening_inputs.py",
    "tests/device/test_oled_table.py",  # every screen of a whole game
    "tests/device/test_export_players.py",
    "tests/device/test_watchdog.py",
    "tests/drivers/test_hub_firmware.py",  # compiles the hub's firmware
    # Games played far on the real table (to a Matchday, a transfer window, the Winter Break or the end), each
    # checked step by step
    "tests/device/test_game_log.py::test_the_whole_game_is_kept_across_a_restart",
    "tests/device/test_export.py::test_a_whole_game_in_the_log_exports",
    "tests/device/test_transfers_table.py",
    "tests/engine/test_lineup.py::test_why_not_agrees_with_the_reducer_over_a_whole_played_game",
    "tests/engine/modules/test_epic_league.py::test_the_final_scoring_uses_the_epic_league_vp_table",
    "tests/web/test_epic_league_page.py::test_no_objective_reaches_a_public_route",
    "tests/web/test_club_matches_page.py",
    "tests/web/test_no_leak.py",
    "tests/web/test_betting_page.py::test_the_play_page_places_a_clubs_bet",
    "tests/web/test_seat_page.py::test_a_seats_page_places_its_bet_in_secret",
    "tests/web/test_choices.py::test_a_token_built_from_the_page_offers_its_action_on_a_later_turn",
    "tests/web/test_choices.py::test_unpaid_maintenance_is_settled_by_choosing_cards_on_the_page",
    "tests/web/test_transfers_page.py",
    "tests/web/test_actions.py::test_resources_assigned_to_a_playing_card_are_paid_and_lie_on_the_card",
    "tests/web/test_actions.py::test_a_lineup_breaking_the_rules_is_refused",
    "tests/web/test_actions.py::test_a_lineup_may_leave_out_the_side_of_a_jersey_marker",
    "tests/web/test_lineup_api.py::test_a_body_over_the_table_s_limit_is_not_read",
    "tests/web/test_lineup_api.py::test_check_names_the_marker_at_fault",
    "tests/web/test_lineup_api.py::test_fill_refuses_markers_the_rules_refuse",
    # A table started in a process of its own, or cards enrolled through the drivers' threads
    "tests/device/test_runtime.py::test_a_busy_port_is_a_clear_message_and_a_clean_exit",
    "tests/device/test_runtime.py::test_running_a_real_table_without_its_hardware_says_what_is_missing",
    "tests/device/test_runtime.py::test_taps_of_a_choice_under_way_survive_a_restart",
    "tests/device/test_enroll.py::test_tapping_on_a_reader_enrols_and_writes_the_card_id_onto_the_tag",
    "tests/device/test_cli.py::test_enroll_with_write_tags_writes_each_card_id_onto_the_tag",
    # Random input by the thousand, and dice rolled until their fairness shows
    "tests/drivers/test_hub.py::test_no_bytes_on_the_wire_crash_the_parser",
    "tests/drivers/test_dice.py::test_system_dice_are_fair",
    "tests/drivers/test_buttons.py::test_any_chattering_sequence_gives_one_reading_per_real_press",
    # Damaged logs rebuilt page by page, and import graphs read from every source file
    "tests/device/test_store.py::test_a_log_with_damaged_pages_is_kept_aside",
    "tests/device/test_log_integrity.py::test_a_damaged_frame_in_the_middle_is_found",
    "tests/engine/test_imports.py",
    "tests/device/test_imports.py::test_no_module_of_device_imports_itself_through_another",
)
"""Test modules ``make quick`` leaves to ``make test``."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--quick", action="store_true",
                     help="the inner loop: leave out slow, browser and whole-game tests (make quick)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("--quick"):
        return
    kept, left = [], []
    for item in items:
        slow = item.get_closest_marker("slow") or item.get_closest_marker("browser")
        (left if slow or item.nodeid.startswith(NOT_QUICK) else kept).append(item)
    config.hook.pytest_deselected(items=left)
    items[:] = kept


_CACHE_ENV = "XDG_CACHE_HOME"
_cache_before: list[str | None] = []


def pytest_configure(config: pytest.Config) -> None:
    """Tables started by the tests keep their checked decks in a folder of this run, not in the user's own cache
    (where hundreds of temporary decks would pass over the deck of the user's table)."""
    _cache_before.append(os.environ.get(_CACHE_ENV))
    os.environ[_CACHE_ENV] = tempfile.mkdtemp(prefix="touchline-test-cache-")


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = os.environ.get(_CACHE_ENV)
    before = _cache_before.pop() if _cache_before else None
    if before is None:
        os.environ.pop(_CACHE_ENV, None)
    else:
        os.environ[_CACHE_ENV] = before
    if folder and os.path.basename(folder).startswith("touchline-test-cache-"):
        shutil.rmtree(folder, ignore_errors=True)
