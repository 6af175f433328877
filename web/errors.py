"""Errors of the web app and the sentences it shows people (tests import these constants)."""

from __future__ import annotations

PIN_REQUIRED = "This needs the table's PIN: enter it on the Admin page (it is printed when the table starts)."
WRONG_PIN = "That PIN is not the table's PIN. Check the one printed when the table started and try again."
TOO_MANY_TRIES = "Too many wrong PINs. Wait a minute, then try again."
CSRF_FAILED = "This form has expired or came from another site. Reload the page and try again."
ORIGIN_FAILED = "This request came from another site, so the table refused it. Use the table's own page."
NO_SIMULATION = "This table runs on real hardware: the virtual table only exists in simulation (touchline run --sim)."
UNKNOWN_SCREEN = "There is no screen called {screen!r} at this table. The virtual table page lists the screens."
UNKNOWN_PAD = "There is no pad called {pad!r} at this table. The virtual table page lists the pads."
UNKNOWN_BUTTON = "There is no button called {button!r} at this table. The virtual table page lists the buttons."
UNKNOWN_CARD = "There is no card {card!r} in the loaded deck. Pick a card from the deck list."


class WebError(Exception):
    """Base of every error the web app raises on purpose."""


class Forbidden(WebError, PermissionError):
    """A state-changing request came without the PIN's session, a valid CSRF token or from another site."""


class NotFound(WebError, LookupError):
    """A request named a screen, pad, button or card that this table does not have."""
