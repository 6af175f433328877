"""``touchline run --sim`` as the owner starts it: what its start leaves for first use (the page's models are built
when first used, the routers of pages seldom opened are loaded on their first request) answers and checks as ever."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .conftest import unlock
from .test_touchline_run import TOUCHLINE, Running


@pytest.fixture
def page(tmp_path: Path) -> Iterator[httpx.Client]:
    """A browser's requests to ``touchline run --sim`` in its own process, unlocked with the PIN it printed."""
    if not TOUCHLINE.exists():
        pytest.fail(f"{TOUCHLINE} is missing: run `make venv` to install the project.")
    table = Running(tmp_path / "touchline.db")
    try:
        with httpx.Client(base_url=table.url, timeout=10) as client:
            client.headers.update(unlock(client, table.pin))
            yield client
    finally:
        table.stop()


def test_a_malformed_body_is_refused_naming_its_field_on_the_table_as_started(page: httpx.Client) -> None:
    refused = page.post("/api/actions/new-game", json={"clubs": [{"seat": 9, "name": "Riverside Town"}]})
    assert refused.status_code == 422
    assert "clubs.0.seat" in [d["field"] for d in refused.json()["detail"]]
    assert page.get("/api/state").json()["game"] is None


def test_the_interface_description_and_a_seats_page_answer_on_the_table_as_started(page: httpx.Client) -> None:
    paths = page.get("/openapi.json").json()["paths"]
    assert {"/api/actions/new-game", "/api/seasons", "/api/seat/{seat}/session", "/api/sim/place"} <= set(paths)
    assert page.get("/seat/3").status_code == 200
    own = page.get("/api/seat/3/session").json()
    assert (own["seat"], own["unlocked"], own["owner"]) == (3, True, True)  # the owner's PIN opens every seat's page
