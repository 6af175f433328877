"""A full card under the real ``touchline run --sim``: the game log sits on a small filesystem of its own (a tmpfs
mounted for the test), which is filled up.

Each time a tapped card cannot be recorded, every screen and the page say that the game cannot be saved and what
to do; the game is exactly as before (nothing lost, nothing half-done); once there is room again the same tap is
recorded and the table goes on.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

import engine
from device import errors as device_errors
from device.session import CANNOT_SAVE
from device.store import EventStore
from engine.views import TABLE
from tests.e2e.touchline_run import TouchlineRun, client, wait_for
from tests.web.test_browser import Visits, browser, shoot  # noqa: F401  (browser is a fixture)

pytestmark = [pytest.mark.slow, pytest.mark.browser]
FORM = {"clubs": [{"seat": 1, "name": "Red Lions"}, {"seat": 2, "name": "Blue Birds"}]}


@pytest.fixture
def card(tmp_path: Path) -> Iterator[Path]:
    """A 3 MB filesystem for the game log, as small as a nearly full SD card."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem for the game log needs root (CI and the dev machines run as root)")
    where = tmp_path / "card"
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _fill(folder: Path) -> Path:
    """Write a file until the filesystem has no room left; return it."""
    filler = folder / "filler"
    with contextlib.suppress(OSError), open(filler, "wb", buffering=0) as out:
        while True:
            out.write(b"\0" * 4096)
    return filler


def _state(running: TouchlineRun) -> dict[str, Any]:
    with client() as page:
        return page.get(running.url + "/api/state").json()  # type: ignore[no-any-return]


def _tap(running: TouchlineRun, headers: dict[str, str], page: Any, card_id: str) -> None:
    for action in ("place", "lift"):
        body = {"pad": "seat1.tap", "card": card_id} if action == "place" else {"pad": "seat1.tap"}
        answer = page.post(running.url + f"/api/sim/{action}", json=body, headers=headers)
        assert answer.status_code == 200, answer.text


def test_a_full_card_loses_nothing_says_so_and_the_table_goes_on_once_there_is_room(card: Path,
                                                                                   browser: Browser) -> None:
    db = card / "touchline.db"
    profile = engine.load_profile()
    with TouchlineRun(db) as running, client() as page:
        headers = running.unlock(page)
        assert page.post(running.url + "/api/actions/new-game", json=FORM, headers=headers).status_code == 200
        wait = next(w for w in _state(running)["game"]["awaiting"] if w["seat"] == 1)
        assert wait["need"] == "card"
        board = [c["id"] for c in page.get(running.url + "/api/deck", params={"kind": "board_meeting"}).json()]
        # The owner enrols the Board meeting card first (a tap while enrolling is not played).
        assert page.post(running.url + "/api/actions/enrol/start", headers=headers).status_code == 200
        _tap(running, headers, page, board[0])
        assert page.post(running.url + "/api/actions/enrol/cancel", headers=headers).status_code == 200
        before = _state(running)
        events = before["game"]["events"]

        filler = _fill(card)
        _tap(running, headers, page, board[0])
        full = device_errors.STORE_FULL.format(path=db)
        shown = wait_for(lambda: (s := _state(running))["problem"] == full and s, "the page saying the card is full")
        # Nothing happened to the game: the tap was not taken, and every screen says why instead of asking again.
        assert shown["game"] == before["game"]
        for screen in shown["screens"].values():
            assert CANNOT_SAVE in screen["lines"]
        # Every page says it, on top, as the table's page is seen.
        visits = Visits(browser, viewport={"width": 1280, "height": 800})
        table_page = visits.page(running.url + "/")
        expect(table_page.locator("#problem")).to_have_text(full)
        shoot(table_page, "full-card-table-page")
        # A change from the page is refused with the same sentence, not a bare 500.
        answer = page.post(running.url + "/api/actions/correction", headers=headers,
                           json={"seat": 1, "what": "budget", "delta": 1, "reason": "found a coin"})
        assert answer.status_code == 503 and answer.json()["detail"] == full
        assert _state(running)["game"] == before["game"]

        filler.unlink()  # room again: the same tap is taken and the table goes on
        _tap(running, headers, page, board[0])
        after = wait_for(lambda: (s := _state(running))["game"]["events"] > events and s, "the tap recorded")
        assert after["problem"] is None
        expect(table_page.locator("#problem")).to_be_hidden()
        # The interface documentation comes from the table alone, even with no room on its card.
        docs = visits.page(running.url + "/docs")
        expect(docs.locator(".swagger-ui .info .title")).to_contain_text("Touchline")
        assert visits.outside(running.url) == []
        visits.context.close()
        assert next(c for c in after["game"]["clubs"] if c["seat"] == 1)["board_card"] == board[0]

        final = after
    with EventStore(db) as store:  # and what the page showed is what the log holds
        game = store.current_game()
        assert game is not None
        folded = engine.view(profile, engine.replay(profile, store.events(game.id)), TABLE)
        assert json.loads(json.dumps(folded)) == final["game"]


@pytest.fixture
def failing_card(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """An ext4 filesystem on a loop device, mounted as Raspberry Pi OS mounts its card (errors=remount-ro), and the
    kernel's switch that makes it fail as a worn SD card does: it turns read-only under the running table."""
    if os.geteuid() != 0:
        pytest.skip("mounting a filesystem image for the game log needs root (CI and the dev machines run as root)")
    image, where = tmp_path / "card.img", tmp_path / "card"
    where.mkdir()
    subprocess.run(["truncate", "-s", "16M", str(image)], check=True)
    subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], check=True)
    subprocess.run(["mount", "-o", "loop,errors=remount-ro", str(image), str(where)], check=True)
    try:
        device = subprocess.run(["findmnt", "-no", "SOURCE", str(where)], capture_output=True, text=True,
                                check=True).stdout.strip()
        yield where, Path("/sys/fs/ext4") / Path(device).name / "trigger_fs_error"
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_card_that_turns_read_only_under_the_table_says_so_and_loses_nothing(
        failing_card: tuple[Path, Path]) -> None:
    card, trigger = failing_card
    db = card / "touchline.db"
    with TouchlineRun(db) as running, client() as page:
        headers = running.unlock(page)
        assert page.post(running.url + "/api/actions/new-game", json=FORM, headers=headers).status_code == 200
        before = _state(running)
        trigger.write_text("touchline test: the card fails\n")  # the kernel remounts it read-only at once
        answer = page.post(running.url + "/api/actions/correction", headers=headers,
                           json={"seat": 1, "what": "budget", "delta": 1, "reason": "found a coin"})
        read_only = device_errors.STORE_READ_ONLY.format(path=db)
        assert answer.status_code == 503 and answer.json()["detail"] == read_only
        state = _state(running)
        assert state["problem"] == read_only and state["game"] == before["game"]
        assert all(CANNOT_SAVE in screen["lines"] for screen in state["screens"].values())
        assert running.stop() == 0
    assert "Traceback" not in running.text()
