"""RFID readers: SPI transfers per poll, ours against the stock mfrc522 package, and tap/lift latency.

Everything runs on the simulated MFRC522 (drivers/rfid/sim.py), whose clock moves with every transfer and
whose cards answer after their air time, so the transfer counts are those a real chip would see.
"""

from __future__ import annotations

import logging
import random
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

from drivers.base import TagReading
from drivers.rfid.reader import Reader, open_reader
from drivers.rfid.scanner import SWEEP_INTERVAL, Scanner
from drivers.rfid.sim import SimCard, SimMfrc522, SimRig, stock_simple

CLASSIC = bytes.fromhex("DEADBEEF")
NTAG = bytes.fromhex("04A31F2B3C4D80")
SELECTS = [(0, 0), (0, 1), (1, 0), (1, 1)]
ROUNDS = 25


def _transfers(chip: SimMfrc522, action: Callable[[], Any]) -> tuple[Any, int]:
    before = chip.transfers
    result = action()
    return result, chip.transfers - before


def _ours(rig: SimRig, name: str, bus: int, device: int) -> Reader:
    return open_reader(name, bus, device, 25, "sim", rig=rig)


def transfer_figures() -> list[tuple[str, str, str, str, bool]]:
    """Rows of (what, ours, stock, target, met)."""
    rows: list[tuple[str, str, str, str, bool]] = []
    rig = SimRig()
    readers = [_ours(rig, f"pad{i}", bus, dev) for i, (bus, dev) in enumerate(SELECTS)]
    ours, chip = readers[0], rig.chip(0, 0)
    stock_rig = SimRig()
    stock = stock_simple(stock_rig)
    stock_chip = stock_rig.chip(0, 0)

    # An empty poll.
    nothing, empty = _transfers(chip, ours.poll)
    stock_nothing, stock_empty = _transfers(stock_chip, stock.read_id_no_block)
    # A poll that made no transfer at all (or "found" a card on an empty field) did not poll the chip.
    rows.append(("empty poll", str(empty), str(stock_empty), "<= 16",
                 nothing is None and stock_nothing is None and 0 < empty <= 16))

    # A sweep of four empty readers.
    sweep, polled = 0, 0
    for reader in readers:
        assert reader.sim is not None
        uid, count = _transfers(reader.sim, reader.poll)
        sweep += count
        polled += uid is None and count > 0
    rows.append(("sweep of 4 empty readers", str(sweep), str(4 * stock_empty), "<= 64",
                 polled == len(readers) and sweep <= 64))

    # A 4-byte UID read as the card lands, then the same card resting on the reader.
    chip.place(SimCard(CLASSIC))
    stock_chip.place(SimCard(CLASSIC))
    uid, read4 = _transfers(chip, ours.poll)
    stock_uid, stock_read4 = _transfers(stock_chip, stock.read_id_no_block)
    ok4 = uid == CLASSIC and stock_uid is not None and read4 <= 42
    rows.append(("4-byte UID read", str(read4), str(stock_read4), "<= 42", ok4))

    resting = [_transfers(chip, ours.poll) for _ in range(ROUNDS * 2)]
    steady = all(u == CLASSIC for u, _ in resting)
    mean_rest = statistics.fmean(n for _, n in resting)
    stock_seen = [stock.read_id_no_block() is not None for _ in range(ROUNDS * 2)]
    # Most polls only check presence (anticollision at level 1); every REIDENTIFY_EVERY-th reads the whole UID again.
    check = statistics.mode(n for _, n in resting)
    rows.append(("resting card, per poll", f"{check} per check, {mean_rest:.1f} mean (present "
                 f"{100 * sum(u == CLASSIC for u, _ in resting) // len(resting)}%)",
                 f"present {100 * sum(stock_seen) // len(stock_seen)}% of polls", "<= 16, always present",
                 steady and check <= 16 and mean_rest <= 16))
    chip.lift()
    stock_chip.lift()

    # A 7-byte UID read (NTAG213): the stock library stops at cascade level 1.
    ours.poll()
    chip.place(SimCard(NTAG, "ntag213"))
    stock_chip.place(SimCard(NTAG, "ntag213"))
    uid7, read7 = _transfers(chip, ours.poll)
    stock_id = stock.read_id_no_block()
    stock_says = f"cannot (reads {stock_id:010X})" if stock_id is not None else "cannot"
    rows.append(("7-byte UID read", str(read7), stock_says, "<= 80", uid7 == NTAG and read7 <= 80))
    for reader in readers:
        reader.close()
    return rows


