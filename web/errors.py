"""Errors of the web app and the sentences it shows people (tests import these constants)."""

from __future__ import annotations

PIN_REQUIRED = "This needs the table's PIN: enter it on the Admin page (it is printed when the table starts)."
WRONG_PIN = "That PIN is not the table's PIN. Check the one printed when the table started and try again."
AT_THE_TABLE = ("Or unlock at the table: hold the undo button and a seat's roll button together for 3 seconds, then "
                "type the code the shared screen shows.")
TOO_MANY_TRIES = "Too many wrong PINs from this device. Wait {minutes} minute(s), then try again. " + AT_THE_TABLE
TOO_MANY_TRIES_NETWORK = ("Too many wrong PINs were tried on this network in the last minutes, so the PIN is not "
                          "taken from new browsers for now. " + AT_THE_TABLE)
LOGGED_OUT_ALL = "Every browser is locked again: {count} session(s) ended."
INTERNAL = ("Something went wrong at the table and this request was not carried out. Reload the page; if it happens "
            "again, the table's log (journalctl -u touchline) says what it was.")
NO_GAME = "There is no game yet: start one on the Admin page, then set the lineups on Matchday."
SEAT_VIEW_NEEDS_PIN = ("Seat {seat}'s own page shows that club's secrets: open /seat/{seat} and tap one of the club's "
                       "cards on its pad, or type the table's PIN there.")
SEAT_NOT_IN_GAME = "No club plays at seat {seat} in this game: a seat's own page opens once its club is in the game."
TAP_TO_UNLOCK = "Tap one of seat {seat}'s own cards (a Director, Staff or Player card) on seat {seat}'s pad within two minutes."
CLAIM_GONE = ("The wait for a tap ended (two minutes passed, or another phone asked for this seat since). Press "
              "\"Unlock with a tap\" again, then tap one of the club's cards.")
NOT_A_SEAT_EVENT = ("A seat's own page sends only its club's secret choices ({events}), not {type!r}: do that at the "
                    "table or on the Play page.")
ELSEWHERE = "Anything else (passing, say) is done at the table with your button, or on the Play page."
OTHER_SEAT_EVENT = "This is seat {seat}'s own page: it answers only for seat {seat}'s club."
CSRF_FAILED = "This form has expired or came from another site. Reload the page and try again."
ORIGIN_FAILED = "This request came from another site, so the table refused it. Use the table's own page."
NO_SIMULATION = "This table runs on real hardware: the virtual table only exists in simulation (touchline run --sim)."
SCREEN_SECRET = ("This seat's screen shows what only that club may see right now (look at the table, or unlock this "
                 "browser with the PIN); it comes back with the next change.")
UNKNOWN_SCREEN = "There is no screen called {screen!r} at this table. The virtual table page lists the screens."
UNKNOWN_PAD = "There is no pad called {pad!r} at this table. The virtual table page lists the pads."
UNKNOWN_BUTTON = "There is no button called {button!r} at this table. The virtual table page lists the buttons."
UNKNOWN_CARD = "There is no card {card!r} in the loaded deck. Pick a card from the deck list."
BODY_TOO_LARGE = "This request is larger than the table takes ({limit} KB), so it was not read. Nothing changed."
BAD_LENGTH = "This request's Content-Length is not a number, so it was not read. Nothing changed."
BODY_TOO_SLOW = "This request took longer than {seconds} seconds to arrive, so the table stopped waiting. Try again."
UNKNOWN_HOST = (
    "This table does not answer to the name {host!r}. Open the page by the table's own address; an owner who "
    "reaches it under another name adds that name to names = [...] under [web] in the table file."
)


class WebError(Exception):
    """Base of every error the web app raises on purpose."""


class Forbidden(WebError, PermissionError):
    """A state-changing request came without the PIN's session, a valid CSRF token or from another site."""


class NotFound(WebError, LookupError):
    """A request named a screen, pad, button or card that this table does not have."""
