"""The choice of backend and the printed form of a UID, shared by every driver."""

from __future__ import annotations

import pytest

from drivers import base
from drivers.base import default_backend, format_uid
from drivers.errors import DriverConfigError


def test_the_environment_wins_over_the_table_file_which_wins_over_real(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(base.BACKEND_ENV, raising=False)
    assert default_backend() == "real"
    assert default_backend(" SIM ") == "sim"
    monkeypatch.setenv(base.BACKEND_ENV, "sim")
    assert default_backend("real") == "sim"
    monkeypatch.setenv(base.BACKEND_ENV, "")
    assert default_backend("real") == "real"


def test_a_backend_that_does_not_exist_is_refused_naming_where_it_came_from(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(base.BACKEND_ENV, "simulation")
    with pytest.raises(DriverConfigError) as caught:
        default_backend("real")
    assert str(caught.value) == base.BAD_BACKEND.format(source=base.BACKEND_ENV, choice="simulation")
    monkeypatch.delenv(base.BACKEND_ENV)
    with pytest.raises(ValueError) as refused:
        default_backend("hardware")
    assert str(refused.value) == base.BAD_BACKEND.format(source="the table file's backend", choice="hardware")


def test_uids_print_as_hyphenated_upper_case_hex() -> None:
    assert format_uid(bytes.fromhex("04a1b2c3d4e5f6")) == "04-A1-B2-C3-D4-E5-F6"
    assert format_uid(bytes.fromhex("deadbeef")) == "DE-AD-BE-EF"
