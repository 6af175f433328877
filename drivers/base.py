"""Plain readings that drivers hand upwards, and the choice of backend."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Literal

from drivers.errors import DriverConfigError

BACKEND_ENV = "TOUCHLINE_BACKEND"
BAD_BACKEND = "{source} says {choice!r}, which is not a backend: use 'real' (hardware) or 'sim' (simulation)."
Backend = Literal["real", "sim"]


def default_backend(configured: str | None = None) -> Backend:
    """Return the backend to use: ``TOUCHLINE_BACKEND`` wins, then the table file, then real."""
    forced = os.environ.get(BACKEND_ENV, "").strip().lower()
    choice = forced or (configured or "real").strip().lower()
    if choice not in ("real", "sim"):
        source = BACKEND_ENV if forced else "the table file's backend"
        raise DriverConfigError(BAD_BACKEND.format(source=source, choice=choice))
    return choice  # type: ignore[return-value]


def format_uid(uid: bytes) -> str:
    """Format a tag UID the way it is printed everywhere: ``04-A3-1F-…``."""
    return "-".join(f"{b:02X}" for b in uid)


@dataclass(frozen=True, slots=True)
class TagReading:
    """A card arrived on (``tap``) or went away from (``lift``) a reader."""

    kind: Literal["tap", "lift"]
    reader: str
    uid: str


@dataclass(frozen=True, slots=True)
class ButtonReading:
    """A button was pressed briefly (``press``) or held past its hold time (``hold``)."""

    kind: Literal["press", "hold"]
    button: str


@dataclass(frozen=True, slots=True)
class HealthReading:
    """A device went offline or came back, with the reason in words."""

    device: str
    online: bool
    detail: str


class ManualClock:
    """A monotonic clock that moves only when told to, for simulations and tests that never wait real time."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        """The current time in seconds."""
        with self._lock:
            return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock forward."""
        with self._lock:
            self.now += seconds
