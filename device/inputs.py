"""What a tap and a press mean: table inputs plus what the engine awaits, turned into events or a message.

The meaning of an input follows the stage of the week and the kind of card, the way the game does.  The
engine says what it waits for (``state.awaiting``); this module decides what a card on seat 2's pad or a
press of seat 2's button means *now*, rolls the dice when a press asks for a roll, and keeps the little
that lives between two inputs: a hire waiting for its confirming press, the Sponsor contract kind being
stepped through, the few seconds in which a second press rerolls for 1 Fanbase.

Nothing here changes the game: it returns events for the runtime to offer the engine, and messages for
the seats' screens.  The clock and the dice are injected so tests drive both.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from device.screens import Message, message_for, refusal_message
from drivers.dice import D6, D10, Die, Dice

UNKNOWN_CARD = "Unknown card — enrol it on the page"
NOT_NOW = "Not now"
NOTHING_TO_ROLL = "Nothing to roll now"
NOTHING_TO_UNDO = "Nothing to undo"
UNDONE = "Undone"
CANCELLED = "Cancelled"
NO_GAME = "No game yet — start one on the page"
PRESS_TO_CONFIRM = "Press: confirm · Hold: cancel"
PRESS_STEPS_HOLD_SIGNS = "Press: next kind · Hold: sign"
PRESS_STEPS_HOLD_ROLLS = "Press: next Stat · Hold: choose"
PRESS_STEPS_HOLD_TELLS = "Press: next · Hold: confirm"
PRESS_STEPS_HOLD_CHOOSES = "Press: next · Hold: choose"
WAY_WORDS = {"sell": "Sell to the supply", "auction": "Auction", "use_card": "Use it", "hire_player": "Hire",
             "hire_youngster": "Hire", "hire_staff": "Hire", "cancel": "Cancel"}
"""The uses of one card the button steps through when the engine takes several now (a footballer sold to the supply
or by auction when the game plays Transferring Players)."""
USE_VERBS = {"sell": "Sell", "use_card": "Use", "auction": "Auction"}
"""The question a seat's screen asks before a use is sent (hires: "Hire X for €3?")."""
CANCEL: Mapping[str, Any] = {"type": "cancel"}
"""The last of several ways the button steps through: none of them."""
PRESS_TO_REROLL = "Press again to reroll (1 Fanbase)"
WAITING_FOR = "Waiting for {who}"
LINEUP_ON_PAGE = "Set your lineup on the page"
TAP_CARD = "Tap your {kinds} card"
PRESS_TO_ROLL = "Press to roll the {die}"
KICKOFF = "Tap your Opponent card"
NOT_THIS_OPPONENT = "Not {name}"
ACTION_TAKEN = "Action taken"
END_TURN = "Hold: end turn"
TAP_PICK = "Tap the {what}"
PICK_FOR = "for {name}"
HOLD_TO_CANCEL = "Hold: cancel"
FORMATION = "Formation: {shape}"
PRESS_STEPS_HOLD_DECLARES = "Press: next · Hold: declare"
DECLARE_FORMATION = "Declare your formation"
ARRANGE_ON_PAGE = "Arrange on your page"
ARRANGE_SECRETLY = "In secret: your {half}"
ARRANGE_SHAPE = "In secret: your {half}, a {shape}"
ABILITY_TURN = "Your turn: {moment}"
TAP_OR_PASS = "Tap a card · Hold: pass"
HALF_NOW = "The {half}"
TAP_OR_READY = "Tap a card · Hold: ready"
MOMENT_WORDS = {"after_reveal": "after the reveal", "before_match": "before the match"}
HALF_WORDS = {1: "first half", 2: "second half"}
NOT_A_PICK = "Not one of your {what}s"
NOT_TO_TAKE = "Not a {what}"
"""A tapped card that is not what a hire takes (a Staff card for a Player)."""
NOT_THAT = "Not {name}"
"""A tapped card of the kind asked for that the rules will not take (held by a club, too dear): their reason below."""
ROLL_STANDS = "The roll stands"
"""A hold while a roll's result waits for its card: a roll is never rolled again, so nothing is cancelled."""
ROLL_EVENTS = ("roll", "keep", "reroll")
"""The events that settle a die's result: a choice their decision waits for holds the result, and no hold cancels it."""
_UNSAID = ("table_resolves", "keep", "turn")
"""What a roll's result, shown while its card is awaited, leaves out: the choice is being made by a tap."""
ROLL_FOR = "for {what}"
"""Under "Press to roll the d6": what the roll decides (the Board meeting card, the Stat, the card's effect)."""
KEEP_GIVES = "Keep: {outcome}"
"""Under a roll that may still be rerolled: what keeping it gives, as the engine says it would."""
THEN_TAP = "Then tap the {what}"
"""Under a held roll whose kept decision asks for a card: the card to tap once it is kept."""
HELD_FOR_A_CARD = "Seat {seat} rolled {value} {prompt}: tap the {what} it is for on the table (the die is not rolled again)."
"""What a page says of a die's result a seat's screen holds until the card its decision is for is tapped."""
ROLL_PURPOSES = {"potential": "Club potential", "match_consequence": "Match consequence", "injury": "an injury",
                 "suspension": "a suspension", "opponent_die": "an Opponent die", "effect": "a card's effect",
                 "referee": "the referee", "referee_tags": "the referee's tags", "referee_foul": "a foul",
                 "club_tiebreak": "the tie-break"}

REROLL_SECONDS = 4.0
"""How long after a roll a second press spends 1 Fanbase to reroll it."""

KIND_WORDS = {
    "board_meeting": "Board meeting",
    "opponent": "Opponent",
    "player": "Player",
    "youngster": "Youngster",
    "veteran": "Veteran",
    "staff": "Staff",
    "sponsor": "Sponsor",
    "director": "Director",
    "objective": "Objective",
    "tactic": "Tactic",
}
CONTRACT_WORDS = {"megaphone": "Megaphone", "adboard": "Adboard", "shirt": "Shirt"}
RESULT_WORDS = {"missed": "Missed", "fulfilled": "Fulfilled", "perfect": "Perfect"}
STAT_WORDS = {"budget": "Budget", "fanbase": "Fanbase", "operation": "Operation", "fitness": "Fitness"}


