"""The table's PIN: sessions kept by the table, CSRF tokens tied to them, an Origin check and a throttle on guesses.

A browser that gives the PIN gets a session: a random token in an HttpOnly cookie that lasts :data:`SESSION_DAYS`
(closing the browser keeps it; the table keeps only its hash, in the game log's file, so a restart keeps it too).
Logging out ends the session on the table, not just in the browser; "Lock every browser" ends them all.

Wrong PINs are counted per client (one IPv4 address or one IPv6 /64): after :data:`MAX_FAILURES` in a row that
client waits, longer each time.  Another phone guessing does not slow the owner down, and a browser that already
holds a session is never throttled.  Should the owner be locked out anyway (their own typos, or a stranger on many
addresses), the table shows a one-time code on its own screen when undo and a roll button are held together, and
that code unlocks like the PIN.

A seat's own page (``/seat/N``) is unlocked apart: by the PIN typed there, or by a tap of one of that seat's own
cards on its pad while the page waits (:class:`SeatClaims`).  Either gives the browser a *seat session* in a cookie
of its own (:func:`seat_cookie`): it opens seat N's page in the game being played and nothing else (no other seat's
page, no change the PIN guards), and it is kept like the PIN's, so a restart keeps it too.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit

from fastapi import Request, Response

from web import errors

COOKIE = "touchline_session"
SEAT_COOKIE = "touchline_seat_{seat}"
"""The cookie of a seat's own page: one per seat, so a browser's owner session is never replaced by it."""
CLAIM_SECONDS = 120.0
"""How long a seat's page waits for a tap of one of the seat's cards."""
CSRF_HEADER = "x-csrf-token"
CSRF_FIELD = "csrf_token"
MAX_FAILURES = 5
"""Wrong PINs in a row from one client before it has to wait."""
LOCKOUT_SECONDS = 60.0
"""The first wait; each further lockout of the same client doubles it, up to :data:`LOCKOUT_MAX_SECONDS`."""
LOCKOUT_MAX_SECONDS = 3600.0
NETWORK_WINDOW_SECONDS = 600.0
NETWORK_MAX_FAILURES = 200
"""Wrong PINs from all clients together within the window before PINs are refused to everyone without a session."""
CLIENTS_KEPT = 4096
"""Clients whose wrong guesses are remembered (the oldest are forgotten first), so memory stays bounded."""
SESSION_DAYS = 30
SESSIONS_KEPT = 5000
"""Sessions kept at once (only the PIN makes one; each ends after SESSION_DAYS anyway): a bound on memory far above
what a shop's staff unlock in a month.  Beyond it the one unused the longest ends.  Use is not kept across a
restart, so after one the order is by unlock: with far fewer than this many sessions, no browser in use is ended."""


def client_key(address: str | None) -> str:
    """Who a request comes from, for counting: an IPv4 address, or an IPv6 address's /64 (one device's addresses)."""
    if not address:
        return "?"
    try:
        ip = ipaddress.ip_address(address.partition("%")[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def request_client(request: Request) -> str:
    """The client of a request, as :func:`client_key` counts it (the table is never behind a proxy)."""
    return client_key(request.client.host if request.client else None)


@dataclass(frozen=True)
class SavedSession:
    """One unlocked browser as the table keeps it: the hash of its cookie's token, its CSRF token and its end."""

    key: str
    """sha256 of the cookie's token, in hex: the token itself is never stored."""
    csrf: str
    created: float
    """Seconds since the epoch."""
    expires: float
    seat: int | None = None
    """The seat whose own page this session opens; None for the owner's sessions."""
    game: int | None = None
    """The game a seat session belongs to: a new game ends it."""


class SessionStore(Protocol):
    """Where the sessions are kept so that they survive a restart (the game log's file on a table)."""

    def load_sessions(self) -> list[SavedSession]:
        """Every kept session."""

    def save_session(self, session: SavedSession) -> None:
        """Keep one more session."""

    def delete_sessions(self, keys: list[str] | None) -> None:
        """End these sessions (None: all of them)."""


