"""Errors raised by the appliance; each also inherits the matching built-in so callers can catch either.

The sentences an owner reads are constants here, so tests can import and assert them.
"""

from __future__ import annotations

from dataclasses import dataclass


class DeviceError(Exception):
    """Base of every error raised by ``device/``."""


# --- the table file -------------------------------------------------------------------------------------------------

TABLE_FILE_MISSING = "Table file {path} does not exist. Pass an existing file with --table, or copy one of device/tables/*.toml."
TABLE_FILE_UNREADABLE = "Table file {path} cannot be read ({reason}). Check its permissions."
TABLE_FILE_SYNTAX = "{path}: this is not valid TOML ({reason}). Fix the line it names; device/tables/*.toml are working examples."
TOO_DEEP = "lists or tables are nested too deeply to be read; a table file nests them at most a few levels"
UNKNOWN_KEY = "unknown key {key!r}{hint}. Keys allowed here: {allowed}. Fix the spelling or remove the line."
MISSING_KEY = "{key!r} is missing. {todo}"
WRONG_TYPE = "{value!r} is not {expected}. Write it as {example}."
NOT_ONE_OF = "{value!r} is not one of {allowed}. Pick one of those."
OUT_OF_RANGE = "{value} is out of range: {what} must be between {low} and {high}."
SEAT_TWICE = "seat {seat} is described twice (also on line {other}). Give each [[seats]] table its own seat number 1-4."
NO_SEATS = "the table has no seats. Add at least one [[seats]] table with 'seat = 1'."
TOO_MANY_SEATS = "the table has {count} seats; Eleven is played by 1 to 4 clubs. Remove the extra [[seats]] tables."
SEAT_NEEDS_PAD = "seat {seat} has no pad with role 'tap'. Add a [[seats.pads]] table with role = \"tap\" under it."
SEAT_NEEDS_ROLL = "seat {seat} has no button with role 'roll'. Add a [[seats.buttons]] table with role = \"roll\" under it."
BUTTON_ROLE_TWICE = (
    "{owner} already has a {role!r} button (line {line}). Give this one another role (one of {roles}) or remove it."
)
PAD_NEEDS_READER = "this pad names no reader. Give either 'bus' and 'device' (a reader on SPI) or 'hub' and 'reader' (a reader on a serial hub)."
PAD_TWO_READERS = "this pad names both an SPI reader and a hub reader. Keep either 'bus'/'device' or 'hub'/'reader'."
PIN_TWICE = "GPIO {pin} is already used by {other} (line {line}). Wire this to a free pin and change the number here."
PIN_IS_BUS = "GPIO {pin} is {bus_pin}, which {user} needs. Wire this to a pin that no bus in use takes."
SPI_SELECT_TWICE = "SPI{bus}.{device} is already used by {other} (line {line}). Each reader or screen on SPI needs its own chip select."
SCREEN_ADDRESS_TWICE = "a screen at {where} is already used by {other} (line {line}). Give this screen another address, or another channel of the TCA9548A."
SCREEN_IS_MUX = "I2C address {address:#04x} on bus {bus} is the TCA9548A's own address. Set the screen's address to its real one (usually 0x3c)."
MUX_HALF = "'mux_address' and 'mux_channel' go together: give both (the screen sits behind a TCA9548A) or neither."
UNKNOWN_HUB = "no hub named {hub!r} is described. Add a [[hubs]] table with name = {hub!r}, or use one of: {known}."
HUB_READER_ZERO = (
    "reader 0 does not exist: a hub numbers its readers from 1, as its firmware and drivers/HUB_PROTOCOL.md do "
    "(the reader on the firmware's first SS pin is reader 1). Write reader = 1 or more."
)
HUB_GAIN = ("a hub's readers take the gain set in its firmware (ANTENNA_GAIN in firmware/touchline_hub/touchline_hub.ino). "
            "Remove 'gain_db' here and change it there.")
HUB_READER_TWICE = "reader {reader} of hub {hub!r} is already used by {other} (line {line}). Each pad needs its own reader."
HUB_TWICE = "a hub with this {field} is already described (line {line}). Each hub needs its own {field}."
SCREEN_INTERFACE_FIELDS = "a screen on {interface} does not take {fields}. Remove them, or set interface = \"{other}\"."


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a table file: where (line and field) and what to do."""

    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        # "LINE: FIELD: what" after the file name, as compilers print it, so editors can jump to the line.
        return f"{self.line or 1}: {self.field or '(top)'}: {self.message}"


class TableFileError(DeviceError, ValueError):
    """The table file is missing, unreadable, not TOML, or describes a table that cannot work."""

    def __init__(self, path: str, problems: list[Problem] | tuple[Problem, ...] | str) -> None:
        if isinstance(problems, str):
            self.problems: tuple[Problem, ...] = ()
            text = problems
        else:
            self.problems = tuple(problems)
            lines = [f"{path}: {len(self.problems)} problem(s) in the table file:"]
            lines += [f"  {path}:{p}" for p in self.problems]
            text = "\n".join(lines)
        self.path = path
        super().__init__(text)


# --- the deck ------------------------------------------------------------------------------------------------------


class DeckError(DeviceError, ValueError):
    """The table file's deck cannot be played: missing, not a folder, a broken file, or too few cards to deal."""


# --- the event store ------------------------------------------------------------------------------------------------

