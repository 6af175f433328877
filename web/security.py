"""The table's PIN: a signed session cookie, CSRF tokens tied to it, an Origin check and a throttle on guesses."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from fastapi import Request, Response

from web import errors

COOKIE = "touchline_session"
CSRF_HEADER = "x-csrf-token"
CSRF_FIELD = "csrf_token"
MAX_FAILURES = 5
LOCKOUT_SECONDS = 60.0


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class Guard:
    """Issues and checks the session cookie and CSRF tokens for one running app."""

    def __init__(self, pin: Callable[[], str], secret: bytes | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """Check PINs with ``pin()`` (read each time, so a changed PIN applies at once)."""
        self._pin = pin
        # A fresh secret per start: a restart signs everyone out, which is what an owner expects of a PIN.
        self._secret = secret or secrets.token_bytes(32)
        self._clock = clock
        self._failures = 0
        self._locked_until = 0.0

    def _sign(self, purpose: str, sid: str) -> str:
        return _b64(hmac.new(self._secret, f"{purpose}:{sid}".encode(), hashlib.sha256).digest())

    def login(self, pin: str) -> str:
        """Return a new signed session token for the right PIN; raise Forbidden otherwise."""
        now = self._clock()
        if now < self._locked_until:
            raise errors.Forbidden(errors.TOO_MANY_TRIES)
        if not hmac.compare_digest(pin.strip().encode(), self._pin().encode()):
            self._failures += 1
            if self._failures >= MAX_FAILURES:
                # Guessing a short PIN is cheap; a pause after a few misses makes it slow.
                self._failures = 0
                self._locked_until = now + LOCKOUT_SECONDS
                raise errors.Forbidden(errors.TOO_MANY_TRIES)
            raise errors.Forbidden(errors.WRONG_PIN)
        self._failures = 0
        sid = _b64(secrets.token_bytes(18))
        return f"{sid}.{self._sign('session', sid)}"

    def session_id(self, request: Request) -> str | None:
        """The session id of a request whose cookie carries a valid signature, else None."""
        token = request.cookies.get(COOKIE, "")
        sid, _, signature = token.partition(".")
        if not sid or not hmac.compare_digest(signature.encode(), self._sign("session", sid).encode()):
            return None
        return sid

    def csrf_token(self, sid: str) -> str:
        """The CSRF token that goes with a session."""
        return self._sign("csrf", sid)

    def check_csrf(self, sid: str, token: str | None) -> None:
        """Raise Forbidden unless ``token`` is this session's CSRF token."""
        if not token or not hmac.compare_digest(token.encode(), self.csrf_token(sid).encode()):
            raise errors.Forbidden(errors.CSRF_FAILED)


def set_session_cookie(response: Response, token: str, secure: bool) -> None:
    """Put the session token into an HttpOnly, SameSite=Strict cookie."""
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict", secure=secure, path="/")


def check_origin(request: Request) -> None:
    """Refuse a request whose Origin (or Referer) names another site than the one it was sent to."""
    source = request.headers.get("origin") or request.headers.get("referer")
    if source is None:
        # Not a browser (curl, scripts): the session cookie and CSRF token still have to be right.
        return
    host = request.headers.get("host", "")
    if source == "null" or urlsplit(source).netloc.lower() != host.lower():
        raise errors.Forbidden(errors.ORIGIN_FAILED)
