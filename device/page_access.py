"""How the owner gets into the page: a one-time code shown at the table, and sessions kept in the game log.

**The code at the table.**  Holding the undo button and any seat's roll button together (:data:`HOLD_SECONDS`)
shows a one-time code on the shared screen; typed on the Admin page instead of the PIN, it unlocks that browser,
whatever a stranger's guessing has done to the PIN's throttle.  Only someone at the table can read it, it lasts
:data:`CODE_SECONDS` and works once.  Neither button does its own job while the two are held together: the undo
does not undo and the roll button does not pass.

**Sessions.**  :class:`StoredSessions` keeps the page's unlocked browsers in the game log (only a hash of each
token), so a restart or a pulled plug does not lock the owner out, while a logout or an expiry does.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from drivers.base import ButtonReading
from device.errors import StoreError
from web.security import SavedSession

log = logging.getLogger(__name__)

CODE_DIGITS = 8
CODE_SECONDS = 120.0
HOLD_SECONDS = 3
"""What the owner is told to hold: longer than the undo button's own hold time (2 s), so the code shows."""
OWNER_CODE = "Owner code"
"""The shared screen's headline while a code is valid."""
OWNER_CODE_DETAIL = ("Type it on Admin", "instead of the PIN", "(2 minutes, once)")
CODE_HIDDEN = "•••• ••••"
"""What the page shows instead of the code: only someone at the table may read it."""


def spaced(code: str) -> str:
    """A code as the screen shows it, in groups of four digits so it is easy to read and type."""
    return " ".join(code[i:i + 4] for i in range(0, len(code), 4))


class OwnerCode:
    """The one-time code the table shows on its screen; ``consume`` is what the page's Guard asks."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._code: str | None = None
        self._until = 0.0

    def issue(self) -> str:
        """Make a new code (the previous one stops working) and return it."""
        code = f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"
        with self._lock:
            self._code, self._until = code, self._clock() + CODE_SECONDS
        return code

    @property
    def shown(self) -> str | None:
        """The code as the screen shows it while it is valid, else None."""
        with self._lock:
            return spaced(self._code) if self._code is not None and self._clock() < self._until else None

    def hide(self, lines: list[str]) -> list[str]:
        """Screen lines as the page may show them: the code is only for the table's own screen."""
        shown = self.shown
        return lines if shown is None else [CODE_HIDDEN if shown in line else line for line in lines]

    def consume(self, candidate: str) -> bool:
        """True once for the current code while it is valid (spaces ignored); it is used up then."""
        typed = "".join(candidate.split())
        with self._lock:
            code = self._code
            if code is None or self._clock() >= self._until or len(typed) != len(code):
                return False
            if not hmac.compare_digest(typed.encode(), code.encode()):
                return False
            self._code = None
        return True


class Chord:
    """Recognises the undo button and a roll button held together, from the buttons' debounced state."""

    def __init__(self, undo: Iterable[str], rolls: Iterable[str], pressed: Callable[[str], bool]) -> None:
        """``pressed(name)``: whether a button is down now (the drivers' debounced state)."""
        self.undo = frozenset(undo)
        self.rolls = frozenset(rolls)
        self._pressed = pressed

    def _down(self, names: Iterable[str]) -> bool:
        return any(self._safe_pressed(name) for name in names)

    def _safe_pressed(self, name: str) -> bool:
        try:
            return bool(self._pressed(name))
        except Exception:  # a button that went away (table stopping) is simply not down
            return False

    def claims(self, reading: ButtonReading) -> str | None:
        """``"code"`` when this reading completes the chord, ``"swallow"`` when it is part of one, else None."""
        if reading.button in self.undo and self._down(self.rolls):
            return "code" if reading.kind == "hold" else "swallow"
        if reading.button in self.rolls and self._down(self.undo):
            return "swallow"
        return None


class StoredSessions:
    """The page's sessions kept in the game log (``web.security.SessionStore``)."""

    def __init__(self, store: Any) -> None:
        """Keep them in ``store`` (a :class:`device.store.EventStore`)."""
        self._store = store

    def load_sessions(self) -> list[SavedSession]:
        """Every kept session."""
        return [SavedSession(*row) for row in self._store.web_sessions()]

    def save_session(self, session: SavedSession) -> None:
        """Keep one more session; on a card that cannot be written it lasts until the next restart only."""
        try:
            self._store.save_web_session(session.key, session.csrf, session.created, session.expires, session.seat,
                                         session.game)
        except StoreError as exc:
            log.warning("an unlocked browser is kept until the next restart only: %s", exc)

    def delete_sessions(self, keys: list[str] | None) -> None:
        """End these sessions (None: all of them); StoreError when the log cannot be written (they stay)."""
        self._store.delete_web_sessions(keys)


def button_state(hardware: Any) -> Callable[[str], bool]:
    """Whether a button of ``hardware`` is down now (False before its buttons are started and after they stop)."""

    def pressed(name: str) -> bool:
        buttons = getattr(hardware, "buttons", None)
        return buttons is not None and bool(buttons.is_pressed(name))

    return pressed