STORE_CORRUPT = (
    "The game log {path} is damaged ({reason}). Move it aside (e.g. mv {path} {path}.broken) and start again; "
    "the damaged file can still be sent with a bug report."
)
STORE_UNREADABLE = "The game log {path} cannot be opened ({reason}). Check that the folder exists and that this user may write to it."
STORE_WRITE_FAILED = (
    "The game log {path} could not be written ({reason}); the last input was not recorded. "
    "Free some space on the card, or check that this user may write to the file, then try again."
)
STORE_TOO_NEW = (
    "The game log {path} was written by a newer Touchline (log version {found}, this one knows up to {known}). "
    "Upgrade Touchline, or use another --db file."
)
STORE_NOT_SQLITE = (
    "{path} is not a Touchline game log (it is not an SQLite database at all), so Touchline leaves it as it is. "
    "Give the table another file (--db, or database = in the table file), or move this one aside "
    "(e.g. mv {path} {path}.broken) if it was the table's log."
)
STORE_FOREIGN = (
    "{path} is another program's database, not a Touchline game log, so Touchline leaves it as it is. Give the "
    "table another file with --db (or database = in the table file)."
)
STORE_WAL_DAMAGED = (
    "The game log {path} was damaged on the card: the last {lost} change(s) saved before the table stopped could "
    "not be read back and are lost; the game goes on from the last change that could. A copy of the damaged log "
    "is kept in {copy} (send it with a bug report)."
)
STORE_DAMAGED = (
    "The game log {path} was damaged on the card ({reason}). Everything that could still be read was kept: "
    "{games} game(s) with {events} event(s) in all; the rest is lost. The damaged file is kept in {copy} "
    "(send it with a bug report)."
)
NOT_KEPT = "nowhere: it could not be copied ({reason})"
STORE_FULL = (
    "The game cannot be saved: the card that holds the game log ({path}) is full. Nothing saved before is lost, "
    "but the last thing done was not recorded. Free some space on the card, then do it again; the table goes on "
    "by itself once there is room."
)
STORE_READ_ONLY = (
    "The game cannot be saved: the game log {path} cannot be written any more (the card or its folder became "
    "read-only, often a sign of a failing card). Nothing saved before is lost, but the last thing done was not "
    "recorded. Restart the table; if it happens again, replace the card."
)
NO_SUCH_GAME = "There is no game {game}. `touchline games` lists the games kept."
GAME_FINISHED = "Game {game} is over; nothing more can be added to it. Start a new game."
NOTHING_TO_UNDO = "Game {game} has no event left to undo."
TAG_ALREADY_ENROLLED = "Tag {uid} is already enrolled as {card}. Lift it and tap another card, or remove that enrolment first."


class StoreError(DeviceError, OSError):
    """The game log cannot be opened or written."""


class StoreCorrupt(StoreError):
    """The game log file is damaged."""

    def __init__(self, message: str, *, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason or message


class ForeignFile(StoreError):
    """The file is not a Touchline log (another program's, or not SQLite at all); it is left untouched."""


class StoreFull(StoreError):
    """The card holding the log is full: the write was refused, nothing changed."""


class StoreReadOnly(StoreError):
    """The log cannot be written any more (a read-only card or folder): the write was refused, nothing changed."""


class GameNotFound(DeviceError, LookupError):
    """A game id that the log does not hold."""


class GameFinished(DeviceError, ValueError):
    """An event was offered to a game that is already over."""


class NothingToUndo(DeviceError, ValueError):
    """Undo was asked on a game with no events."""


class TagAlreadyEnrolled(DeviceError, ValueError):
    """The tag is already mapped to another card of the same deck."""


# --- seasons --------------------------------------------------------------------------------------------------------

SEASON_NAME_LIMIT = 60
SEASON_NAME_EMPTY = "A season needs a name, e.g. \"Autumn league\". Nothing was changed."
SEASON_NAME_TOO_LONG = ("A season's name has at most {limit} characters; this one has {length}. Give a shorter name. "
                        "Nothing was changed.")
SEASON_NAME_BAD = "A season's name is one line of text, without tabs or control characters. Nothing was changed."
SEASON_NAME_TAKEN = "There is already a season called {name!r}. Give the new one another name. Nothing was changed."
NO_SUCH_SEASON = "There is no season {season!r}. Seasons kept: {known}."
NO_SEASONS_YET = "There is no season {season!r}: no season has been made yet (touchline season new NAME, or the Seasons page)."
NO_GAMES_NAMED = "Name at least one game by its number (touchline games lists them). Nothing was changed."
GAME_IN_OTHER_SEASON = ("Game {game} already counts in the season {season!r}; a game counts in one season only. Remove it "
                        "from that season first. Nothing was changed.")
GAME_ABANDONED = "Game {game} was abandoned before its end, so it has no final scoring."
GAME_NOT_IN_SEASON = "Game {game} is not in the season {season!r}, so it cannot be removed from it. Nothing was changed."


class SeasonNotFound(DeviceError, LookupError):
    """A season name or number that the log does not hold."""


class SeasonRefused(DeviceError, ValueError):
    """A change to a season that cannot be made (a bad or taken name, a game in another season); nothing changed."""


# --- export ---------------------------------------------------------------------------------------------------------

GAME_NOT_OVER = (
    "Game {game} is not over yet, so it has no final score to send to BG Stats. "
    "Finish it first, or export its log so far with --format json or --format csv."
)
NO_FINAL_SCORING = (
    "Game {game} is marked over, but its final scoring cannot be worked out from its log ({reason}). "
    "Export the log with --format json and attach it to a bug report."
)
UNKNOWN_FORMAT = "{fmt!r} is not an export format. Use one of: json, csv, bgstats."


class ExportError(DeviceError, ValueError):
    """A game cannot be exported in the way that was asked."""


# --- scenarios (touchline replay) ----------------------------------------------------------------------------------


class ScenarioError(DeviceError, ValueError):
    """A scenario file cannot be read or run as written; the message names the step, its line and what to do."""
