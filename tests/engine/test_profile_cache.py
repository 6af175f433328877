"""A table keeps its checked deck between starts, and never shows a kept deck over the owner's files."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import loader, profile_cache
from engine.loader import DEMO_FOLDER, DataError, load_profile


@pytest.fixture
def kept(tmp_path: Path) -> Iterator[Path]:
    """Profiles are kept in a folder of this test; the in-memory cache is cleared before and after."""
    folder = tmp_path / "kept"
    profile_cache.folder = folder
    loader.clear_cache()
    yield folder
    profile_cache.folder = None
    loader.clear_cache()


@pytest.fixture
def deck(tmp_path: Path) -> Path:
    """An owner's copy of the shipped deck."""
    return Path(shutil.copytree(DEMO_FOLDER, tmp_path / "deck"))


def restart() -> None:
    """What a new start of the table forgets: everything held in memory."""
    loader.clear_cache()


def test_the_next_start_reads_the_kept_deck_without_checking_the_files_again(
        kept: Path, deck: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = load_profile(deck)
    restart()
    monkeypatch.setattr(loader, "_build", lambda *_: pytest.fail("the deck was read and checked again"))
    assert load_profile(deck) == first


def test_a_card_edited_between_starts_is_read_from_the_file(kept: Path, deck: Path) -> None:
    load_profile(deck)
    restart()
    players = deck / "directors.toml"
    players.write_text(players.read_text().replace('name = "Margaret Hale"', 'name = "Margaret Hale-Okafor"'))
    assert any(card.name == "Margaret Hale-Okafor" for card in load_profile(deck).cards.values())


def test_a_deck_broken_between_starts_is_refused_not_hidden_by_the_kept_one(kept: Path, deck: Path) -> None:
    load_profile(deck)
    restart()
    (deck / "directors.toml").write_text("[[card]\n")
    with pytest.raises(DataError, match="directors.toml"):
        load_profile(deck)


def test_a_damaged_kept_file_is_passed_over_and_the_deck_read_from_its_files(kept: Path, deck: Path) -> None:
    first = load_profile(deck)
    (file,) = kept.iterdir()
    for damage in ("emptied", "garbage under its fingerprint", "cut short"):
        body = file.read_bytes()  # kept again by the load before
        key = body[:body.index(b"\n") + 1]
        file.write_bytes({"emptied": b"", "garbage under its fingerprint": key + b"not a kept profile",
                          "cut short": body[:len(body) // 2]}[damage])
        restart()
        assert load_profile(deck) == first, damage


def test_a_folder_that_cannot_be_written_keeps_nothing_and_the_deck_still_loads(tmp_path: Path, deck: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    profile_cache.folder = blocked / "kept"  # under a file: never a folder
    try:
        loader.clear_cache()
        assert load_profile(deck).cards
        restart()
        assert load_profile(deck).cards
    finally:
        profile_cache.folder = None
        loader.clear_cache()


def test_the_folder_keeps_the_most_recently_used_decks_only(kept: Path, tmp_path: Path) -> None:
    """A shop that tries many decks (or a test run that makes hundreds) does not fill the disk: the decks of the last
    `KEPT_DECKS` folders used are kept, and the deck in use is never the one passed over."""
    decks = [Path(shutil.copytree(DEMO_FOLDER, tmp_path / f"deck-{n}")) for n in range(profile_cache.KEPT_DECKS + 3)]
    load_profile(decks[0])
    for n, deck in enumerate(decks[1:], start=1):
        restart()
        load_profile(deck)
        restart()
        load_profile(decks[0])  # the table's own deck, used again after each other one
        assert len(list(kept.iterdir())) == min(n + 1, profile_cache.KEPT_DECKS)
    kept_now = {file.name for file in kept.iterdir()}
    assert profile_cache._file(decks[0]).name in kept_now
    assert profile_cache._file(decks[-1]).name in kept_now
    assert profile_cache._file(decks[1]).name not in kept_now  # the oldest of the others
