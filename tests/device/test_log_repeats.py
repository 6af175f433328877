"""The same log line said thousands of times is written once, then once with its count."""

from __future__ import annotations

import io
import logging

from device.log_repeats import CollapsingHandler
from drivers.base import ManualClock


def test_a_flood_of_one_line_is_written_once_then_with_its_count() -> None:
    out = io.StringIO()
    clock = ManualClock()
    handler = CollapsingHandler(logging.StreamHandler(out), window=60, clock=clock)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    log = logging.getLogger("test.flood")
    log.propagate = False
    log.setLevel(logging.INFO)
    log.addHandler(handler)
    try:
        for _ in range(10_000):
            log.warning("refused a connection from %s: %s", "10.0.0.7", "too many")
            clock.advance(0.001)
        log.warning("refused a connection from %s: %s", "10.0.0.8", "too many")  # another device: its own line
        clock.advance(60)
        log.info("the table goes on")
        handler.flush()
    finally:
        log.removeHandler(handler)
    assert out.getvalue().splitlines() == [
        "WARNING refused a connection from 10.0.0.7: too many",
        "WARNING refused a connection from 10.0.0.8: too many",
        "WARNING refused a connection from 10.0.0.7: too many (said 9999 more time(s) in the last 60 s)",
        "INFO the table goes on",
    ]
