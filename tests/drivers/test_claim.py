"""One program at a time on the table's hardware: a second one is refused and told which process holds it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

from drivers.claim import BUSY, claim_hardware
from drivers.errors import HardwareBusy

ROOT = Path(__file__).resolve().parents[2]


def test_every_refusal_names_the_process_that_holds_the_hardware() -> None:
    # A person may try hw-check, enroll and bench-test one after the other beside the running service: each
    # refusal must still say which process to stop, however many came before it.
    name = f"touchline-test-{uuid.uuid4().hex}"
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys
            from drivers.claim import claim_hardware
            claim = claim_hardware({name!r})
            print("held", flush=True)
            sys.stdin.read()
        """)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        for attempt in range(5):
            with pytest.raises(HardwareBusy) as refused:
                claim_hardware(name)
            assert str(refused.value) == BUSY.format(holder=f"process {holder.pid}"), f"refusal {attempt + 1}"
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=10)
    # once the holder has gone, whoever comes next gets the hardware
    with claim_hardware(name):
        pass
