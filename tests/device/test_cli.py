"""The ``touchline`` command: its subcommands, the games it lists and exports, and its messages."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from device import cli, errors
from drivers import hwcheck
from device.store import EventStore

ROOT = Path(__file__).parents[2]


@pytest.fixture(autouse=True)
def _drop_our_log_handler() -> object:
    """main() installs a stderr handler on the root logger; take it away after each test."""
    yield
    root = logging.getLogger()
    for handler in [h for h in root.handlers if h.get_name() == cli._HANDLER_NAME]:
        root.removeHandler(handler)


def test_the_console_script_is_installed_and_lists_every_command() -> None:
    out = subprocess.run([str(ROOT / ".venv" / "bin" / "touchline"), "--help"], capture_output=True, text=True, check=True)
    for command in ("run", "replay", "enroll", "hw-check", "export", "games", "pin"):
        assert command in out.stdout
    again = subprocess.run([sys.executable, "-m", "device.cli", "--help"], capture_output=True, text=True, check=True)
    assert again.stdout == out.stdout


def log_with_games(path: Path) -> None:
    with EventStore(path) as store:
        first = store.new_game(seats={1: "Ana", 2: "Ben"})
        store.append(first.id, {"type": "roll", "seat": 1, "value": 3})
        store.finish(first.id, status="abandoned")
        second = store.new_game(seats={1: "Cleo"})
        for value in (1, 2):
            store.append(second.id, {"type": "roll", "seat": 1, "value": value})


def test_games_lists_each_kept_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    log_with_games(db)
    assert cli.main(["games", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert lines[1].split()[:2] == ["1", "abandoned"] and lines[1].endswith("1: Ana, 2: Ben")
    assert lines[2].split()[:2] == ["2", "playing"] and lines[2].endswith("1: Cleo")


def test_games_on_an_empty_log_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    assert cli.main(["games", "--db", str(db)]) == 0
    assert capsys.readouterr().out.strip() == cli.NO_GAMES.format(path=db)


def test_export_writes_the_log_of_the_last_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    log_with_games(db)
    assert cli.main(["export", "last", "--db", str(db)]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["game"]["id"] == 2
    assert [e["event"]["value"] for e in document["events"]] == [1, 2]
    out = tmp_path / "game1.csv"
    capsys.readouterr()
    assert cli.main(["export", "1", "--format", "csv", "--db", str(db), "-o", str(out)]) == 0
    assert out.read_text().splitlines()[0] == "seq,time,type,seat,event"
    assert capsys.readouterr().err.strip() == cli.EXPORT_WRITTEN.format(game=1, path=out)


def test_a_bgstats_link_of_a_game_still_being_played_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    log_with_games(db)
    assert cli.main(["export", "2", "--format", "bgstats", "--db", str(db)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert errors.GAME_NOT_OVER.format(game=2) in captured.err


def test_export_of_a_finished_game_gives_a_bgstats_link(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from device import export

    db = tmp_path / "t.db"
    with EventStore(db) as store:
        game = store.new_game(seats={1: "Ana", 2: "Ben"})
        store.append(game.id, {"type": "end"})
        store.finish(game.id)
    view = {"final": [{"seat": 1, "name": "Reds", "total": 20, "breakdown": {}},
                      {"seat": 2, "name": "Blues", "total": 25, "breakdown": {}}]}
    # The engine's replay is exercised in tests/e2e; here its view is given.
    monkeypatch.setattr(export, "engine_final_scoring", lambda game, events: export.final_from_view(view))
    assert cli.main(["export", "1", "--format", "bgstats", "--db", str(db)]) == 0
    link = capsys.readouterr().out.strip()
    play = json.loads(unquote(link.split("data=", 1)[1]))
    assert [(p["name"], p["winner"]) for p in play["players"]] == [("Ben", True), ("Ana", False)]


@pytest.mark.parametrize("game", ["7", "abc"])
def test_export_of_an_unknown_game_says_how_to_find_one(tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str) -> None:
    db = tmp_path / "t.db"
    log_with_games(db)
    assert cli.main(["export", game, "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert "touchline games" in err


def test_the_pin_is_printed_and_stays_the_same(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    assert cli.main(["pin", "--db", str(db)]) == 0
    pin = capsys.readouterr().out.strip()
    assert cli.main(["pin", "--db", str(db)]) == 0
    assert capsys.readouterr().out.strip() == pin and len(pin) == 6


def test_a_file_that_is_no_log_is_reported_without_a_traceback(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    db.write_bytes(b"not sqlite" * 500)
    assert cli.main(["games", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert "is not a Touchline game log" in err and "Traceback" not in err


def test_run_without_a_table_file_says_where_to_get_one(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "INSTALLED_TABLE", tmp_path / "absent.toml")
    monkeypatch.delenv(cli.TABLE_ENV, raising=False)
    monkeypatch.delenv(cli.BACKEND_ENV, raising=False)
    assert cli.main(["run"]) == 2
    assert capsys.readouterr().err.strip() == cli.NO_TABLE_FILE


def test_a_broken_table_file_stops_the_start_with_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "table.toml"
    table.write_text('backend = "sim"\n[[seats]]\nseat = 9\n')
    assert cli.main(["run", "--table", str(table)]) == 2
    err = capsys.readouterr().err
    assert f"{table}:3: seats[1].seat: " in err


def test_run_hands_the_table_and_options_to_the_runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, object]] = []

    def fake_run_table(config: object, **kwargs: object) -> int:
        calls.append({"config": config, **kwargs})
        return 0

    monkeypatch.setattr(cli, "_late", lambda *a: fake_run_table)
    monkeypatch.delenv(cli.TABLE_ENV, raising=False)
    monkeypatch.delenv(cli.DB_ENV, raising=False)
    assert cli.main(["run", "--sim", "--port", "8123", "--db", str(tmp_path / "x.db")]) == 0
    call = calls[0]
    assert call["sim"] is True and call["port"] == 8123 and call["host"] == "127.0.0.1"
    assert call["db_path"] == tmp_path / "x.db"
    assert call["config"].backend == "sim"  # type: ignore[attr-defined]


def test_under_systemd_log_lines_carry_the_journal_priority(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("JOURNAL_STREAM", "8:12345")
    cli.setup_logging("INFO")
    logging.getLogger("device.running").warning("reader 2 went offline")
    logging.getLogger("device.running").debug("not shown")
    assert capsys.readouterr().err == "<4>device.running: reader 2 went offline\n"


def test_the_log_follows_stderr_when_it_is_replaced_and_never_writes_to_a_closed_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.delenv("JOURNAL_STREAM", raising=False)
    monkeypatch.delenv("INVOCATION_ID", raising=False)
    first = io.StringIO()
    monkeypatch.setattr(sys, "stderr", first)
    cli.setup_logging("INFO")
    logging.getLogger("device.store").info("new game log one")
    first.close()  # the terminal (or a harness's capture) the table was started with is gone
    second = io.StringIO()
    monkeypatch.setattr(sys, "stderr", second)
    logging.getLogger("device.store").info("new game log two")
    assert second.getvalue().endswith("INFO device.store: new game log two\n")
    assert "Logging error" not in second.getvalue()


@pytest.mark.parametrize("name", ["sim", "four-seats-spi", "four-seats-hub"])
def test_hw_check_in_simulation_finds_every_device_of_the_table(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    from device.table_file import TABLES_DIR, load_table

    table = load_table(TABLES_DIR / f"{name}.toml")
    assert cli.main(["hw-check", "--sim", "--table", str(TABLES_DIR / f"{name}.toml")]) == 0
    lines = capsys.readouterr().out.splitlines()
    hub_lines = [name for h in table.hubs
                 for name in [h.name] + [p.id for p in sorted(table.pads(), key=lambda p: p.reader or 0) if p.hub == h.name]]
    spi_pads = [p.id for p in table.pads() if p.on_spi]
    buses = sorted({p.bus for p in table.pads() if p.on_spi and sum(q.bus == p.bus for q in table.pads()) > 1})
    expected = (hub_lines + spi_pads + [b.id for b in table.buttons()] + [s.id for s in table.screens()]
                + [f"SPI{bus}" for bus in buses])  # each shared bus checked for a reader driving MISO
    assert [line.split()[2].rstrip(":") for line in lines[:-1]] == expected
    assert all(line.startswith("ok") for line in lines[:-1])
    assert lines[-1] == cli.HW_ALL_FOUND.format(count=len(expected))
    for pad in (p for p in table.pads() if p.hub is not None):
        line = next(line for line in lines if line.split()[2] == f"{pad.id}:")
        assert line.split()[1] == "reader"
        assert line.endswith(hwcheck.HUB_READER_UP.format(number=pad.reader, hub=pad.hub))


@pytest.mark.skipif(Path("/proc/device-tree/model").exists(), reason="on a Raspberry Pi the real devices may answer")
def test_hw_check_off_a_pi_marks_every_device_missing_and_fails(capsys: pytest.CaptureFixture[str],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from device.table_file import TABLES_DIR

    monkeypatch.delenv(cli.BACKEND_ENV, raising=False)
    assert cli.main(["hw-check", "--table", str(TABLES_DIR / "four-seats-spi.toml")]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 16 and all(line.startswith("MISSING") for line in lines[:-1])
    assert "seat1.tap" in lines[0] and ("SPI" in lines[0] or "spidev" in lines[0])
    assert lines[-1] == cli.HW_MISSING.format(missing=15, count=15)


def test_enroll_on_the_simulated_table_stores_the_tag_for_the_picked_card(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from device.store import deck_key
    from device.table_file import default_sim_table

    db = tmp_path / "t.db"
    monkeypatch.setattr(sys, "stdin", io.StringIO("04-A1-B2-C3\ndir_03\nq\n"))
    assert cli.main(["enroll", "--sim", "--db", str(db)]) == 0
    with EventStore(db) as store:
        assert store.card_for("04-A1-B2-C3", deck=deck_key(default_sim_table())) == "dir_03"


def test_replay_of_a_missing_scenario_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.toml"
    assert cli.main(["replay", str(missing)]) == 2
    assert capsys.readouterr().err.strip() == cli.NO_SCENARIO.format(path=missing)


def test_enroll_in_turn_names_each_card_of_the_kinds_asked_and_enter_skips_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    import engine
    from device.enroll import SKIPPED, TAP_NEXT
    from device.store import deck_key
    from device.table_file import default_sim_table

    first, second, third = engine.load_profile().cards_of("tactic")[:3]
    db = tmp_path / "t.db"
    monkeypatch.setattr(sys, "stdin", io.StringIO("04-00-00-01\n\n04-00-00-03\nq\n"))
    assert cli.main(["enroll", "--sim", "--db", str(db), "--in-turn", "--kind", "tactic"]) == 0
    out = capsys.readouterr().out
    assert TAP_NEXT.format(name=first.name, card=first.id) in out
    assert SKIPPED.format(name=second.name, card=second.id) in out
    with EventStore(db) as store:
        deck = deck_key(default_sim_table())
        assert store.card_for("04-00-00-01", deck=deck) == first.id
        assert store.card_for("04-00-00-03", deck=deck) == third.id


@pytest.mark.parametrize(("options", "message"), [
    (["--kind", "tactic"], cli.ENROLL_KIND_NEEDS_IN_TURN),
    (["--write-tags"], cli.ENROLL_WRITE_NEEDS_READERS),
    (["--in-turn", "--kind", "tactics"], None),
])
def test_enroll_options_that_cannot_work_are_refused_before_anything_is_opened(
        options: list[str], message: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import engine

    db = tmp_path / "t.db"
    assert cli.main(["enroll", "--sim", "--db", str(db), *options]) == 2
    if message is None:
        kinds = sorted({card.kind for card in engine.load_profile().cards.values()})
        message = cli.ENROLL_UNKNOWN_KIND.format(kinds="tactics", known=", ".join(kinds))
    assert capsys.readouterr().err.strip() == f"touchline enroll: {message}"
    assert not db.exists()


def test_enroll_with_write_tags_writes_each_card_id_onto_the_tag_tapped_on_a_reader(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import threading

    import engine
    from device import hardware as device_hardware
    from device.enroll import TAP_NEXT_ON_READERS, WRITTEN
    from device.sim import SimHardware
    from device.table_file import TABLES_DIR

    tactics = engine.load_profile().cards_of("tactic")
    uids = [f"A1-B2-C3-{n:02X}" for n in range(len(tactics))]  # MIFARE Classic 1K tags: they have blocks to write on
    written = threading.Semaphore(0)
    read_back: dict[str, str | None] = {}

    class Readers(SimHardware):
        """The table file's SPI readers, simulated; each write is read back from the tag, as another table would."""

        def write_card_id(self, pad: str, card_id: str) -> None:
            super().write_card_id(pad, card_id)
            read_back[self.on_pad[pad]] = self.card_id_on(pad)
            written.release()

    hardware: list[Readers] = []

    def open_readers(config: Any, backend: str) -> Readers:
        assert backend == "real"  # the command asked for the table file's own readers
        hardware.append(Readers(config, threaded=True))
        return hardware[0]

    def finger() -> None:
        for uid in uids:
            while not hardware or hardware[0].scanner is None:
                threading.Event().wait(0.01)
            hardware[0].place_tag("seat1.tap", uid)
            if not written.acquire(timeout=20):
                return

    monkeypatch.setattr(device_hardware, "TableHardware", open_readers)
    monkeypatch.delenv(cli.BACKEND_ENV, raising=False)
    tapping = threading.Thread(target=finger, daemon=True)
    tapping.start()
    db = tmp_path / "t.db"
    assert cli.main(["enroll", "--table", str(TABLES_DIR / "four-seats-spi.toml"), "--db", str(db),
                     "--in-turn", "--kind", "tactic", "--write-tags"]) == 0
    tapping.join(timeout=20)
    assert read_back == {uid: card.id for uid, card in zip(uids, tactics)}
    out = capsys.readouterr().out
    assert TAP_NEXT_ON_READERS.format(name=tactics[0].name, card=tactics[0].id) in out
    assert WRITTEN.format(card=tactics[-1].id, uid=uids[-1]) in out
    assert hardware[0].scanner is None  # the command stopped the readers' threads it started


def test_lgpio_is_given_a_writable_directory_unless_one_is_set(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # lgpio makes its notification pipes in the working directory, and fails in one it cannot write.
    monkeypatch.delenv("LG_WD", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    cli._lgpio_directory()
    assert os.environ["LG_WD"] == str(tmp_path)
    monkeypatch.setenv("LG_WD", "/run/touchline")  # the service's own
    cli._lgpio_directory()
    assert os.environ["LG_WD"] == "/run/touchline"