# --- table inputs -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tap:
    """A card recognised on a pad; ``card`` is None when its tag is not enrolled."""

    pad: str
    seat: int | None
    uid: str
    card: str | None


@dataclass(frozen=True, slots=True)
class Lift:
    """The card on a pad went away."""

    pad: str
    seat: int | None
    uid: str


@dataclass(frozen=True, slots=True)
class Press:
    """A button pressed briefly; ``seat`` is None for a shared control."""

    button: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class Hold:
    """A button held past its hold time; ``seat`` is None for a shared control."""

    button: str
    seat: int | None


TableInput = Tap | Lift | Press | Hold


class Pick(NamedTuple):
    """A card a seat is asked to tap for an effect of a card's use or of a roll's result, as the engine says: what it
    is, in words ("footballer", "Youngster", "Player to hire"), and the cards the rules take for it."""

    what: str
    cards: tuple[str, ...]
    refused: Mapping[str, str] = {}
    """The engine's sentence for a card it would not take for this (a hire's: held by a club, too dear)."""
    mine: bool = True
    """Whether the cards are the club's own (a card to hire is not)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an input means: events to offer the engine (in order), messages per seat, or an undo."""

    events: tuple[dict[str, Any], ...] = ()
    messages: Mapping[int | None, Message] = field(default_factory=dict)
    undo: bool = False
    """Drop the last event of the log (the runtime says what was undone)."""
    again: bool = False
    """Once the events are applied, handle the same input again (it meant something once the roll was kept)."""
    refused: bool = False
    """The messages are the engine's refusal of what the input meant (nothing was sent to it)."""


class CardUse(Protocol):
    """One use of a card as the engine tried it: the event, and the engine's sentence when it refuses it now."""

    @property
    def event(self) -> Mapping[str, Any]: ...

    @property
    def why_not(self) -> str | None: ...


class Game(Protocol):
    """What the interpreter needs to know about the game right now (the runtime wraps engine state)."""

    @property
    def awaiting(self) -> tuple[Mapping[str, Any], ...]:
        """What the engine waits for now."""

    def kind(self, card: str) -> str | None:
        """The kind of a card of the deck, or None when the deck has no such card."""

    def name(self, card: str) -> str:
        """The card's printed name."""

    def cost(self, card: str) -> int | None:
        """What hiring the card costs in €, when it has a cost."""

    def owns(self, seat: int, card: str) -> bool:
        """Whether the club at ``seat`` has this card."""

    def fanbase(self, seat: int) -> int:
        """The Fanbase resource the club at ``seat`` holds."""

    def opponent(self, seat: int) -> str | None:
        """The Opponent card the club at ``seat`` plays this week."""

    def uses(self, seat: int, card: str) -> Sequence[CardUse]:
        """Each use the card offers the club at ``seat`` now, as the engine tries it (`engine.card_uses`): its action
        or ability, a hire, a sale, each Sponsor contract, and what the game's modules add (an auction); in the
        engine's order, each with its refusal or None."""

    def picks(self, event: Mapping[str, Any]) -> Sequence[Pick]:
        """The cards the club chooses for the effects of a card's use, in order, as the engine says (none when it
        refuses the use now)."""

    def why_not(self, event: Mapping[str, Any]) -> str | None:
        """The engine's sentence for why it would refuse ``event`` now, or None when it would take it."""

    def preview(self, event: Mapping[str, Any]) -> tuple[Mapping[str, Any], ...]:
        """What the engine would announce if ``event`` were applied now (nothing is applied); () when refused."""

    def board_card(self, seat: int) -> str | None:
        """The Board meeting card the club at ``seat`` holds this week."""


# --- pending choices between two inputs ----------------------------------------------------------------------------

#: The event a card stands for when nothing the table waits for fits it: offered to the engine so that its refusal,
#: in its words, names the card's own use ("Cannot play a Tactic card" only ever for a Tactic card).
MEANINGS: Mapping[str, str] = {
    "board_meeting": "board_meeting",
    "opponent": "kickoff",
    "tactic": "tactic_played",
    "objective": "objective_result",
}
#: The event a card of a kind makes when the engine awaits a card of that kind from the seat.
CARD_EVENTS: Mapping[str, str] = {"board_meeting": "board_meeting", "opponent": "reveal_opponent"}
#: Setup cards the table collects tap by tap: the kinds awaited → (event type, whether the event lists many cards).
SETUP_EVENTS: Mapping[tuple[str, ...], tuple[str, bool]] = {
    ("director",): ("directors", True),
    ("veteran", "youngster"): ("starting_players", False),
    ("opponent",): ("opponents", True),
    ("objective",): ("objective", False),
    ("tactic",): ("tactic", False),
}
OBJECTIVE_RESULTS = ("missed", "fulfilled", "perfect")
WINTER_RESULTS = ("fulfilled", "perfect", "missed")
"""How an Objective tapped at the Winter Break went, in the order the button steps (missed: it is the one discarded)."""
MATCH_TURNS = ("abilities", "half")
"""Needs of a match between clubs in which a club's own card tapped uses its ability (a hold passes)."""
POTENTIAL_STATS = ("budget", "fanbase", "operation", "fitness")
"""The Stats, in the order the button steps through those a Club potential roll may raise now (the engine says which:
the board forbids one, and a Stat at the top is not offered)."""


@dataclass(slots=True)
class _Pending:
    """A choice started by a tap or press and finished by a press or hold (or cancelled by a lift)."""

    kind: str  # "confirm", "contract", "potential", "suspensions", "collect", "objective", "pick", "formation", "ways"
    event: dict[str, Any]
    options: tuple[Any, ...] = ()
    """What the button steps through (Stats, contracts, results, shapes; for "ways" the engine's events)."""
    index: int = 0
    pad: str | None = None
    prompt: str = ""
    chosen: list[str] = field(default_factory=list)
    count: int = 0
    many: bool = False
    """Setup cards: the event lists every card tapped (``cards``) rather than one (``card``)."""


def _main_use(uses: Sequence[CardUse]) -> CardUse | None:
    """What a card is for, of the uses the engine lists: its use besides its action (a hire, a sale, a contract)
    when it has one, else its action; None for a card the deck does not have."""
    return next((u for u in uses if u.event.get("type") != "use_card"), uses[0] if uses else None)


