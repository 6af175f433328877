"""Every event the engine accepts, with its fields described in one line (the contract's ``EVENT_TYPES``)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final, Mapping

#: event "type" -> its fields in words.  Every event may also carry "seat" (the club it concerns).
EVENT_TYPES: Final[Mapping[str, str]] = MappingProxyType(
    {
        # setup
        "club": "seat, name: a club takes a seat (Stat markers on space 2, a First trainer)",
        "directors": "seat, cards: [3 Director ids] kept after the draft; their Stat changes and bonuses apply",
        "starting_players": "seat, veteran, youngster: the starting cards drawn (equal jersey numbers are refused); markers (optional): {number: side} of every numbered jersey marker placed, half attack and half defence",
        "opponents": "seat, cards: [Opponent ids] dealt, in playing order; their number is the game length",
        "objective": "seat, card: the Objective card kept",
        "tactic": "seat, card: a Tactic card drawn",
        "first_player": "seat: the First player takes the Stage marker; week 1 begins (needs every club set up)",
        # dice
        "roll": "seat (null for an Opponent die), value, team (for an Opponent die), targets?: a die result the engine awaits "
        "(targets: the cards the club chooses for \"of your choice\" effects this result brings)",
        "reroll": "seat, value, targets?: spend 1 Fanbase (or a free reroll) and replace the held result",
        "keep": "seat, targets?: keep the held result",
        # Monday
        "board_meeting": "seat, card: the club's Board meeting card this week",
        # Tuesday-Thursday
        "hire_player": "seat, card: a Player card taken from the display",
        "hire_youngster": "seat, card: the Youngster card drawn from the deck",
        "sell": "seat, card: a trained footballer sold",
        "hire_staff": "seat, card, targets?: a Staff card taken from the display",
        "sponsor": "seat, card, contract (megaphone/adboard/shirt), bonus? (adboard: take the bonus instead), targets?",
        "build": "seat, kind: a Stadium Infrastructure kind built",
        "office": "seat: move one space up the Office track",
        "potential": "seat, stat: try to raise a Stat (a d6 follows)",
        "use_card": "seat, card, free?, targets?, roll?: a card's or token's action (Matchday: a match ability)",
        "pass": "seat: end the turn",
        # Matchday
        "lineup": "seat, players: [{zone, jersey, card, style}] x10, stands, assign?: {card: {resource: n}}",
        "tactic_played": "seat, card, targets?, roll?: the Tactic card played this match",
        "kickoff": "seat: resolve the club's match",
        # End of round and the end
        "suspensions": "seat, cards: one Staff/Player id per missing € of Maintenance (2 Suspension tokens each)",
        "objective_result": "seat, result (missed/fulfilled/perfect): when the data cannot check the Objective",
        # any time
        "adjust": "seat, what, delta, reason, card?/team?: the table changes a tracked number (text effects too)",
    }
)
