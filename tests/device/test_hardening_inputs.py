"""Bad input of every kind gets a sentence, never a traceback: a deck that is missing, not a folder or too small to
deal a game, a table file nested too deeply, malformed scenario files, and a hundred hands on one virtual pad."""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

import engine
from device import cli
from device.errors import TABLE_FILE_SYNTAX, TOO_DEEP
from engine.deal_check import CANNOT_DEAL, TOO_FEW, check_deal
from engine.loader import DEMO_FOLDER
from tests.e2e.touchline_run import TOUCHLINE, TouchlineRun, client

SIM_TABLE = Path(__file__).resolve().parents[2] / "device" / "tables" / "sim.toml"


def _table_with_deck(tmp_path: Path, deck: str) -> Path:
    table = tmp_path / "table.toml"
    table.write_text(f'deck = "{deck}"\n' + SIM_TABLE.read_text())
    return table


def _run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(TOUCHLINE), *args], capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("deck", ["no-such-folder", "a-file"])
def test_a_deck_that_is_missing_or_not_a_folder_is_a_sentence(tmp_path: Path, deck: str) -> None:
    (tmp_path / "a-file").write_text("not a deck\n")
    done = _run("run", "--table", str(_table_with_deck(tmp_path, deck)), "--db", str(tmp_path / "t.db"),
                "--port", "1")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr + done.stdout
    assert f"touchline run: {tmp_path / deck} is not a folder: point Touchline at the folder" in done.stderr


def _deck_without(tmp_path: Path, kind_file: str) -> Path:
    deck = tmp_path / "deck"
    shutil.copytree(DEMO_FOLDER, deck)
    text = (deck / kind_file).read_text()
    (deck / kind_file).write_text(text.split("[[card]]")[0])  # the comments at the top, no card
    return deck


@pytest.mark.parametrize(("kind_file", "kind"), [("objectives.toml", "Objective"), ("directors.toml", "Director"),
                                                 ("tactics.toml", "Tactic"), ("veterans.toml", "Veteran"),
                                                 ("youngsters.toml", "Youngster")])
def test_a_deck_that_cannot_deal_a_game_for_the_tables_seats_is_refused_at_start(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kind_file: str, kind: str) -> None:
    deck = _deck_without(tmp_path, kind_file)
    engine.load_profile(deck)  # the loader takes it: each file on its own is fine
    table = _table_with_deck(tmp_path, str(deck))
    assert cli.main(["run", "--table", str(table), "--db", str(tmp_path / "t.db"), "--port", "1"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert f"touchline run: The deck {deck} cannot deal a game for 4 clubs: it has 0 {kind} card(s)" in err
    assert f"({kind_file})" in err


def test_the_shipped_deck_deals_for_four_clubs_and_a_short_one_says_what_it_lacks(tmp_path: Path) -> None:
    assert check_deal(engine.load_profile(), 4, "demo") is None
    profile = engine.load_profile(_deck_without(tmp_path, "tactics.toml"))
    assert check_deal(profile, 2, "mine") == CANNOT_DEAL.format(
        deck="mine", clubs=2, problem=TOO_FEW.format(have=0, kind="Tactic", clubs=2, need=2, file="tactics.toml"))


def test_a_table_file_nested_too_deeply_is_a_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "table.toml"
    table.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    assert cli.main(["run", "--table", str(table)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip() == TABLE_FILE_SYNTAX.format(path=table, reason=TOO_DEEP)


@pytest.mark.parametrize(("steps", "said"), [
    ('[[step]]\npage = "new_game"\nclubs = "abc"\n', "step 1 (line 2): the page action 'new_game': clubs:"),
    ('[[step]]\npage = "new_game"\nclubs = [{ seat = 1, name = "A" }]\n[[step]]\npage = "lineup"\nseat = 1\n'
     'players = 5\n', "step 2 (line 5): the page action 'lineup': players:"),
    ("step = [1, 2]\n", "step 1: 1 is not a step: each step is a [[step]] table"),
])
def test_malformed_scenario_files_are_sentences(tmp_path: Path, steps: str, said: str) -> None:
    scenario = tmp_path / "bad.toml"
    scenario.write_text('title = "bad"\n' + steps)
    done = _run("replay", str(scenario))
    assert done.returncode in (1, 2)
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"touchline replay: {said}")


@pytest.mark.slow
def test_a_hundred_hands_on_one_virtual_pad_at_once_get_answers_not_tracebacks(tmp_path: Path) -> None:
    with TouchlineRun(tmp_path / "t.db") as running, client() as page:
        headers = running.unlock(page)
        page.post(running.url + "/api/actions/new-game", json={"clubs": [{"seat": 1, "name": "A"}]}, headers=headers)
        cards = [c["id"] for c in page.get(running.url + "/api/deck").json()][:100]
        answers: list[int] = []

        def place(card: str) -> None:
            # One hand at a time reaches the pad, so the last of a hundred waits for the other 99.
            with client(cookies=dict(page.cookies), timeout=300) as hand:
                answers.append(hand.post(running.url + "/api/sim/place", json={"pad": "seat1.tap", "card": card},
                                         headers=headers).status_code)

        hands = [threading.Thread(target=place, args=(card,)) for card in cards]
        for hand in hands:
            hand.start()
        for hand in hands:
            hand.join(timeout=300)
        assert answers == [200] * len(cards)
        # The pad holds exactly one card, as a real pad does, and the table still answers.
        layout = page.get(running.url + "/api/sim/layout").json()
        assert next(p for p in layout["pads"] if p["id"] == "seat1.tap")["card"] in cards
        assert page.post(running.url + "/api/sim/lift", json={"pad": "seat1.tap"}, headers=headers).status_code == 200
        assert page.get(running.url + "/api/state").status_code == 200
    assert not re.search(r"Traceback|Exception in|Error:", running.text()), running.text()[-3000:]
