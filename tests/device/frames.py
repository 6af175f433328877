"""Screens checked as rendered frames: a simulated panel's frame against a reviewed reference image."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from device.sim import SimulatedTable

REFERENCE = Path(__file__).with_name("reference")


def frame_is(table: SimulatedTable, screen_id: str, name: str, tmp_path: Path) -> None:
    """The panel's frame is the reviewed reference image ``name`` (saved beside the test's tmp dir when not)."""
    frame = table.hardware.frame(screen_id)
    reference = REFERENCE / name
    expected = Image.open(reference).convert("1") if reference.exists() else Image.new("1", frame.size)
    if not reference.exists() or ImageChops.difference(frame.convert("L"), expected.convert("L")).getbbox() is not None:
        frame.save(tmp_path / name)
        pytest.fail(f"{screen_id} differs from tests/device/reference/{name} (new frame: {tmp_path / name})")
