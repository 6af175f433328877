"""What the web app needs from the running table.

The app factory is handed an object with this shape; ``device/`` provides the real one and
the tests hand in a stand-in.  ``web/`` never imports ``device/`` or ``drivers/``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class SimulatedHardware(Protocol):
    """The simulated pads, buttons and screens of a table running in simulation."""

    def layout(self) -> dict[str, Any]:
        """Seats with their pads, buttons and screens, plus shared ones: ids and labels."""

    def place(self, pad: str, card_id: str) -> None:
        """Put the card with this id on a pad (the tag enrolled for it, or a fresh one)."""

    def lift(self, pad: str) -> None:
        """Take whatever lies on a pad away."""

    def press(self, button: str) -> None:
        """Press and release a button briefly."""

    def hold(self, button: str) -> None:
        """Hold a button past its hold time, then release it."""

    def frame_png(self, screen: str) -> bytes:
        """The frame the simulated display holds now, as PNG bytes."""


@runtime_checkable
class Table(Protocol):
    """The running table as the web app sees it."""

    pin: str
    """The PIN that unlocks state-changing requests."""

    def snapshot(self) -> dict[str, Any]:
        """Everything the page shows, JSON-safe: the game view (or None), recent announcements, screens."""

    def subscribe(self) -> AsyncIterator[dict[str, Any]]:
        """Yield an update each time anything changes at the table (first item: the current snapshot)."""

    async def submit(self, action: dict[str, Any]) -> dict[str, Any]:
        """Apply one page action (new game, lineup, correction, undo, enrolment); raise ValueError with a sentence when refused."""

    def deck(self) -> list[dict[str, Any]]:
        """Every card of the loaded deck: id, name, kind, and what the page needs to pick it."""

    @property
    def sim(self) -> SimulatedHardware | None:
        """The simulated hardware, or None on a real table."""

    @property
    def profile(self) -> Any:
        """The ``engine.Profile`` (deck and board profile) the table plays with: setup deals and pitch limits."""
