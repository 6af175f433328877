"""What the web app needs from the running table.

The app factory is handed an object with this shape; ``device/`` provides the real one and
the tests hand in the same, over the simulated hardware.  ``web/`` never imports ``device/`` or ``drivers/``.

``snapshot(viewer)`` is a JSON-safe dict of what a viewer may see (``"table"``: everyone at the table; a seat number:
that club's player; the engine's view decides what each may see); the page reads these keys, each optional:

- ``game``: ``engine.view(profile, state, viewer)`` or None before the first game;
- ``log``: the newest lines of the game's log, oldest first (the engine's announcements: kind, seat, text, ...;
  with ``id``, ``week``, ``undone`` and the seat's ``club``; the text names clubs, cards and dice); older ones come
  from ``said``;
- ``history``: ``[{"week": n, "clubs": {"<seat>": {"points": n, "budget": n, "fanbase": n, ...}}}]`` for the charts;
- ``screens``: ``{screen id: {"seat": n | None, "version": n, "lines": [...]}}``; a new version makes the virtual
  table fetch the frame again;
- ``enrolment``: None, ``{"state": "waiting"}``, or ``{"state": "tapped", "uid": "04-A3-..", "pad": id}``;
- ``simulation``: whether ``sim`` is there;
- ``version``: the table's ``version`` the snapshot shows.

The app builds each viewer's snapshot once per change and sends the same bytes to all of that viewer's pages
(``web.live.Broadcast``): the table says when something changed through ``watch``.

``submit(action)`` receives one typed action of ``web.actions`` (``TableAction``):

- ``NewGame``: the clubs and what the form names for them; ``web.setup.setup_events`` is the one path from it to the
  engine's setup events (dealing what is left out, or leaving it to the seats' pads when ``deal`` is false);
- ``Undo``, ``EnrolStart``, ``EnrolCancel``, ``Enrol`` (``uid``, ``card``);
- an ``EventAction`` (``Lineup``, ``Kickoff``, ``TacticPlayed``, ``Adjust`` or the generic ``Event``): one engine event,
  ``action.event()``, to apply as it is.  The Play page (``GET /api/choices``, built from ``snapshot()["game"]`` and
  ``profile``) sends the steps the table cannot sense this way: ``build`` (kind), ``office``, ``potential`` (stat),
  ``hire_player``/``hire_youngster``/``hire_staff`` (card), ``sponsor`` (card, contract), ``use_card`` (card, free?,
  targets?), ``pass``, ``suspensions`` (cards) and ``objective_result`` (result).  A table that keeps a choice
  half-made on a seat's buttons (a Stat being stepped through) should drop it when the page answers for that seat.

A refusal raises ``ValueError`` (the engine's errors do) with a sentence; the page shows it and nothing changed.

A table may also offer ``game_id`` (the number of the game being played: a seat's own page holds its seat in that
game only) and ``seat_claims`` (a ``web.security.SeatClaims`` whose ``tapped(seat)`` it calls when one of a seat's
own cards is tapped on that seat's pad while the seat's page waits, instead of playing the tap).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from web.actions import TableAction


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
class Seasons(Protocol):
    """A table's seasons (``table.seasons`` when the table keeps them): leagues over several games and their standings.

    Every answer is JSON-safe.  A refusal raises ``LookupError`` (no such season or game) or ``ValueError`` (an empty
    or taken name, a game counting in another season, a game not over) with its sentence; nothing changed then.
    """

    def kept(self) -> list[dict[str, Any]]:
        """Every season, oldest first: ``id``, ``name``, ``games`` (how many)."""

    def standings(self, season_id: int) -> dict[str, Any]:
        """``id``, ``name``, ``games`` (each with ``id``, ``number``, ``status``, ``counted``, ``note``, ``winners``,
        ``link`` to its final scoring and its ``clubs``' VP and rank) and ``standings`` (``position``, ``club``,
        ``played``, ``vp``, ``wins``, ``average_rank``, and per game id its ``rank`` and ``vp``), best first."""

    def create(self, name: str) -> dict[str, Any]:
        """Make an empty season."""

    def add(self, season_id: int, games: list[int]) -> dict[str, Any]:
        """Add games at the end of a season, all or none; its standings."""

    def remove(self, season_id: int, games: list[int]) -> dict[str, Any]:
        """Take games out of a season (the games are kept); its standings."""

    def delete(self, season_id: int) -> dict[str, Any]:
        """Forget a season (its games are kept)."""

    def games(self) -> list[dict[str, Any]]:
        """Every kept game, newest first: ``id``, ``status``, ``created``, ``clubs``, ``season`` (its name or None)."""

    def final(self, game_id: int) -> dict[str, Any]:
        """One game's final scoring: ``game`` (``id``, ``created``, ``ended``, ``season``) and the engine's ``final``
        rows; ``ValueError`` while it is not over."""

    def export(self, season_id: int, fmt: str) -> tuple[str, str]:
        """A season's export in ``fmt`` ("json" or "csv") and a file name for it."""


@runtime_checkable
class Table(Protocol):
    """The running table as the web app sees it."""

    pin: str
    """The PIN that unlocks state-changing requests."""

    @property
    def version(self) -> int:
        """Grows with every change the page shows (a snapshot carries the version it shows)."""

    def snapshot(self, viewer: int | str = "table") -> dict[str, Any]:
        """Everything the page shows a viewer, JSON-safe: the game view (or None), recent announcements, screens."""

    def said(self, viewer: int | str = "table", *, before: int | None = None, limit: int = 50) -> dict[str, Any]:
        """A page of the whole game's log as ``viewer`` may read it, newest first: ``{"lines": [...], "more": bool}``;
        each line has its ``id`` (ask for older ones with ``before``), ``week``, ``undone``, ``club`` and ``text``."""

    def watch(self, changed: Callable[[], None]) -> None:
        """Call ``changed()`` on the app's event loop after every change at the table."""

    async def idle(self) -> None:
        """Wait until every input handed to the table so far (a simulated tap, a press) has been handled."""

    async def submit(self, action: TableAction) -> dict[str, Any]:
        """Apply one page action (new game, lineup, correction, undo, enrolment); raise ValueError with a sentence when refused."""

    def deck(self) -> list[dict[str, Any]]:
        """Every card of the loaded deck: id, name, kind, and what the page needs to pick it."""

    @property
    def sim(self) -> SimulatedHardware | None:
        """The simulated hardware, or None on a real table."""

    @property
    def profile(self) -> Any:
        """The ``engine.Profile`` (deck and board profile) the table plays with: setup deals and pitch limits."""

    def game_state(self) -> Any:
        """The engine's ``State`` of the game in play, or None before the first game: the page asks the engine
        about it (``engine.lineup_why_not``, ``engine.fill_lineup``) and never changes it."""
