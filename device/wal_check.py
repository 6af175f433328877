"""Reading a SQLite write-ahead log (WAL) before SQLite does, to find committed changes it would drop.

SQLite replays the WAL at start up to the first frame whose checksum is wrong and silently ignores everything after
it, committed or not.  A damaged frame in the middle (a failing SD card, a bit flipped in a write) therefore loses
every change saved after it without a word.  :func:`check_wal` walks the frames as SQLite does (format and
checksums from https://www.sqlite.org/fileformat2.html#walformat) and counts the commits that lie beyond the break.

A break inside the very last transaction is what a pulled plug leaves behind when it cut a write short; that write
was never acknowledged, so it is not reported.  A break with more commits after it lies in a write that was synced
to the card before the next one began: every commit from there on was acknowledged and is reported lost.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

WAL_MAGIC = (0x377F0682, 0x377F0683)
HEADER = 32
FRAME_HEADER = 24


@dataclass(frozen=True)
class WalReport:
    """What SQLite will make of a WAL file."""

    frames: int
    """Frames in the file (whole ones)."""
    kept: int
    """Commits SQLite will replay."""
    lost: int
    """Commits after a damaged frame that SQLite will drop although they were acknowledged."""

    @property
    def damaged(self) -> bool:
        """Whether acknowledged changes would be lost."""
        return self.lost > 0


def _checksum(data: bytes, s0: int, s1: int, big_endian: bool) -> tuple[int, int]:
    """SQLite's WAL checksum over ``data`` (a multiple of 8 bytes), continuing from (s0, s1)."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def check_wal(path: str | Path) -> WalReport:
    """Walk the WAL at ``path`` (missing or empty: nothing to report) and count what SQLite would keep and drop."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return WalReport(0, 0, 0)
    if len(data) < HEADER:
        return WalReport(0, 0, 0)
    magic, _version, page_size, _checkpoint, salt1, salt2, c0, c1 = struct.unpack(">8I", data[:HEADER])
    if magic not in WAL_MAGIC or page_size < 512 or page_size > 65536 or page_size & (page_size - 1):
        return WalReport(0, 0, 0)  # not a WAL SQLite would read at all: there is nothing in it it could replay
    big_endian = bool(magic & 1)
    frame_size = FRAME_HEADER + page_size
    frames = (len(data) - HEADER) // frame_size
    salts = data[16:24]
    header_ok = _checksum(data[:24], 0, 0, big_endian) == (c0, c1)
    s0, s1 = c0, c1
    kept = 0
    good = 0  # frames SQLite accepts, up to and including the last commit it replays
    position = HEADER
    if header_ok:
        for index in range(frames):
            frame = data[position:position + frame_size]
            if frame[8:16] != salts:
                break
            s0, s1 = _checksum(frame[:8] + frame[FRAME_HEADER:], s0, s1, big_endian)
            if (s0, s1) != struct.unpack(">2I", frame[16:24]):
                break
            if struct.unpack(">I", frame[4:8])[0]:  # "database size after commit": a commit frame
                kept += 1
                good = index + 1
            position += frame_size
    # Commits of this WAL's generation (same salts) that SQLite will not replay.
    beyond = [index for index in range(good, frames)
              if data[HEADER + index * frame_size + 8:HEADER + index * frame_size + 16] == salts
              and struct.unpack(">I", data[HEADER + index * frame_size + 4:HEADER + index * frame_size + 8])[0]]
    # One alone may be the last write, cut short by the plug (never acknowledged).  With more, the break lies in an
    # earlier write that was synced before the next began: they are all lost.
    lost = len(beyond) if len(beyond) > 1 else 0
    return WalReport(frames, kept, lost)
