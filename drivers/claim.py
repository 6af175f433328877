"""One program at a time on a table's hardware: the running table, ``hw-check``, ``enroll`` or ``bench-test``.

Two programs on the same Pi fight over everything: GPIO lines one holds read as missing to the other, both
switch the I2C multiplexer (frames land on the wrong screen), and the hub's port opened twice splits its lines.
Whoever opens the real hardware first binds an abstract Unix socket named after the table's hardware; a second
program finds the name taken and is refused with a sentence. The kernel releases the name when the holder
exits, however it exits (a crash or a SIGKILL leaves nothing stale behind), and an abstract name needs no
writable directory, so the service and a person's shell see the same one.
"""

from __future__ import annotations

import errno
import os
import socket
import threading

from drivers.errors import HardwareBusy

CLAIM_NAME = "touchline-table-hardware"
BUSY = ("The table's hardware is in use by another Touchline program ({holder}): the running table (the touchline "
        "service) or another hw-check, enroll or bench-test. Stop it first (sudo systemctl stop touchline), run this "
        "again, then start it again (sudo systemctl start touchline).")

_lock = threading.Lock()
_held: dict[str, tuple[socket.socket, int]] = {}


class HardwareClaim:
    """This process's hold on the table's hardware; release it with :meth:`release` or a ``with`` block."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._released = False

    def release(self) -> None:
        """Let another program use the hardware (once every holder in this process has released it)."""
        with _lock:
            if self._released:
                return
            self._released = True
            sock, count = _held[self.name]
            if count > 1:
                _held[self.name] = (sock, count - 1)
            else:
                del _held[self.name]
                sock.close()

    def __enter__(self) -> HardwareClaim:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def claim_hardware(name: str = CLAIM_NAME) -> HardwareClaim:
    """Claim the table's hardware for this process (again within it is fine); HardwareBusy when another has it."""
    with _lock:
        if name in _held:
            sock, count = _held[name]
            _held[name] = (sock, count + 1)
            return HardwareClaim(name)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            sock.bind("\0" + name)
        except OSError as exc:
            sock.close()
            if exc.errno != errno.EADDRINUSE:
                raise
            raise HardwareBusy(BUSY.format(holder=_holder(name))) from None
        # So the holder can be named: a peer that connects learns its process id.  Nobody accepts these
        # connections, so each refused tool leaves one queued until the holder exits: a long backlog keeps
        # every later refusal naming the holder (with the backlog of one, the third refusal could not).
        sock.listen(socket.SOMAXCONN)
        _held[name] = (sock, 1)
        return HardwareClaim(name)


def _holder(name: str) -> str:
    """Which process holds the claim, as 'process 1234', from the peer credentials of a connection to it."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        probe.settimeout(0.5)
        probe.connect("\0" + name)
        pid = int.from_bytes(probe.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12)[:4], "little")
        return f"process {pid}" if pid and pid != os.getpid() else "another process"
    except OSError:
        return "another process"
    finally:
        probe.close()