class MemorySessions:
    """Sessions kept in memory only: they end when the app stops (tests, and tables with no log)."""

    def __init__(self) -> None:
        self._sessions: dict[str, SavedSession] = {}

    def load_sessions(self) -> list[SavedSession]:
        """Every kept session."""
        return list(self._sessions.values())

    def save_session(self, session: SavedSession) -> None:
        """Keep one more session."""
        self._sessions[session.key] = session

    def delete_sessions(self, keys: list[str] | None) -> None:
        """End these sessions (None: all of them)."""
        if keys is None:
            self._sessions.clear()
        for key in keys or ():
            self._sessions.pop(key, None)


class SeatClaims:
    """Seat pages waiting for a tap: a page opens a claim for its seat, a tap of one of that seat's cards grants it
    (the table calls :meth:`tapped`), and the page then takes its seat session with :meth:`take`.

    One claim waits per seat: a newer page waiting for the same seat replaces the older one, so a tap grants only
    the browser that asked last, and a claim lasts :data:`CLAIM_SECONDS`.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self.listener: Callable[[int], None] | None = None
        """Called with the seat when a page starts waiting for its tap (the table says so on that seat's screen)."""
        self._waiting: dict[int, tuple[str, float]] = {}
        """seat -> (claim, until): the page waiting for that seat's tap."""
        self._granted: dict[str, tuple[int, float]] = {}
        """claim -> (seat, until): tapped, not yet taken by its page."""

    def open(self, seat: int) -> str:
        """A new claim for ``seat`` (the one that waited before is dropped); returns its id."""
        claim = secrets.token_urlsafe(24)
        with self._lock:
            self._waiting[seat] = (claim, self._clock() + CLAIM_SECONDS)
        if self.listener is not None:
            self.listener(seat)
        return claim

    def ran_out(self) -> bool:
        """Whether a wait ran out since last asked (each such wait is forgotten then): its screen says so no more."""
        now = self._clock()
        with self._lock:
            gone = [seat for seat, (_, until) in self._waiting.items() if now >= until]
            for seat in gone:
                del self._waiting[seat]
        return bool(gone)

    def waiting(self, seat: int) -> bool:
        """Whether a page waits for a tap of this seat's card now."""
        with self._lock:
            found = self._waiting.get(seat)
            return found is not None and self._clock() < found[1]

    def tapped(self, seat: int) -> bool:
        """A card of ``seat`` was tapped on its pad: grant the waiting claim (True), or False when none waits."""
        now = self._clock()
        with self._lock:
            found = self._waiting.pop(seat, None)
            if found is None or now >= found[1]:
                return False
            self._granted[found[0]] = (seat, now + CLAIM_SECONDS)
            return True

    def take(self, claim: str, seat: int) -> str:
        """``"granted"`` once for a claim of ``seat`` a tap granted (it is used up then), ``"waiting"`` while it
        waits, ``"gone"`` when it ran out, was replaced or belongs to another seat."""
        now = self._clock()
        with self._lock:
            granted = self._granted.get(claim)
            if granted is not None:
                if granted[0] == seat and now < granted[1]:
                    del self._granted[claim]
                    return "granted"
                if now >= granted[1]:
                    del self._granted[claim]
                return "gone"
            found = self._waiting.get(seat)
            return "waiting" if found is not None and found[0] == claim and now < found[1] else "gone"


class OwnerCodes(Protocol):
    """One-time codes the table shows on its own screen (undo and a roll button held together)."""

    def consume(self, code: str) -> bool:
        """True once for the code on the screen while it is valid; it is used up then."""


@dataclass
class _Client:
    failures: int = 0
    locked_until: float = 0.0
    lockouts: int = 0


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Guard:
    """Unlocks browsers with the PIN (or a one-time code from the table) and checks their sessions and CSRF tokens."""

    def __init__(self, pin: Callable[[], str], *, sessions: SessionStore | None = None,
                 owner_codes: OwnerCodes | None = None, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time, game: Callable[[], int | None] = lambda: None) -> None:
        """Check PINs with ``pin()`` (read each time, so a changed PIN applies at once); keep sessions in ``sessions``;
        ``game()`` names the game being played (a seat session holds its seat in that game only)."""
        self._pin = pin
        self._game = game
        self._store: SessionStore = sessions if sessions is not None else MemorySessions()
        self._codes = owner_codes
        self._clock = clock
        self._wall = wall
        self._lock = threading.Lock()
        self._clients: OrderedDict[str, _Client] = OrderedDict()
        self._network: deque[float] = deque()
        now = wall()
        kept = self._store.load_sessions()
        # Least recently used first: a new session beyond SESSIONS_KEPT ends the one unused the longest.
        self._sessions: OrderedDict[str, SavedSession] = OrderedDict(
            (s.key, s) for s in sorted(kept, key=lambda s: s.created) if s.expires > now)
        ended = [s.key for s in kept if s.expires <= now]
        if ended:
            self._store.delete_sessions(ended)

    # -- unlocking --------------------------------------------------------------------------------------

    def login(self, pin: str, client: str = "?", *, has_session: bool = False, seat: int | None = None) -> str:
        """Return a new session token for the right PIN or a valid one-time code; raise Forbidden otherwise.

        ``client`` is who is guessing (see :func:`client_key`); ``has_session``: the browser holds a valid
        session already, so it is never throttled.  With ``seat`` the session opens only that seat's own page.
        """
        guess = pin.strip()
        if self._codes is not None and guess and self._codes.consume(guess):
            return self._new_session(seat)
        now = self._clock()
        with self._lock:
            record = self._clients.get(client)
            if not has_session:
                if record is not None and now < record.locked_until:
                    raise errors.Forbidden(errors.TOO_MANY_TRIES.format(minutes=_minutes(record.locked_until - now)))
                while self._network and self._network[0] <= now - NETWORK_WINDOW_SECONDS:
                    self._network.popleft()
                if len(self._network) >= NETWORK_MAX_FAILURES:
                    raise errors.Forbidden(errors.TOO_MANY_TRIES_NETWORK)
            right = hmac.compare_digest(guess.encode(), self._pin().encode())
            if right:
                self._clients.pop(client, None)
            elif not has_session:
                self._network.append(now)
                record = self._clients.pop(client, None) or _Client()
                self._clients[client] = record  # most recent last: the oldest is forgotten first
                while len(self._clients) > CLIENTS_KEPT:
                    self._clients.popitem(last=False)
                record.failures += 1
                if record.failures >= MAX_FAILURES:
                    # Guessing a short PIN is cheap; a pause that grows with each lockout makes it slow.
                    wait = min(LOCKOUT_MAX_SECONDS, LOCKOUT_SECONDS * 2 ** record.lockouts)
                    record.failures, record.lockouts, record.locked_until = 0, record.lockouts + 1, now + wait
                    raise errors.Forbidden(errors.TOO_MANY_TRIES.format(minutes=_minutes(wait)))
        if not right:
            raise errors.Forbidden(errors.WRONG_PIN)
        return self._new_session(seat)

    def grant_seat(self, seat: int) -> str:
        """A new session token for seat ``seat``'s own page in the game being played (a tap of its card granted it)."""
        return self._new_session(seat)

    def _new_session(self, seat: int | None = None) -> str:
        token = secrets.token_urlsafe(32)
        now = self._wall()
        saved = SavedSession(_hash(token), secrets.token_urlsafe(24), now, now + SESSION_DAYS * 86400, seat,
                             None if seat is None else self._game())
        with self._lock:
            self._sessions[saved.key] = saved
            oldest = [self._sessions.popitem(last=False)[1] for _ in range(len(self._sessions) - SESSIONS_KEPT)]
        self._store.save_session(saved)
        if oldest:
            self._store.delete_sessions([s.key for s in oldest])
        return token

    # -- sessions ---------------------------------------------------------------------------------------

    def session_id(self, request: Request) -> str | None:
        """The owner's session of a request whose cookie holds a token the table issued and has not ended, else None."""
        return self.session_id_of(request.cookies.get(COOKIE, ""))

    def session_id_of(self, token: str) -> str | None:
        """The owner's session a cookie's token belongs to, while it lasts, else None (a seat session is not one)."""
        saved = self._valid(token)
        return saved.key if saved is not None and saved.seat is None else None

    def seat_session(self, request: Request, seat: int) -> str | None:
        """The session of seat ``seat``'s own page that the request's cookie holds, else None."""
        return self.seat_session_of(request.cookies.get(seat_cookie(seat), ""), seat)

    def seat_session_of(self, token: str, seat: int) -> str | None:
        """The seat session a token belongs to when it opens ``seat``'s page in the game being played, else None."""
        saved = self._valid(token)
        if saved is None or saved.seat != seat or saved.game != self._game():
            return None
        return saved.key

    def _valid(self, token: str) -> SavedSession | None:
        """The session a cookie's token belongs to, while it lasts (kept in use), else None."""
        if not token or len(token) > 128:
            return None
        key = _hash(token)
        saved = self._sessions.get(key)
        if saved is None:
            return None
        if saved.expires <= self._wall():
            self.logout(key)
            return None
        with self._lock:
            if key in self._sessions:
                self._sessions.move_to_end(key)  # in use: the last to be ended for room
        return saved

    def seconds_left(self, sid: str) -> int:
        """How long a session still lasts, in whole seconds (0 when it has ended)."""
        saved = self._sessions.get(sid)
        return max(0, int(saved.expires - self._wall())) if saved is not None else 0

    def logout(self, sid: str) -> None:
        """End one session on the table: its cookie no longer unlocks anything, not even after a restart."""
        self._store.delete_sessions([sid])  # first: a session that could not be ended stays ended nowhere
        with self._lock:
            self._sessions.pop(sid, None)

    def logout_all(self) -> int:
        """End every session (every browser has to give the PIN again); return how many there were."""
        self._store.delete_sessions(None)
        with self._lock:
            count = len(self._sessions)
            self._sessions.clear()
        return count

    def csrf_token(self, sid: str) -> str:
        """The CSRF token that goes with a session."""
        saved = self._sessions.get(sid)
        return saved.csrf if saved is not None else ""

    def check_csrf(self, sid: str, token: str | None) -> None:
        """Raise Forbidden unless ``token`` is this session's CSRF token."""
        expected = self.csrf_token(sid)
        if not token or not expected or not hmac.compare_digest(token.encode(), expected.encode()):
            raise errors.Forbidden(errors.CSRF_FAILED)


def _minutes(seconds: float) -> int:
    return max(1, round(seconds / 60))


def seat_cookie(seat: int) -> str:
    """The name of the cookie that holds seat ``seat``'s own page's session."""
    return SEAT_COOKIE.format(seat=seat)


def set_session_cookie(response: Response, token: str, secure: bool, max_age: int, name: str = COOKIE) -> None:
    """Put the session token into an HttpOnly, SameSite=Strict cookie that outlives the browser window."""
    response.set_cookie(name, token, max_age=max_age, httponly=True, samesite="strict", secure=secure, path="/")


def check_origin(request: Request) -> None:
    """Refuse a request whose Origin (or Referer) names another site than the one it was sent to."""
    source = request.headers.get("origin") or request.headers.get("referer")
    if source is None:
        # Not a browser (curl, scripts): the session cookie and CSRF token still have to be right.
        return
    host = request.headers.get("host", "")
    if source == "null" or urlsplit(source).netloc.lower() != host.lower():
        raise errors.Forbidden(errors.ORIGIN_FAILED)
