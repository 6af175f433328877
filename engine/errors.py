"""Every error the engine raises, with the sentences players read as constants tests import.

Each class also inherits the matching built-in (``ValueError`` for events the rules forbid, ``KeyError`` for
unknown cards) so callers that only know Python's exceptions still catch them.  The state is never changed by an
event that raises: the reducer builds a new state and only returns it when the whole event was legal.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "EngineError",
    "BadEvent",
    "WrongStage",
    "NotYourTurn",
    "NotAllowed",
    "NotEnoughResources",
    "UnknownCard",
    "UnknownSeat",
    "DataError",
]


class EngineError(Exception):
    """Base of every error the rules raise; ``str()`` is a sentence a player understands."""


class BadEvent(EngineError, ValueError):
    """The event is malformed: an unknown type, a missing or ill-typed field."""


class WrongStage(EngineError, ValueError):
    """The event belongs to another moment of the game (e.g. a lineup on a Tuesday)."""


class NotYourTurn(EngineError, ValueError):
    """A seat acted while another seat is to play."""


class NotAllowed(EngineError, ValueError):
    """The rules forbid this now (a limit, a card already used, a placement that breaks the pitch rules...)."""


class NotEnoughResources(EngineError, ValueError):
    """The club cannot pay what the action costs."""


class UnknownCard(EngineError, KeyError):
    """A card id that is not in the profile, or not where the event says it is."""

    def __str__(self) -> str:  # KeyError would quote the message; players should read it plainly
        return str(self.args[0]) if self.args else ""


class UnknownSeat(EngineError, ValueError):
    """A seat number that has no club."""


try:  # the data layer's error, re-exported so callers need one errors module for the engine
    from engine.loader import DataError  # noqa: F401
except ImportError:  # pragma: no cover - only while the loader is being written

    class DataError(EngineError, ValueError):  # type: ignore[no-redef]
        """A data file is broken (placeholder until the loader defines it)."""


# ---------------------------------------------------------------------------------------------------------------
# Message templates (str.format fields in braces).

ROLL_BEFORE_KICKOFF: Final = "Seat {seat} has the {die} to roll before the match: press the button first."
GAME_FIRST: Final = "The game's pack, modules and options are named by its first event; this game has begun already."
UNKNOWN_PACK: Final = 'There is no game "{pack}". Known: {known}.'
UNKNOWN_MODULE: Final = 'There is no module "{module}". Modules: {known}.'
MODULE_TWICE: Final = 'The module "{module}" is named twice.'
MODULE_NEEDS: Final = "The {title} module needs the {other} module: choose both."
MODULE_EXCLUDES: Final = "The {title} module cannot be played with the {other} module: choose one."
MODULE_DATA_MISSING: Final = (
    "The deck {profile} has no {file}, which the {title} module needs: add it to the deck folder (see engine/DATA.md)."
)
UNKNOWN_OPTION: Final = 'This game has no option "{option}". Options: {known}.'
BAD_OPTION: Final = 'The option "{option}" is wrong: {why}.'
NEWER_REVISION: Final = ("This game was begun under revision {revision} of the rules' readings; this Touchline knows "
                         "revisions 1 to {known}: update Touchline to go on with it.")
BAD_EVENT_TYPE: Final = 'There is no event "{type}". Known events: {known}.'
MISSING_FIELD: Final = 'The "{type}" event needs the field "{field}" ({doc}).'
BAD_FIELD: Final = 'The "{type}" event has a bad "{field}": {why}.'
UNKNOWN_SEAT: Final = "There is no club at Seat {seat}."
SEAT_TAKEN: Final = "Seat {seat} already has a club ({name})."
TOO_MANY_CLUBS: Final = "The table already has {count} clubs; the game takes at most {max}."
UNKNOWN_CARD: Final = 'There is no card "{card}" in the deck {profile}.'
WRONG_KIND: Final = "{name} is a {kind} card, not a {wanted} card."
CARD_TAKEN: Final = "{name} already belongs to Seat {seat}."
CARD_DISCARDED: Final = "{name} was sold and lies on the discard pile: it cannot be hired again."
CARD_NOT_OWNED: Final = "Seat {seat} does not have {name}."
WRONG_STAGE: Final = "Seat {seat} cannot {what} now: it is {stage}, {expected}."
NOT_YOUR_TURN: Final = "Seat {seat} cannot {what}: it is Seat {turn}'s turn ({day})."
NOT_ENOUGH: Final = "Seat {seat} cannot {what}: it costs {cost} and the club has {have}."
ALREADY_ACTED: Final = "Seat {seat} has already taken its action this {day}; only a free action (2 Operation) on a card or token is left, or pass."
NO_FREE_ACTION: Final = "Seat {seat} has already taken its free action this {day}."
FREE_ACTION_CARD_ONLY: Final = "A free action can only be a card's or token's action."
CARD_EXHAUSTED: Final = "{name} is exhausted: its action can be used once per round."
ABILITY_USED: Final = "{name}'s ability has already been used at {moment}."
NO_ABILITY_NOW: Final = "{name} has no ability a club may use at {moment}."
FINISH_ABILITIES: Final = "Seat {seat} must first use or pass its abilities at {moment}."
CARD_HAS_NO_ACTION: Final = "{name} has no action to use."
CARD_UNAVAILABLE: Final = "{name} cannot be used while it is injured or suspended."
SETUP_DIRECTORS: Final = "Seat {seat} must keep exactly {count} different Director cards."
SETUP_ALREADY: Final = "Seat {seat} has already {what}."
SETUP_MARKERS: Final = (
    "Seat {seat}'s jersey markers must name each numbered marker ({known}) once, showing \"attack\" or \"defence\"."
)
SETUP_MARKERS_HALF: Final = (
    "At the beginning of the game exactly {attack} jersey markers show attack and {defence} defence; Seat {seat} "
    "places {placed_attack} attack and {placed_defence} defence: flip a plain marker."
)
SETUP_MARKERS_CARD: Final = (
    "Jersey marker {jersey} must show {style}, as {name} shows: the starting cards' markers show their symbols."
)
SETUP_SAME_JERSEY: Final = (
    "{veteran} and {youngster} both wear number {jersey}: discard the Youngster and draw another one."
)
SETUP_OPPONENT_COUNT: Final = "Seat {seat} was dealt {count} Opponent cards but the other clubs have {others}: every club plays the same number of weeks."
SETUP_OPPONENT_WEEKS: Final = (
    "Seat {seat} was dealt {count} Opponent cards, but this game of {weeks} weeks deals {needed} to each club."
)
SETUP_OPPONENT_EMBLEM: Final = "Seat {seat}'s Opponent cards must all have different emblems; {team} appears twice."
SETUP_OPPONENT_DECK: Final = ("Seat {seat}'s Opponent cards {first} to {last} are its Division {division} deck, but {name} "
                              "({card}) is not a Division {division} card.")
SETUP_OPPONENT_OFF_TABLE: Final = ("{name} ({card}) plays for a team that is not on this game's League table ({known}); "
                                   "deal Opponent cards of those teams.")
SETUP_INCOMPLETE: Final = "The game cannot start yet: {missing}."
NOT_WAITING_ROLL: Final = "No roll is expected from {who} now."
ROLL_RANGE: Final = "A {die} shows 1 to {faces}, not {value}."
NO_FANBASE_REROLL: Final = "Seat {seat} has no Fanbase left to pay for a reroll."
ALREADY_BOARD_CARD: Final = "Seat {seat} already has a Board meeting card this week ({name})."
SELL_UNTRAINED: Final = "{name} is not trained: only trained footballers can be sold."
SPONSOR_FULL: Final = "Seat {seat} already has {count} {contract} sponsor(s), the most allowed."
INFRA_LIMIT: Final = "Seat {seat} already has {count} {name}; a club may build {copies}."
INFRA_NO_SPACE: Final = ("Seat {seat} has no empty space for {name}: its Stadium board has {spaces} {space} "
                         "space(s) and all are built on.")
UNKNOWN_INFRA: Final = 'There is no Stadium Infrastructure "{kind}". Known: {known}.'
OFFICE_TOP: Final = "Seat {seat}'s Office marker is already on the top space."
POTENTIAL_FORBIDDEN: Final = "The {stat} Stat cannot be raised by increasing the Club potential."
POTENTIAL_TOP: Final = "Seat {seat}'s {stat} Stat is already at the top ({level})."
LINEUP_COUNT: Final = "A lineup needs exactly {need} jersey markers on the pitch, not {count}."
LINEUP_ZONE: Final = '"{zone}" is not a zone of the pitch. Zones: {known}.'
LINEUP_ZONE_FULL: Final = "{zone} holds at most {cap} jersey markers; the lineup puts {count} there."
LINEUP_SECTION_FULL: Final = "At most {cap} jersey markers may stand among the {section}; the lineup puts {count} there."
LINEUP_JERSEY_TWICE: Final = "Jersey number {jersey} is used twice: two footballers with the same number cannot play in one match."
LINEUP_CARD_SECTION: Final = "{name} cannot play on {zone}: the card plays among the {sections}."
LINEUP_CARD_TWICE: Final = "{name} is placed twice."
LINEUP_CARD_JERSEY: Final = "{name} wears number {jersey}, not {given}."
LINEUP_UNAVAILABLE: Final = "{name} is injured or suspended and cannot play."
LINEUP_BAD_STYLE: Final = 'A jersey marker shows "attack" or "defence", not "{style}".'
LINEUP_MARKER_SIDE: Final = (
    "Jersey marker {jersey} shows {shows}, not {style}: only a footballer card with number {jersey} can flip it "
    "(hire or field one), so place it as it shows."
)
LINEUP_BLANK_SIDE: Final = 'Say which side each blank jersey marker shows ("attack" or "defence").'
LINEUP_MARKER_UNSEEN: Final = 'Say which side jersey marker {jersey} shows ("attack" or "defence"): this is its first match.'
LINEUP_SETUP_SIDES: Final = (
    "At the beginning of the game the numbered jersey markers show exactly {attack} attack and {defence} defence, "
    "and a plain marker never flips: with this lineup {shown_attack} show attack and {shown_defence} defence "
    "(the starting cards' markers and the plain ones no card has flipped yet). Place the plain markers as they "
    "were set up."
)
LINEUP_JERSEY_UNKNOWN: Final = "There is no jersey marker number {jersey}; numbered markers are {known} (use no number for a blank one)."
LINEUP_BLANKS: Final = "The club has only {have} blank jersey markers; the lineup uses {count}."
STANDS_LIMIT: Final = "Seat {seat} has {stands} Stands; it cannot put {count} Fanbase on them."
ALREADY_LINED_UP: Final = "Seat {seat} has already set its lineup this Matchday."
NO_LINEUP: Final = "Seat {seat} must set its lineup first."
ALREADY_PLAYED: Final = "Seat {seat} has already played its match this week."
NO_OPPONENT_CARD: Final = "Seat {seat} plays no Opponent card this week: its match is played as the game's rules for it say."
AFTER_MATCH_OVER: Final = "Seat {seat} has rolled its Match consequence: the moment after the match is over."
TACTIC_ONE: Final = "Seat {seat} has already played a Tactic card this match."
TACTIC_NONE: Final = "Seat {seat} plays no Tactic card in this match."
SUSPENSION_CHOICE: Final = "Seat {seat} must name {count} Staff or Player card(s) for the Suspension tokens, one for each missing €."
OBJECTIVE_PERFECT: Final = "An Objective fulfilled perfectly is also fulfilled."
ADJUST_UNKNOWN: Final = 'Cannot adjust "{what}". Adjustable: {known}.'
ADJUST_BELOW: Final = "Seat {seat} cannot go below {low} {what} (it has {have})."
KEEP_OR_REROLL_FIRST: Final = "Seat {seat} must first keep its roll or reroll it (1 Fanbase or a free reroll)."
FINISH_ROLL_FIRST: Final = "Seat {seat} must first finish its {what} roll."
ASSIGN_NOT_PLAYING: Final = "Resources can only be assigned to footballer cards that play: {name} does not."
NOT_PLAYING: Final = "{name} does not play in this match, so its action cannot be used."
HIRE_SPONSOR_ROW: Final = "Hiring from the {row} row is done with a sponsor contract."
STAT_ABOVE_TOP: Final = "The {stat} Stat cannot go above {top}."
UNKNOWN_TEAM: Final = 'There is no Opponent team "{team}" on the League table.'
GAME_OVER: Final = "The game is over; nothing more can happen."
NEED_TARGET: Final = "{name}'s effect needs a chosen {what}: name it in the event's \"targets\"."