def latency_figures() -> tuple[list[float], list[float], float]:
    """Wall-clock seconds from a card landing to its tap and from its removal to its lift; idle CPU share."""
    rig = SimRig()
    readers = [_ours(rig, f"pad{i}", bus, dev) for i, (bus, dev) in enumerate(SELECTS)]
    arrived: dict[tuple[str, str], threading.Event] = {}
    lock = threading.Lock()

    def on_reading(reading: Any) -> None:
        if isinstance(reading, TagReading):
            with lock:
                arrived.setdefault((reading.kind, reading.reader), threading.Event()).set()

    def expect(kind: str, name: str) -> threading.Event:
        with lock:
            event = arrived[(kind, name)] = threading.Event()
            return event

    taps: list[float] = []
    lifts: list[float] = []
    chance = random.Random(11)
    with Scanner(readers, on_reading) as scanner:
        time.sleep(0.1)
        cpu_start, wall_start, sweeps_start = time.process_time(), time.perf_counter(), scanner.sweeps
        time.sleep(2.0)
        idle_cpu = (time.process_time() - cpu_start) / (time.perf_counter() - wall_start)
        # A scanner that stopped sweeping would use no CPU at all: count it as missing the target.
        idle_sweeps = scanner.sweeps - sweeps_start
        if idle_sweeps < 2.0 / SWEEP_INTERVAL / 2:
            print(f"   the scanner swept only {idle_sweeps} times in 2 s while idle")
            idle_cpu = float("inf")
        for _ in range(ROUNDS):
            reader = chance.choice(readers)
            assert reader.sim is not None
            time.sleep(chance.uniform(0.0, 0.05))
            tapped = expect("tap", reader.name)
            started = time.perf_counter()
            reader.sim.place(SimCard(NTAG, "ntag213"))
            if tapped.wait(2.0):
                taps.append(time.perf_counter() - started)
            time.sleep(chance.uniform(0.05, 0.2))
            lifted = expect("lift", reader.name)
            started = time.perf_counter()
            reader.sim.lift()
            if lifted.wait(2.0):
                lifts.append(time.perf_counter() - started)
    for reader in readers:
        reader.close()
    return taps, lifts, idle_cpu


def main() -> bool:
    """Print the figures next to their targets; return False when one is missed."""
    logging.getLogger("drivers.rfid").setLevel(logging.WARNING)
    ok = True
    rows = transfer_figures()
    print(f"   {'SPI transfers':32} {'ours':>38} {'stock read_id_no_block':>26} {'target':>22}")
    for what, ours, stock, target, met in rows:
        print(f"   {what:32} {ours:>38} {stock:>26} {target:>22} {'ok' if met else 'MISSED'}")
        ok &= met
    taps, lifts, idle_cpu = latency_figures()
    complete = len(taps) == ROUNDS and len(lifts) == ROUNDS
    tap_median = statistics.median(taps) if taps else float("inf")
    lift_worst = max(lifts) if lifts else float("inf")
    figures = [
        (f"card lands -> tap, median of {ROUNDS} (4 readers)", f"{tap_median * 1000:.0f} ms", "<= 100 ms",
         complete and tap_median <= 0.100),
        ("card lands -> tap, slowest", f"{max(taps, default=float('inf')) * 1000:.0f} ms", "", True),
        ("card removed -> lift, median", f"{statistics.median(lifts) * 1000 if lifts else float('inf'):.0f} ms", "",
         True),
        ("card removed -> lift, slowest", f"{lift_worst * 1000:.0f} ms", "<= 250 ms", complete and lift_worst <= 0.250),
        ("scanner CPU while idle (4 readers)", f"{idle_cpu * 100:.1f} % of a core", "< 5 %", idle_cpu < 0.05),
    ]
    for what, value, target, met in figures:
        print(f"   {what:46} {value:>16} {target:>12} {'ok' if met else 'MISSED'}")
        ok &= met
    return ok


if __name__ == "__main__":
    raise SystemExit(0 if main() else 1)
