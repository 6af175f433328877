"""Enrolling cards: tap each card in turn, or tap one and pick it; a tag already mapped says which card it is."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from device import enroll as E
from device.enroll import Enrolment, by_pick, in_turn, tags
from device.store import open_store
from engine.loader import load_profile


@pytest.fixture(scope="module")
def profile():  # type: ignore[no-untyped-def]
    return load_profile(None)


@pytest.fixture
def store(tmp_path: Path):  # type: ignore[no-untyped-def]
    s = open_store(tmp_path / "log.db")
    yield s
    s.close()


def test_in_turn_maps_each_tapped_tag_to_the_named_card(store, profile) -> None:  # type: ignore[no-untyped-def]
    enrolment = Enrolment(store, profile)
    cards = enrolment.cards(["board_meeting"])[:3]
    said: list[str] = []
    count = in_turn(enrolment, cards, tags(["04-00-00-01", None, "04-00-00-03"]), said.append)
    assert count == 2
    assert store.card_for("04-00-00-01") == cards[0].id
    assert store.card_for("04-00-00-03") == cards[2].id
    assert E.SKIPPED.format(name=cards[1].name, card=cards[1].id) in said
    assert said[-1] == E.DONE.format(count=2)


def test_a_tag_already_mapped_says_to_which_card_and_changes_nothing(store, profile) -> None:  # type: ignore[no-untyped-def]
    enrolment = Enrolment(store, profile)
    first, second = enrolment.cards(["player"])[:2]
    assert enrolment.offer("04-AA", first.id).enrolled
    again = enrolment.offer("04-AA", second.id)
    assert not again.enrolled
    assert again.message == E.TAKEN.format(uid="04-AA", name=first.name, card=first.id)
    assert store.card_for("04-AA") == first.id


def test_pick_from_the_deck_by_part_of_the_name(store, profile) -> None:  # type: ignore[no-untyped-def]
    enrolment = Enrolment(store, profile)
    card = profile.cards["pl_01"]
    answers = iter(["zzz-no-such-card", card.name])
    said: list[str] = []
    by_pick(enrolment, tags(["04-BB"]), lambda prompt: next(answers), said.append)
    assert E.NO_MATCH.format(query="zzz-no-such-card") in said
    assert store.card_for("04-BB") == "pl_01"


def test_an_ambiguous_pick_asks_for_more(store, profile) -> None:  # type: ignore[no-untyped-def]
    result = Enrolment(store, profile).pick("04-CC", "pl_")
    assert not result.enrolled and "cards match 'pl_'" in result.message
    assert store.card_for("04-CC") is None


def test_writer_is_asked_to_write_the_card_id_onto_the_tag(store, profile) -> None:  # type: ignore[no-untyped-def]
    written: list[tuple[str, str]] = []
    result = Enrolment(store, profile, writer=lambda uid, card: written.append((uid, card))).offer("04-DD", "st_05")
    assert written == [("04-DD", "st_05")]
    assert E.WRITTEN.format(card="st_05", uid="04-DD") in result.message


def test_enroll_command_in_simulation_reads_typed_uids(tmp_path: Path) -> None:
    from device.table_file import default_sim_table

    out = io.StringIO()
    code = E.enroll(default_sim_table(), tmp_path / "x.db", sim=True, stdin=io.StringIO("04-EE-01\nbm_02\n\n"), stdout=out)
    assert code == 0
    s = open_store(tmp_path / "x.db")
    try:
        assert s.card_for("04-EE-01") == "bm_02"
    finally:
        s.close()
    assert E.DONE.format(count=1) in out.getvalue()


def test_tapping_on_a_reader_enrols_and_writes_the_card_id_onto_the_tag(tmp_path: Path) -> None:
    import threading
    import time

    from device.sim import SimHardware
    from device.table_file import default_sim_table

    hardware = SimHardware(default_sim_table(), threaded=True)
    uid = "A1-B2-C3-D4"  # a MIFARE Classic 1K: it has blocks to write on

    def finger() -> None:
        deadline = time.monotonic() + 10
        while hardware.scanner is None and time.monotonic() < deadline:
            time.sleep(0.01)
        hardware.place_tag("seat1.tap", uid)

    threading.Thread(target=finger, daemon=True).start()
    out = io.StringIO()
    try:
        E.enroll(default_sim_table(), tmp_path / "w.db", hardware=hardware, write_tags=True, idle_stop=3,
                 stdin=io.StringIO("bm_03\n"), stdout=out)
        assert hardware.card_id_on("seat1.tap") == "bm_03"
    finally:
        hardware.stop()
    s = open_store(tmp_path / "w.db")
    try:
        assert s.card_for(uid) == "bm_03"
    finally:
        s.close()
    assert E.WRITTEN.format(card="bm_03", uid=uid) in out.getvalue()


def test_a_tag_with_a_card_id_written_on_it_is_recognised_without_an_enrolment(tmp_path: Path) -> None:
    from device.sim import SimulatedTable

    uid = "A1-B2-C3-D5"
    with SimulatedTable.open(tmp_path / "other.db") as table:
        table.place_tag("seat1.tap", uid)
        table.hardware.write_card_id("seat1.tap", "bm_03")  # as another table's enrolment did
        table.lift("seat1.tap")
        assert table.session.store.card_for(uid) is None
        table.place_tag("seat1.tap", uid)
        assert table.session.store.card_for(uid) == "bm_03"