def _die(entry: Mapping[str, Any], dice_by_name: Mapping[str, Die]) -> Die:
    """The die an awaited roll names (d6 unless the entry says otherwise)."""
    name = str(entry.get("die", "d6"))
    if name in dice_by_name:
        return dice_by_name[name]
    if name.startswith("d") and name[1:].isdigit():
        return Die(name, tuple(range(1, int(name[1:]) + 1)))
    raise ValueError(f"The engine asked for a roll of an unknown die {name!r}: add it to the board profile's dice.")


def _roll_for(entry: Mapping[str, Any], game: Game) -> str:
    """What an awaited roll decides, in words: the Board meeting card, the Stat, the card whose effect it is."""
    purpose = str(entry.get("purpose", ""))
    seat = entry.get("seat")
    if purpose == "board_meeting" and isinstance(seat, int):
        card = game.board_card(seat)
        if card:
            return game.name(card)
    if purpose == "potential" and entry.get("stat"):
        return f"{ROLL_PURPOSES['potential']}: {STAT_WORDS.get(str(entry['stat']), str(entry['stat']))}"
    if purpose == "effect" and entry.get("card"):
        return game.name(str(entry["card"]))
    return ROLL_PURPOSES.get(purpose, purpose.replace("_", " ") or "the game")


def _keep_gives(entry: Mapping[str, Any], game: Game) -> tuple[str, ...]:
    """Under a held roll: the card it is for, what keeping it gives (asked of the engine), and how to reroll."""
    seat = entry.get("seat")
    keep = {"type": "keep", "seat": seat}
    outcome = game.preview(keep) if isinstance(seat, int) else ()
    # a decision that asks for a card is settled by its tap, not by hand
    picks = tuple(game.picks(keep)) if any(a.get("kind") == "table_resolves" for a in outcome) else ()
    unsaid = _UNSAID if picks else ("keep", "turn")
    shown = [a for a in outcome if a.get("seat") in (seat, None) and a.get("kind") not in unsaid]
    lines = [ROLL_FOR.format(what=_roll_for(entry, game))]
    if shown:
        result = message_for(shown, game.name)
        lines.append(KEEP_GIVES.format(outcome=result.headline))
        lines.append(PRESS_TO_REROLL)
        asked = next((pick for pick in picks if len(pick.cards) != 1), None)  # one card alone fits: taken unasked
        if asked is not None and asked.cards:
            lines.append(THEN_TAP.format(what=asked.what))
        lines.extend(line for line in result.detail if line not in lines)
    else:
        lines.append(PRESS_TO_REROLL)
    return tuple(lines)


def _settling(pending: _Pending) -> bool:
    """Whether a pending choice is a die's result waiting for the cards its decision is for (not to be cancelled)."""
    return pending.kind == "pick" and pending.event.get("type") in ROLL_EVENTS


def _awaited_as(pending: _Pending) -> str:
    """The need the engine shows while a die's result held for its card is still to be sent: the roll itself, or
    the keep (or reroll) of a roll it holds."""
    return "roll" if pending.event.get("type") == "roll" else "keep_or_reroll"


def _take_single(pending: _Pending, picks: Sequence[Pick]) -> None:
    """Take for a roll's decision each next choice that one card alone fits: nothing to ask."""
    while len(pending.chosen) < len(pending.options) and len(picks[len(pending.chosen)].cards) == 1:
        pending.chosen.append(picks[len(pending.chosen)].cards[0])


def _kinds_text(kinds: Sequence[str]) -> str:
    """Card kinds in words, e.g. ``Board meeting`` or ``Player or Staff``."""
    return " or ".join(KIND_WORDS.get(k, k) for k in kinds) or "a"


class Interpreter:
    """Turns table inputs into events or messages, given what the engine awaits."""

    def __init__(
        self,
        dice: Dice,
        *,
        clock: Callable[[], float] = time.monotonic,
        reroll_seconds: float = REROLL_SECONDS,
        dice_by_name: Mapping[str, Die] | None = None,
        setup_counts: Mapping[tuple[str, ...], int] | None = None,
    ) -> None:
        self.dice = dice
        self.setup_counts: dict[tuple[str, ...], int] = {
            ("director",): 3, ("opponent",): 8, ("objective",): 1, ("tactic",): 1, **(setup_counts or {})
        }
        self.clock = clock
        self.reroll_seconds = reroll_seconds
        self.dice_by_name: dict[str, Die] = {"d6": D6, "d10": D10, **(dice_by_name or {})}
        self._pending: dict[int, _Pending] = {}
        self._rolled_at: dict[int, float] = {}
        self._asked: dict[int, Message] = {}

    # -- public ----------------------------------------------------------------------------------------------

    def handle(self, table_input: TableInput, game: Game | None) -> Outcome:
        """What ``table_input`` means now: events for the engine, messages for the screens, or an undo."""
        if isinstance(table_input, Hold) and table_input.seat is None:
            self.reset(game)
            return Outcome(undo=True)
        if isinstance(table_input, Tap) and table_input.card is None:
            return self._say(table_input.seat, UNKNOWN_CARD, f"Tag {table_input.uid}")
        if game is None:
            return self._say(table_input.seat, NO_GAME)
        if isinstance(table_input, Lift):
            return self._lift(table_input)
        self._drop_stale(game)
        seat = table_input.seat
        pending = self._pending.get(seat) if seat is not None else None
        if seat is not None and pending is not None and _settling(pending):
            return self._result_waits(table_input, seat, pending, game)
        entry = self._awaited(game, seat) if seat is not None else None
        if entry is not None and entry.get("need") == "keep_or_reroll":
            if isinstance(table_input, Press) and self._in_window(seat):
                return self._settle(seat, self._reroll(seat, entry), game)
            # Anything else the seat does first settles the roll it could have rerolled.  A tap then means what
            # it means once the roll is kept (or, when the decision kept asks for a card, it is that card); a press
            # or a hold only keeps it: a hold that went on to pass the seat's coming turn would take a turn nobody
            # meant to give up.
            self._rolled_at.pop(seat, None)
            tapped = table_input.card if isinstance(table_input, Tap) else None
            return self._settle(seat, {"type": "keep", "seat": seat}, game, tapped)
        if isinstance(table_input, Tap):
            return self._tap(table_input, game)
        if isinstance(table_input, Press):
            return self._press(table_input, game)
        return self._hold(table_input, game)

    def automatic(self, game: Game, announcements: Sequence[Mapping[str, Any]] = ()) -> tuple[dict[str, Any], ...]:
        """Rolls the table makes by itself now: Opponent dice for teams nobody played, and tied Board meetings."""
        tied = {a.get("seat") for a in announcements if a.get("kind") == "board_meeting_tie"}
        self._drop_stale(game)
        events: list[dict[str, Any]] = []
        for entry in game.awaiting:
            if entry.get("need") != "roll":
                continue
            seat = entry.get("seat")
            if seat is None:
                events.append(self._roll_event(entry))
                break
            if seat in tied and seat not in self._pending:
                self._rolled_at[seat] = self.clock()
                # the decision of a tie's new roll may ask for a card, as a roll by the button does
                settled = self._settle(seat, self._roll_event(entry), game)
                events.extend(settled.events)
                self._asked.update(settled.messages)
                break  # one at a time: the next is asked for once this one is applied
        return tuple(events)

    def expired(self, game: Game) -> tuple[dict[str, Any], ...]:
        """Rolls whose reroll window has closed: they are kept."""
        now = self.clock()
        self._drop_stale(game)
        events: list[dict[str, Any]] = []
        for entry in game.awaiting:
            seat = entry.get("seat")
            if entry.get("need") != "keep_or_reroll" or seat is None or seat in self._pending:
                continue  # a kept result waiting for its card stays kept
            started = self._rolled_at.setdefault(seat, now)  # e.g. after a restart: the window opens again
            if now - started > self.reroll_seconds:
                del self._rolled_at[seat]
                settled = self._settle(seat, {"type": "keep", "seat": seat}, game)
                events.extend(settled.events)
                self._asked.update(settled.messages)
        return tuple(events)

    def asked(self) -> dict[int, Message]:
        """What the seats' screens say since `automatic` or `expired` last settled a roll by themselves (a result
        that waits for the card its decision is for), once; then nothing until the next."""
        asked, self._asked = self._asked, {}
        return asked

    def held(self, need: Mapping[str, Any]) -> str | None:
        """The sentence for a page when the roll the engine awaits (``need``) has been rolled at the table and its
        result is held on the seat's screen until the card its decision is for is tapped; None otherwise."""
        seat = need.get("seat")
        pending = self._pending.get(seat) if isinstance(seat, int) else None
        if pending is None or not _settling(pending):
            return None
        if need.get("need") != _awaited_as(pending):
            return None  # the engine no longer waits for that roll: the result is forgotten at the next input
        return HELD_FOR_A_CARD.format(seat=seat, value=pending.event.get("value", need.get("value")),
                                      prompt=pending.prompt, what=pending.options[len(pending.chosen)])

    def reset(self, game: Game | None = None) -> None:
        """Forget pending choices and reroll windows (after an undo or a new game).  With ``game`` (an undo), each
        die's result held for the card its decision is for stays while the engine still waits for that roll in
        ``game``: the die was rolled, and an undo that takes back something else must not let the seat roll again."""
        held = {seat: p for seat, p in self._pending.items() if _settling(p) and not self._stale(seat, p, game)} \
            if game is not None else {}
        self._pending.clear()
        self._pending.update(held)
        self._rolled_at.clear()
        self._asked.clear()

    def choices(self) -> dict[str, Any]:
        """The choices under way (a hire waiting for its press, Directors tapped so far...), JSON-safe."""
        return {
            str(seat): {"kind": p.kind, "event": p.event, "options": list(p.options), "index": p.index, "pad": p.pad,
                        "prompt": p.prompt, "chosen": list(p.chosen), "count": p.count, "many": p.many}
            for seat, p in sorted(self._pending.items())
        }

    def restore(self, choices: Mapping[str, Any]) -> None:
        """Take up the choices ``choices()`` returned (after a restart, so no tap the screens showed is lost)."""
        self._pending = {
            int(seat): _Pending(str(c["kind"]), dict(c["event"]), tuple(c["options"]), int(c["index"]), c.get("pad"),
                                str(c["prompt"]), list(c["chosen"]), int(c["count"]), bool(c.get("many", False)))
            for seat, c in choices.items()
        }

    def prompt(self, seat: int, game: Game | None) -> Message | None:
        """What the seat is asked to do now, when nothing else is on its screen."""
        if game is None:
            return None
        pending = self._pending.get(seat)
        if pending is not None and not (_settling(pending) and self._stale(seat, pending, game)):
            return self._pending_message(pending)
        entry = self._awaited(game, seat)
        if entry is None:
            # Only turns make a seat wait for another (a turn's action, a bidder's or an owner's answer to a module);
            # on Monday or Matchday everyone goes at once.
            waiting = [e for e in game.awaiting if e.get("seat") not in (None, seat)
                       and (e.get("need") == "action" or "press" in e)]
            if waiting:
                who = WAITING_FOR.format(who=f"Seat {waiting[0]['seat']}")
                if waiting[0].get("watch"):  # what every other seat follows meanwhile (an auction's highest bid)
                    # and what it is about (the card auctioned) above whose turn: the lines the waited seat has
                    return Message(str(waiting[0]["watch"]), tuple(str(x) for x in (waiting[0].get("about"), who) if x))
                return Message(who)
            return None
        return Message(*self._ask(entry, game))

    # -- taps ------------------------------------------------------------------------------------------------

    def _tap(self, tap: Tap, game: Game) -> Outcome:
        card = tap.card or ""
        kind = game.kind(card)
        if kind is None:
            return self._say(tap.seat, UNKNOWN_CARD, card)
        if kind == "opponent" and any(e.get("need") == "kickoff" for e in game.awaiting):
            return self._reveal(tap, card, game)
        if kind == "opponent" and tap.seat is not None and not any(
                e.get("seat") == tap.seat and e.get("need") == "card" and "opponent" in e.get("kinds", ()) for e in game.awaiting):
            # An Opponent card means its club's match: the engine says why there is none to play now.
            return self._ask_engine(tap.seat, {"type": "kickoff", "seat": tap.seat}, game)
        seat = tap.seat if tap.seat is not None else self._seat_waiting_for(game, kind)
        if seat is None:
            return self._say(None, NOT_NOW, f"{game.name(card)}: nobody waits for this card")
        entries = [e for e in game.awaiting if e.get("seat") == seat]
        first = entries[0] if entries else {}
        need = first.get("need")
        pending = self._pending.get(seat)
        if need == "suspensions":
            return self._suspension(seat, card, first, game)
        listed = next((e for e in entries if isinstance(e.get("tap"), Mapping) and card in e.get("cards", ())), None)
        if listed is not None or isinstance(first.get("tap"), Mapping):
            # a module's need lists the cards that answer it and what a tap of one sends (the footballer a referee
            # suspends); another card tapped first gets the engine's reason
            return self._ask_engine(seat, {**(listed or first)["tap"], "card": card}, game)
        if need == "winter_objective" and kind == "objective":
            # the Objective fulfilled before the Winter Break (or discarded): the button steps how it went
            pending = _Pending("objective", {"type": "winter_objective", "seat": seat, "card": card},
                               options=WINTER_RESULTS, prompt=game.name(card))
            self._pending[seat] = pending
            return Outcome(messages={seat: self._pending_message(pending)})
        card_entry = next((e for e in entries if e.get("need") == "card" and kind in e.get("kinds", ())), None)
        if card_entry is not None:
            kinds = tuple(card_entry.get("kinds", ()))
            if kinds in self.setup_counts or kinds == ("veteran", "youngster"):
                return self._collect(seat, card, kind, kinds, game)
            self._pending.pop(seat, None)
            return Outcome(events=({"type": CARD_EVENTS.get(kind, kind), "seat": seat, "card": card},))
        if need == "kickoff" and kind == "tactic":
            return Outcome(events=({"type": "tactic_played", "seat": seat, "card": card},))
        if pending is not None and pending.kind == "pick":
            return self._pick(seat, card, pending, game)  # the card a use asked for (a hold cancels it)
        if need in ("kickoff", *MATCH_TURNS) and game.owns(seat, card):
            # Before the kick-off a club's own card tapped uses its match ability (paid from what was assigned);
            # one for a footballer of the club's choice asks for him next.  A card the engine will not use now
            # says why at once.
            return self._confirmed(seat, _Pending("confirm", {"type": "use_card", "seat": seat, "card": card}, pad=tap.pad), game)
        if need == "action":
            if pending is not None and pending.kind == "contract" and pending.event.get("card") == card:
                return self._press(Press("", seat), game)
            return self._propose(seat, tap.pad, card, kind, game)
        if game.owns(seat, card):
            # A card of the club's own uses the ability the engine takes now (on Monday, after the match), and asks
            # for the cards it is for; else the card means its kind's own use, refused below in the engine's words.
            use = {"type": "use_card", "seat": seat, "card": card}
            if game.why_not(use) is None:
                self._pending.pop(seat, None)
                return self._send_or_pick(seat, _Pending("confirm", use, pad=tap.pad), game)
        # Nothing awaits this card here: ask the engine about what the card is for, and show why not in its words.
        return self._ask_engine(seat, self._meaning(seat, card, kind, game), game)

    def _reveal(self, tap: Tap, card: str, game: Game) -> Outcome:
        """An Opponent card turned over (on a seat's pad or the shared slot): its club plays the match now."""
        owner = next((e["seat"] for e in game.awaiting if e.get("need") == "kickoff" and game.opponent(e["seat"]) == card), None)
        if owner is None or (tap.seat is not None and tap.seat != owner):
            seat = tap.seat
            expected = game.opponent(seat) if seat is not None else None
            hint = f"This week: {game.name(expected)}" if expected else "Nobody plays it now"
            return self._say(seat, NOT_THIS_OPPONENT.format(name=game.name(card)), hint)
        return Outcome(events=({"type": "kickoff", "seat": owner},))

    def _collect(self, seat: int, card: str, kind: str, kinds: tuple[str, ...], game: Game) -> Outcome:
        """Setup cards tapped one by one (three Directors, eight Opponents...) until the set is complete."""
        pending = self._pending.get(seat)
        if pending is None or pending.kind != "collect" or tuple(pending.options) != kinds:
            event_type, many = SETUP_EVENTS.get(kinds, ("starting_players", False))
            count = self.setup_counts.get(kinds, 2)
            pending = _Pending("collect", {"type": event_type, "seat": seat}, options=kinds, count=count,
                               prompt=f"{_kinds_text(kinds)} cards", many=many)
            self._pending[seat] = pending
        if card in pending.chosen:
            return self._say(seat, f"{game.name(card)} again", f"{len(pending.chosen)} of {pending.count} tapped")
        if kinds == ("veteran", "youngster") and any(game.kind(c) == kind for c in pending.chosen):
            return self._say(seat, f"Already have a {KIND_WORDS[kind]}", "Tap the other starting card")
        pending.chosen.append(card)
        if len(pending.chosen) < pending.count:
            return self._say(seat, game.name(card), f"{len(pending.chosen)} of {pending.count} tapped")
        del self._pending[seat]
        event = dict(pending.event)
        if event["type"] == "starting_players":
            for chosen in pending.chosen:
                event[str(game.kind(chosen))] = chosen
        elif pending.many:
            event["cards"] = list(pending.chosen)
        else:
            event["card"] = pending.chosen[0]
        return Outcome(events=(event,))

    def _seat_waiting_for(self, game: Game, kind: str) -> int | None:
        """The first seat awaiting a card of ``kind`` (a shared pad, e.g. the Opponent slot, serves them in turn)."""
        for entry in game.awaiting:
            if entry.get("seat") is not None and entry.get("need") == "card" and kind in entry.get("kinds", ()):
                return int(entry["seat"])
        return None

    def _propose(self, seat: int, pad: str, card: str, kind: str, game: Game) -> Outcome:
        """A card tapped on the seat whose turn it is: the uses the engine takes for it now (a hire, a sale, an
        action, a contract, an auction); one is confirmed by a press, several are stepped through by the button."""
        if kind in MEANINGS:  # a card of no use on a turn: the engine says why in the card's own words
            return self._ask_engine(seat, self._meaning(seat, card, kind, game), game)
        uses = tuple(game.uses(seat, card))
        name = game.name(card)
        taken = [u.event for u in uses if u.why_not is None]
        if not taken:
            # Refused before the confirming press (an untrained footballer cannot be sold, a card the club cannot
            # pay cannot be hired): the engine's reason for the use the card is for besides its action, if any.
            refused = _main_use(uses)
            if refused is None:
                return self._ask_engine(seat, self._meaning(seat, card, kind, game), game)
            return self._refuse(seat, str(refused.why_not), refused.event)
        contracts = tuple(str(e["contract"]) for e in taken if e.get("type") == "sponsor")
        if contracts and len(contracts) == len(taken):
            # a Sponsor: the button steps through the contracts the engine takes, a hold signs the one shown
            bare = {k: v for k, v in taken[0].items() if k != "contract"}
            pending = _Pending("contract", bare, options=contracts, pad=pad, prompt=name)
        elif len(taken) > 1:
            # several ways (sold to the supply or by auction): the button steps them, a hold chooses
            pending = _Pending("ways", {"type": "ways", "seat": seat, "card": card}, options=(*taken, CANCEL),
                               pad=pad, prompt=name)
        else:
            event = dict(taken[0])
            cost = game.cost(card)
            verb = USE_VERBS.get(str(event["type"]), "Hire")
            cost_text = f" for €{cost}" if cost is not None and verb == "Hire" else ""
            pending = _Pending("confirm", event, pad=pad, prompt=f"{verb} {name}{cost_text}?")
        self._pending[seat] = pending
        return Outcome(messages={seat: self._pending_message(pending)})

    def _confirmed(self, seat: int, pending: _Pending, game: Game) -> Outcome:
        """A confirmed hire or use: sent now, or first the cards its effects are for (as the engine says), tapped one
        by one; the engine's refusal at once when it will not take it now."""
        why = game.why_not(pending.event)
        if why is not None:
            self._pending.pop(seat, None)
            return self._refuse(seat, why, pending.event)
        return self._send_or_pick(seat, pending, game)

    def _send_or_pick(self, seat: int, pending: _Pending, game: Game) -> Outcome:
        """A use the engine takes: sent now, or first the cards its effects are for, as the engine says."""
        picks = game.picks(pending.event)
        if not picks:
            return Outcome(events=(pending.event,))
        name = game.name(str(pending.event.get("card", "")))
        chooser = _Pending("pick", pending.event, options=tuple(p.what for p in picks), pad=pending.pad,
                           prompt=PICK_FOR.format(name=name))
        self._pending[seat] = chooser
        return Outcome(messages={seat: self._pending_message(chooser)})

    def _pick(self, seat: int, card: str, pending: _Pending, game: Game) -> Outcome:
        """A card tapped as the one a Staff action, a roll's decision (or the like) is for, e.g. the footballer to
        train or the Player to hire."""
        want = pending.options[len(pending.chosen)]
        picks = tuple(game.picks(pending.event))
        pick = picks[len(pending.chosen)] if len(pending.chosen) < len(picks) else None
        hints = (TAP_PICK.format(what=want), *(() if _settling(pending) else (HOLD_TO_CANCEL,)))
        if pick is None or card not in pick.cards:
            why = pick.refused.get(card) if pick is not None else None
            if why:  # a card of the kind asked for that the rules will not take: their reason
                return Outcome(messages={seat: Message(NOT_THAT.format(name=game.name(card)), (why, *hints))}, refused=True)
            words = NOT_A_PICK if pick is None or pick.mine else NOT_TO_TAKE
            return self._say(seat, words.format(what=want), *hints)
        why = game.why_not({**pending.event, "targets": [*pending.chosen, card]})
        if why is not None:  # the engine will not take this card for it: another may be tapped, or a hold cancels
            refused = self._refuse(seat, why, pending.event)
            message = refused.messages[seat]
            return Outcome(messages={seat: Message(message.headline, (*message.detail, *hints))}, refused=True)
        pending.chosen.append(card)
        if _settling(pending):
            _take_single(pending, picks)
        if len(pending.chosen) < len(pending.options):
            return Outcome(messages={seat: self._pending_message(pending)})
        del self._pending[seat]
        return Outcome(events=({**pending.event, "targets": list(pending.chosen)},))

    def _settle(self, seat: int, event: dict[str, Any], game: Game, tapped: str | None = None) -> Outcome:
        """A die's result (a ``roll``, ``keep`` or ``reroll``) sent now, or, when the decision it brings asks for cards
        (a footballer of the club's choice, the card a hire takes), held on the seat until they are tapped, as the
        engine says; a choice one card alone fits takes it without asking.  ``tapped``: the card whose tap kept the
        roll, taken as the first card asked for when it fits (else the tap means what it means once kept)."""
        picks = tuple(game.picks(event))
        # the cards up to a choice no card fits (the table makes that one, and those after it, by hand)
        asked = next((i for i, pick in enumerate(picks) if not pick.cards), len(picks))
        entry = self._awaited(game, seat) or {}
        pending = _Pending("pick", event, options=tuple(p.what for p in picks[:asked]),
                           prompt=PICK_FOR.format(name=_roll_for(entry, game)))
        _take_single(pending, picks)
        if len(pending.chosen) == len(pending.options):
            sent = {**event, "targets": list(pending.chosen)} if pending.chosen else event
            return Outcome(events=(sent,), again=tapped is not None)
        self._pending[seat] = pending
        if tapped is not None and tapped in picks[len(pending.chosen)].cards:
            return self._pick(seat, tapped, pending, game)
        return Outcome(messages={seat: self._result_message(seat, pending, game)})

    def _result_message(self, seat: int, pending: _Pending, game: Game) -> Message:
        """A roll's result as the engine would announce it (the decision, the votes, what it costs), with the card
        to tap for it right under."""
        ask = self._pending_message(pending)
        said = [a for a in game.preview(pending.event) if a.get("seat") in (seat, None) and a.get("kind") not in _UNSAID]
        if not said:
            return ask
        result = message_for(said, game.name)
        return Message(result.headline, tuple(dict.fromkeys((ask.headline, *result.detail, *ask.detail))))

    def _result_waits(self, table_input: TableInput, seat: int, pending: _Pending, game: Game) -> Outcome:
        """An input while a roll's result waits for the card its decision is for: a tap may be that card; a press or
        a hold changes nothing (the result stands: a roll is never rolled again) and says what to tap."""
        if isinstance(table_input, Tap):
            return self._pick(seat, table_input.card or "", pending, game)
        ask = self._pending_message(pending)
        if isinstance(table_input, Hold):
            return Outcome(messages={seat: Message(ask.headline, (ROLL_STANDS, *ask.detail))})
        return Outcome(messages={seat: ask})

    def _stale(self, seat: int, pending: _Pending, game: Game) -> bool:
        """Whether a roll's result held for its card is no longer what the engine waits for from the seat (the page
        answered it, or an undo took the roll away)."""
        entry = self._awaited(game, seat)
        return entry is None or entry.get("need") != _awaited_as(pending)

    def _drop_stale(self, game: Game) -> None:
        """Forget the held results the engine no longer waits for."""
        for seat, pending in list(self._pending.items()):
            if _settling(pending) and self._stale(seat, pending, game):
                del self._pending[seat]

    def _suspension(self, seat: int, card: str, entry: Mapping[str, Any], game: Game) -> Outcome:
        """A club short of money names, card by card, where its Suspension tokens go."""
        pending = self._pending.get(seat)
        count = int(entry.get("count", 1))
        if pending is None or pending.kind != "suspensions":
            pending = _Pending("suspensions", {"type": "suspensions", "seat": seat}, count=count)
            self._pending[seat] = pending
        pending.chosen.append(card)
        if len(pending.chosen) < pending.count:
            left = pending.count - len(pending.chosen)
            pending.prompt = f"{game.name(card)}: 2 Suspension"
            return Outcome(messages={seat: Message(pending.prompt, (f"Tap {left} more card(s)",))})
        del self._pending[seat]
        return Outcome(events=({**pending.event, "cards": list(pending.chosen)},))

    def _lift(self, lift: Lift) -> Outcome:
        if lift.seat is None:
            return Outcome()
        pending = self._pending.get(lift.seat)
        if pending is not None and pending.pad == lift.pad and pending.kind == "confirm":
            # A tap is a card put down and taken back: the confirmation is still wanted after the lift.
            return Outcome()
        return Outcome()

    # -- presses and holds ---------------------------------------------------------------------------------

    def _press(self, press: Press, game: Game) -> Outcome:
        seat = press.seat
        if seat is None:
            return Outcome()
        pending = self._pending.get(seat)
        if pending is not None and pending.kind == "pick":
            return Outcome(messages={seat: self._pending_message(pending)})  # a tap answers it, not the button
        if pending is not None and pending.kind not in ("suspensions", "collect"):
            if pending.kind == "confirm":
                del self._pending[seat]
                return self._confirmed(seat, pending, game)
            pending.index = (pending.index + 1) % len(pending.options)
            return Outcome(messages={seat: self._pending_message(pending)})
        entry = self._awaited(game, seat)
        if entry is not None and isinstance(entry.get("press"), Mapping):
            # a module's need says what a press means (an auction's bid one step higher, an offer accepted)
            return Outcome(events=(dict(entry["press"]),))
        if entry is not None and isinstance(entry.get("tap"), Mapping):
            return Outcome(messages={seat: Message(*self._ask(entry, game))})  # a tap answers it: say which cards
        if entry is not None and entry.get("need") == "roll":
            event = self._roll_event(entry)
            self._rolled_at[seat] = self.clock()
            return self._settle(seat, event, game)
        if entry is not None and entry.get("need") == "kickoff":
            return Outcome(events=({"type": "kickoff", "seat": seat},))
        if entry is not None and entry.get("need") == "formation" and entry.get("shapes"):
            # The formation a club declares in a match between clubs: the button steps through those the engine
            # lists, a hold declares the one shown.
            pending = _Pending("formation", {"type": "formation", "seat": seat}, options=tuple(entry["shapes"]),
                               prompt="Formation")
            self._pending[seat] = pending
            return Outcome(messages={seat: self._pending_message(pending)})
        if entry is not None and entry.get("need") == "objective_result":
            pending = _Pending("objective", {"type": "objective_result", "seat": seat}, options=OBJECTIVE_RESULTS,
                               prompt="Objective")
            self._pending[seat] = pending
            return Outcome(messages={seat: self._pending_message(pending)})
        if entry is not None and entry.get("need") == "action" and entry.get("free_only"):
            return self._say(seat, ACTION_TAKEN, END_TURN)
        if entry is not None and entry.get("need") == "action":
            event = {"type": "potential", "seat": seat}
            stats = tuple(s for s in POTENTIAL_STATS if game.why_not({**event, "stat": s}) is None)
            if not stats:  # none may be raised now: the engine's reason for the first
                first = {**event, "stat": POTENTIAL_STATS[0]}
                return self._refuse(seat, game.why_not(first) or NOTHING_TO_ROLL, first)
            pending = _Pending("potential", event, options=stats, prompt="Potential")
            self._pending[seat] = pending
            return Outcome(messages={seat: self._pending_message(pending)})
        return self._say(seat, NOTHING_TO_ROLL)

    def _hold(self, hold: Hold, game: Game) -> Outcome:
        seat = hold.seat
        assert seat is not None  # a shared hold is an undo, handled before
        pending = self._pending.pop(seat, None)
        if pending is not None and pending.kind == "contract":
            signed = {**pending.event, "contract": pending.options[pending.index]}
            return self._confirmed(seat, _Pending("confirm", signed, pad=pending.pad), game)
        if pending is not None and pending.kind == "potential":
            return Outcome(events=({**pending.event, "stat": pending.options[pending.index]},))
        if pending is not None and pending.kind == "objective":
            return Outcome(events=({**pending.event, "result": pending.options[pending.index]},))
        if pending is not None and pending.kind == "formation":
            return Outcome(events=({**pending.event, "shape": pending.options[pending.index]},))
        if pending is not None and pending.kind == "ways":
            way = pending.options[pending.index]
            if way == CANCEL:
                return self._say(seat, CANCELLED, pending.prompt)
            return self._confirmed(seat, _Pending("confirm", dict(way), pad=pending.pad), game)
        if pending is not None:
            return self._say(seat, CANCELLED, pending.prompt)
        entry = self._awaited(game, seat)
        if entry is not None and isinstance(entry.get("hold"), Mapping):
            return Outcome(events=(dict(entry["hold"]),))  # a module's need says what a hold means (an auction's pass)
        return Outcome(events=({"type": "pass", "seat": seat},))

    # -- helpers ---------------------------------------------------------------------------------------------

    @staticmethod
    def _meaning(seat: int, card: str, kind: str, game: Game) -> dict[str, Any]:
        """The event a card stands for when nothing awaited fits it (its kind's own use; an owned card's action)."""
        event_type = MEANINGS.get(kind)
        if event_type is None:
            main = _main_use(tuple(game.uses(seat, card)))
            return dict(main.event) if main is not None else {"type": "use_card", "seat": seat, "card": card}
        if event_type == "kickoff":
            return {"type": event_type, "seat": seat}
        if event_type == "objective_result":
            return {"type": event_type, "seat": seat, "result": "fulfilled"}
        return {"type": event_type, "seat": seat, "card": card}

    def _ask_engine(self, seat: int, event: dict[str, Any], game: Game) -> Outcome:
        """Offer ``event`` when the engine takes it, else show at once why not (nothing is sent)."""
        why = game.why_not(event)
        if why is None:
            self._pending.pop(seat, None)
            return Outcome(events=(event,))
        return self._refuse(seat, why, event)

    @staticmethod
    def _refuse(seat: int, why: str, event: Mapping[str, Any]) -> Outcome:
        """The engine's refusal of ``event`` on the seat's screen: what cannot be done, large, and why below."""
        return Outcome(messages={seat: refusal_message(why, event)}, refused=True)

    def _in_window(self, seat: int) -> bool:
        started = self._rolled_at.get(seat)
        return started is not None and self.clock() - started <= self.reroll_seconds

    def _reroll(self, seat: int, entry: Mapping[str, Any]) -> dict[str, Any]:
        self._rolled_at[seat] = self.clock()
        return {"type": "reroll", "seat": seat, "value": self.dice.roll(_die(entry, self.dice_by_name))}

    def _roll_event(self, entry: Mapping[str, Any]) -> dict[str, Any]:
        """Roll the die an awaited roll names and build its event."""
        die = _die(entry, self.dice_by_name)
        event: dict[str, Any] = {"type": "roll", "seat": entry.get("seat"), "value": self.dice.roll(die)}
        if entry.get("team"):
            event["team"] = entry["team"]
        return event

    @staticmethod
    def _awaited(game: Game, seat: int | None) -> Mapping[str, Any] | None:
        """The first thing the engine awaits from ``seat``."""
        return next((e for e in game.awaiting if e.get("seat") == seat), None)

    @staticmethod
    def _ask(entry: Mapping[str, Any], game: Game) -> tuple[str, tuple[str, ...]]:
        """What to ask a seat for, given what the engine awaits from it."""
        need = entry.get("need")
        if need == "card":
            return TAP_CARD.format(kinds=_kinds_text(entry.get("kinds", ()))), ()
        if need == "roll":
            return PRESS_TO_ROLL.format(die=entry.get("die", "d6")), (ROLL_FOR.format(what=_roll_for(entry, game)),)
        if need == "keep_or_reroll":
            return f"Rolled {entry.get('value')}", _keep_gives(entry, game)
        if need == "lineup":
            return LINEUP_ON_PAGE, ()
        if need == "suspensions":
            return f"Short of €{entry.get('count', 1)}", ("Tap a card for each: 2 Suspension",)
        if need == "action":
            if entry.get("free_only"):
                return ACTION_TAKEN, (END_TURN, "Tap a card: free action")
            return "Your turn", ("Tap a card · Press: potential", "Hold: pass")
        if need == "kickoff":
            return KICKOFF, ("or press to play",)
        if need == "objective_result":
            return "Objective?", ("Press: choose · Hold: confirm",)
        if need == "formation":
            return DECLARE_FORMATION, (HALF_WORDS.get(entry.get("half"), "").capitalize(), "Press: choose · Hold: declare")
        if need == "arrange":
            half = HALF_WORDS.get(entry.get("half"), "half")
            return ARRANGE_ON_PAGE, (ARRANGE_SHAPE.format(half=half, shape=entry["shape"]) if entry.get("shape")
                                     else ARRANGE_SECRETLY.format(half=half),)
        if need == "abilities":
            return ABILITY_TURN.format(moment=MOMENT_WORDS.get(str(entry.get("timing")), "")), (TAP_OR_PASS,)
        if need == "half":
            return HALF_NOW.format(half=HALF_WORDS.get(entry.get("half"), "half")), (TAP_OR_READY,)
        # a module's need brings its own words: a few for the screen (``short``), what it is about (``about``, a card)
        # and what the button does (``hint``)
        return (str(entry.get("short") or entry.get("text", need or "")),
                tuple(str(h) for h in (entry.get("about"), entry.get("hint")) if h))

    def _pending_message(self, pending: _Pending) -> Message:
        if pending.kind == "confirm":
            return Message(pending.prompt, (PRESS_TO_CONFIRM,))
        if pending.kind == "pick":
            cancel = () if _settling(pending) else (HOLD_TO_CANCEL,)
            return Message(TAP_PICK.format(what=pending.options[len(pending.chosen)]), (pending.prompt, *cancel))
        if pending.kind in ("suspensions", "collect"):
            return Message(f"{len(pending.chosen)} of {pending.count} tapped", (f"Tap {pending.count - len(pending.chosen)} more card(s)",))
        choice = pending.options[pending.index]
        if pending.kind == "formation":
            return Message(FORMATION.format(shape=choice), (PRESS_STEPS_HOLD_DECLARES,))
        if pending.kind == "ways":
            way = "cancel" if choice == CANCEL else str(choice["type"])
            words = (f"Sign {CONTRACT_WORDS.get(str(choice['contract']), choice['contract'])}" if way == "sponsor"
                     else WAY_WORDS.get(way, way))
            return Message(f"{pending.prompt}: {words}", (PRESS_STEPS_HOLD_CHOOSES,))
        words = {"contract": CONTRACT_WORDS, "objective": RESULT_WORDS}.get(pending.kind, STAT_WORDS)
        hint = {"contract": PRESS_STEPS_HOLD_SIGNS, "objective": PRESS_STEPS_HOLD_TELLS}.get(pending.kind, PRESS_STEPS_HOLD_ROLLS)
        return Message(f"{pending.prompt}: {words.get(choice, choice)}", (hint,))

    @staticmethod
    def _say(seat: int | None, headline: str, *detail: str) -> Outcome:
        return Outcome(messages={seat: Message(headline, tuple(d for d in detail if d))})
