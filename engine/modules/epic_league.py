"""Epic League mode (003 l.436–556): ten weeks, a League table of 30 spaces and 12 Opponent teams, two Objectives,
and a Winter Break between the 5th and the 6th week.

- **Setup** (l.444–460): each club is dealt two decks of five Opponent cards, the first five of the lower Division
  (the option ``lower_division``: 3 or 2), the next five of the Division above; they are played in that order, so
  the easier Opponents come before the break.  The League table extension (``epic_league.toml``) adds Opponent
  teams to the table (12 in all), its VP by position (the leaflet's table, "12+" for every place beyond) and the
  Objective cards the deck is restricted to.  Each club keeps two Objective cards.
- **The Winter Break** (l.462–538), a phase after the End of the round of week 5, in the leaflet's order:
  1. *Objectives*: each club says which of its two Objectives it fulfilled before the break (``winter_objective``:
     the card and ``fulfilled``/``perfect``; 3 or 6 VP) or, when it fulfilled none, which it discards (``missed``);
     the other is its Objective for the rest of the season.
  2. *Season Maintenance*: every Stat level goes down by 1 (never below 1).
  3. *Transfer Window*: the Transfer area is discarded and refilled (by the table), each club gains its Production,
     then three rounds from the First player: each club hires a footballer (``hire_player``, ``hire_youngster``),
     sells one to the supply for his Strength + 2 € (``sell``) or passes; no Staff is hired and Staff abilities are
     ignored meanwhile (from revision 3: l.468–472).
  4. *Winter Training*: three times, the table reveals one Winter Break token more than there are clubs
     (``winter_tokens``) and the clubs draft one each (``winter_pick``), the first round from the club with the most
     League points, the second from the one with the fewest, the third from the most again; the token left over is
     discarded.  Each club then puts each of its tokens on one of its Player cards (``winter_place``, at most one a
     card); a token's effect lasts for the rest of the game.
- **Final scoring** (l.540–556): the Epic League VP table for the League position; each Objective is worth 3 VP,
  or 6 fulfilled perfectly.

The readings chosen where the text leaves room are in engine/RULES.md, "Epic League".
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final, NamedTuple

from engine import errors as E
from engine import host
from engine.cards import STATS, OpponentTeam, Profile
from engine.loader import Fields
from engine.modules.transfers import strength
from engine.rules.context import field, seat_of, turn_order
from engine.state import Club, State, evolve
from engine.tx import Tx

NAME: Final = "epic_league"
STAGE: Final = "winter_break"
DATA_FILE: Final = "epic_league.toml"
WEEKS: Final = 10
DECK: Final = 5  # Opponent cards in each of a club's two decks (l.446)
BREAK_AFTER: Final = 5  # the Winter Break comes between the 5th and the 6th week (l.438)
OBJECTIVES_KEPT: Final = 2
TRANSFER_ROUNDS: Final = 3  # "When all players have resolved their actions 3 times, finish this step" (l.508)
DRAFT_ROUNDS: Final = 3  # l.516: most points first, then fewest, then most
DIVISIONS: Final = (3, 2)
SECTIONS_ALL: Final = ("def", "mid", "fwd")
#: What a Winter Break token may do to the card it lies on (l.522–538); the others are announced for the table.
EFFECTS: Final = {
    "strength": "has Strength equal to the token's value",
    "attacker": "is now an attacker",
    "defender": "is now a defender",
    "any_section": "may play in any Section (never on a Goalkeeper)",
    "jersey": "has a new Jersey number, the token's (the table keeps to it: the board's jersey markers stay as printed)",
    "cheaper": "may assign 1 fewer resource to activate its effect (the table keeps to it)",
    "swap_resource": "may use another resource to be assigned or activate its effects (the table keeps to it)",
    "first_goal_vp": "places 1 VP token on its card when it scores for the first time",
    "ignore_token": "ignores 1 of each Injury or Suspension tokens it gains",
}
STEPS: Final = ("objectives", "transfer", "tokens", "draft", "place", "done")

# Sentences players read; tests import them.
BREAK_BEGINS: Final = "The Winter Break: Objectives, Season Maintenance, the Transfer Window and Winter Training."
OBJECTIVE_SCORED: Final = "Seat {seat} fulfilled {name} before the Winter Break{perfectly}: {vp} VP."
OBJECTIVE_DROPPED: Final = "Seat {seat} fulfilled no Objective before the Winter Break and discards one."
OBJECTIVE_AFTER: Final = "Seat {seat} keeps its other Objective for the rest of the season."
SEASON_MAINTENANCE: Final = "Season Maintenance: Seat {seat}'s Stat levels go down by 1 ({before} → {after})."
WINDOW_OPENS: Final = ("The Transfer Window: discard the Transfer area and refill it; each club gains its Production; "
                       "then three rounds from Seat {first}: hire, sell, or pass (Staff abilities are ignored).")
WINDOW_ROUND: Final = "Transfer Window, round {round} of 3: Seat {seat} hires, sells or passes."
TRAINING: Final = ("Winter Training, round {round} of 3: reveal {count} Winter Break tokens; the clubs choose one each "
                   "from Seat {first}.")
REVEALED: Final = "Winter Break tokens revealed: {names}."
PICKED: Final = "Seat {seat} takes the {name} token."
LEFT_OVER: Final = "The {name} token left over is discarded."
PLACED: Final = "Seat {seat} puts the {name} token on {card}: it {does} for the rest of the game."
BREAK_OVER: Final = "The Winter Break is over: week {week} begins."
NO_CARD_LEFT: Final = "Every Player card of Seat {seat} carries a Winter Break token: its {name} token is discarded."
WAIT_OBJECTIVE: Final = ("Seat {seat}: tap the Objective card fulfilled before the Winter Break (or the one discarded) "
                         "and choose how it went with the button.")
OBJECTIVE_SHORT: Final = "Tap an Objective"
OBJECTIVE_HINT: Final = "fulfilled, or the one discarded"
WAIT_TOKENS: Final = "The table: reveal {count} Winter Break tokens for round {round} of Winter Training and name them on the Play page."
WAIT_PICK: Final = "Seat {seat}: choose a Winter Break token on the Play page."
PICK_SHORT: Final = "Choose a token"
WAIT_PLACE: Final = "Seat {seat}: put your Winter Break tokens on your Player cards (the Play page)."
PLACE_SHORT: Final = "Place your tokens"
ON_THE_PAGE: Final = "on the Play page"
FIRST_GOAL: Final = "{name} scores for the first time with the First goal token: 1 VP on his card (Seat {seat})."
KEPT_SECOND: Final = "Seat {seat} keeps its second Objective card."

NOT_NOW: Final = "Seat {seat} cannot {what} now: {why}."
TABLE_NOT_NOW: Final = "The table cannot {what} now: {why}."
NOT_IN_BREAK: Final = "the Winter Break comes after the 5th week"
NOT_THIS_STEP: Final = "the Winter Break is at {step}"
NOT_OWN_OBJECTIVE: Final = "{name} is not one of Seat {seat}'s Objectives; it holds {held}."
ANSWERED: Final = "Seat {seat} has already said how its Objectives went before the Winter Break."
BAD_RESULT: Final = 'the result is "fulfilled", "perfect" or "missed" (then the card is the one discarded)'
NOT_REVEALED: Final = "{name} is not among the Winter Break tokens revealed ({shown})."
NOT_YOUR_PICK: Final = "It is Seat {turn}'s pick of a Winter Break token."
WRONG_COUNT: Final = "Reveal {count} Winter Break tokens (one more than the clubs), not {got}."
NONE_LEFT: Final = "No {name} token is left to reveal: {left} remain."
UNKNOWN_TOKEN: Final = "There is no Winter Break token {token!r}; the tokens are {known}."
NOT_DRAFTED: Final = "Seat {seat} has no {name} token to place."
NOT_A_PLAYER: Final = "A Winter Break token goes on one of Seat {seat}'s Player cards; {card} is not one."
ONE_PER_CARD: Final = "{card} already carries a Winter Break token: one a card."
NO_KEEPER: Final = "The {name} token cannot go on a Goalkeeper ({card})."
NOT_LISTED: Final = "{name} ({card}) is not one of the Objective cards of the Epic League: {listed}."
NOT_TEN_WEEKS: Final = "The Epic League lasts 10 weeks, not {weeks}."
NO_SECOND: Final = "Seat {seat} keeps two Objective cards in the Epic League: tap the second one."
NO_STAFF: Final = ("Seat {seat} cannot hire {name} now: the Transfer Window hires and sells Players and Youngsters only "
                   "(Staff are hired again from the Tuesday of week 6).")
WINDOW_PRICE: Final = "Seat {seat} sells {name} in the Transfer Window for his Strength {strength} + {plus} €{why}."
WINDOW_SALE_PLUS: Final = 2  # l.472: "Sell them as usual and gain a number of [€] equal to their Strength plus 2"
#: the first revision whose Window prices sales and refuses Staff (l.468–472), whose tokens go on Players only (l.518)
#: whose clubs are as many as the box's tokens serve (l.516) and whose tokens go with their cards (l.504)
REVISED: Final = 3
SHORT_BOX: Final = ("An Epic League of {clubs} clubs needs {need} Winter Break tokens (three rounds of one more than the "
                    "clubs) and the box of {profile} holds {have}: play it with at most {most} clubs.")
LOWER_WORDS: Final = "the lower Division the clubs start in (its five Opponents before the Winter Break); the five after are of the Division above"


# ---------------------------------------------------------------------------------------------------------------
# Data: the League table extension.


class Token(NamedTuple):
    """A kind of Winter Break token: how many the box holds, what it does (``EFFECTS``) and its value, if any."""

    id: str
    name: str
    count: int
    effect: str
    value: int = 0
    text: str = ""


class Extension(NamedTuple):
    """``epic_league.toml``: the teams the extension adds, the VP by League position, the Objective cards of the
    mode, the Objective VP and the Winter Break tokens."""

    teams: tuple[OpponentTeam, ...]
    spaces: int
    league_vp: tuple[int, ...]
    league_vp_beyond: int
    objectives: tuple[str, ...]
    objective_vp: int
    objective_perfect_vp: int
    tokens: tuple[Token, ...]

    def token(self, token_id: str) -> Token | None:
        """A kind of token by id."""
        return next((t for t in self.tokens if t.id == token_id), None)


def _read(fields: Fields, cards: Any) -> Extension:
    teams = []
    for i, item in enumerate(fields.list("team", expected="[[team]] tables: id, name, die")):
        team = Fields(fields.where, item, f"team[{i + 1}]")
        teams.append(OpponentTeam(id=team.str("id"), name=team.str("name"), die=team.str("die")))
        team.done()
    league = fields.table("league")
    spaces = league.int("spaces", 8, 99)
    vp = league.ints("vp", -30, 60)
    beyond = league.int("vp_beyond", -30, 60)
    league.done()
    objectives = fields.table("objectives")
    listed = tuple(str(c) for c in objectives.list("cards", expected="the ids of the Objective cards of the mode"))
    for card in listed:
        # a card the deck lacks is left out of the deal (a deck being written may not have them all yet; the deal
        # check at New game says when too few are left); one of another kind is a mistake
        found = cards.get(card)
        if found is not None and found.kind != "objective":
            objectives.fail("cards", f"{card!r} is a {found.kind} card, not an Objective card")
    objective_vp = objectives.int("vp", 0, 20)
    perfect_vp = objectives.int("perfect_vp", 0, 20)
    objectives.done()
    tokens = []
    for i, item in enumerate(fields.list("token", expected="[[token]] tables: id, name, count, effect, value, text")):
        token = Fields(fields.where, item, f"token[{i + 1}]")
        tokens.append(Token(token.str("id"), token.str("name"), token.int("count", 1, 16), token.str("effect", choices=EFFECTS),
                            token.int("value", 0, 99, default=0), token.str("text", default="")))
        token.done()
    fields.done()
    return Extension(tuple(teams), spaces, vp, beyond, listed, objective_vp, perfect_vp, tuple(tokens))


def _ext(profile: Profile) -> Extension:
    return profile.module_data[NAME][DATA_FILE]  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------------------------------------------
# The slice.


class Epic(NamedTuple):
    """The module's slice: each club's second Objective (secret), the Winter Break's Objectives, its step, the
    tokens revealed and drafted, and the tokens on the clubs' cards."""

    second: tuple[tuple[int, str], ...] = ()  # seat, its second Objective card (secret to the seat)
    winter: tuple[tuple[int, str, str], ...] = ()  # seat, the card scored (or discarded), result
    step: str = ""
    round: int = 0
    revealed: tuple[str, ...] = ()  # token kinds face up now
    order: tuple[int, ...] = ()  # who still picks this draft round, in order
    drafted: tuple[tuple[int, str], ...] = ()  # seat, token kind: in the club's supply, not yet placed
    placed: tuple[tuple[int, str, str], ...] = ()  # seat, card, token kind
    used: tuple[str, ...] = ()  # token kinds revealed so far (the supply is the box's count minus these)
    scored: tuple[tuple[int, str], ...] = ()  # seat, card: a footballer with the first-goal token who has scored

    def second_of(self, seat: int) -> str | None:
        """The club's second Objective card, until the Winter Break settles it."""
        return next((c for s, c in self.second if s == seat), None)

    def token_on(self, seat: int, card: str) -> str | None:
        """The Winter Break token on one of the club's cards."""
        return next((k for s, c, k in self.placed if s == seat and c == card), None)


def _decode(data: dict[str, Any]) -> Epic:
    return Epic(tuple((s, c) for s, c in data["second"]), tuple((s, c, r) for s, c, r in data["winter"]), data["step"],
                data["round"], tuple(data["revealed"]), tuple(data["order"]), tuple((s, k) for s, k in data["drafted"]),
                tuple((s, c, k) for s, c, k in data["placed"]), tuple(data["used"]),
                tuple((s, c) for s, c in data.get("scored", ())))


def _mine(state: State) -> Epic:
    return state.slice(NAME)  # type: ignore[no-any-return]


def _put(tx: Tx, **changes: Any) -> Epic:
    mine = evolve(_mine(tx.state), **changes)
    tx.put_slice(NAME, mine)
    return mine


def _lower(game: Any) -> int:
    return int(game.option("lower_division", DIVISIONS[0]))


def _check_division(value: Any) -> int:
    if value not in DIVISIONS:
        raise ValueError(f"the lower Division of the Epic League is 3 or 2 (the Division above is played after the "
                         f"Winter Break), not {value!r}")
    return int(value)


# ---------------------------------------------------------------------------------------------------------------
# Setup and the season.


def _opponents_needed(state: State, weeks: int, count: int) -> int:
    return 2 * DECK


def _opponent_decks(game: Any, weeks: int, decks: Any) -> Any:
    """l.446: five of the lower Division, then five of the Division above, each one card per team."""
    lower = _lower(game)
    return ((DECK, lower), (DECK, lower - 1))


def _objectives_kept(game: Any, count: int) -> int:
    return OBJECTIVES_KEPT


def _deck(profile: Profile, game: Any, kind: str, cards: Any) -> Any:
    if kind == "opponent":
        lower = _lower(game)
        return tuple(c for c in cards if {lower, lower - 1} & set(c.divisions or (c.division,)))
    if kind == "objective":
        listed = set(_ext(profile).objectives)
        return tuple(c for c in cards if c.id in listed)
    return cards


def _not_dealt(profile: Profile, game: Any, card: Any) -> str | None:
    if card.kind == "objective" and card.id not in _ext(profile).objectives:
        listed = ", ".join(profile.cards[c].name for c in _ext(profile).objectives if c in profile.cards)
        return NOT_LISTED.format(name=card.name, card=card.id, listed=listed)
    return None


def _objective_kept(tx: Tx, seat: int, card: str) -> bool | None:
    """The second Objective card of a club (l.460), kept secret in the module's slice."""
    mine = _mine(tx.state)
    if mine.second_of(seat) is not None or tx.state.week:
        return None
    _put(tx, second=mine.second + ((seat, card),))
    return True


def _club_check(tx: Tx, seat: int) -> None:
    """l.516: Winter Training reveals one token more than the clubs three times; a club joining when the box's tokens
    cannot serve that is refused, rather than the Winter Break waiting for tokens nobody can reveal."""
    clubs, have = len(tx.state.clubs) + 1, sum(t.count for t in _ext(tx.profile).tokens)
    if DRAFT_ROUNDS * (clubs + 1) > have and tx.state.game.revision >= REVISED:
        raise E.NotAllowed(SHORT_BOX.format(clubs=clubs, need=DRAFT_ROUNDS * (clubs + 1), profile=tx.profile.name, have=have,
                                            most=have // DRAFT_ROUNDS - 1))


def _setup_check(tx: Tx) -> None:
    weeks = tx.state.game.option("weeks")
    if weeks is not None and weeks != WEEKS:
        raise E.NotAllowed(NOT_TEN_WEEKS.format(weeks=weeks))
    for club in tx.state.clubs:
        if _mine(tx.state).second_of(club.seat) is None:
            raise E.NotAllowed(NO_SECOND.format(seat=club.seat))


def _awaiting_setup(state: State) -> list[dict[str, Any]]:
    """At setup, a club with one Objective card is asked for its second."""
    if state.week or state.first_seat:
        return []
    mine = _mine(state)
    return [{"seat": c.seat, "need": "card", "kinds": ["objective"], "what": "its second Objective card"}
            for c in state.clubs if c.objective and mine.second_of(c.seat) is None]


def _board(profile: Profile, state: State, seat: int | None, board: Any) -> Any:
    """The League table extension: its teams beside the board's, the Epic VP by position, the Objective VP."""
    ext = _ext(profile)
    known = {t.id for t in board.teams}
    return replace(board, teams=board.teams + tuple(t for t in ext.teams if t.id not in known), league_vp=ext.league_vp,
                   league_vp_beyond=ext.league_vp_beyond, objective_vp=ext.objective_vp,
                   objective_perfect_vp=ext.objective_perfect_vp)


def _week_phases(state: State, week: int, phases: tuple[str, ...]) -> tuple[str, ...]:
    return phases + (STAGE,) if week == BREAK_AFTER else phases


def _score_parts(profile: Profile, state: State, club: Club) -> list[tuple[str, int]]:
    """The Objective scored at the Winter Break (3 VP, 6 perfectly)."""
    ext = _ext(profile)
    for seat, _, result in _mine(state).winter:
        if seat == club.seat:
            vp = {"fulfilled": ext.objective_vp, "perfect": ext.objective_vp + ext.objective_perfect_vp}.get(result, 0)
            return [("winter_objective", vp)]
    return [("winter_objective", 0)]


def _footballer(tx: Tx, club: Club, held: Any, side: Any) -> Any:
    """A footballer's face with the Winter Break token on his card."""
    kind = _mine(tx.state).token_on(club.seat, held.id) if club is not None else None
    if kind is None:
        return side
    token = _ext(tx.profile).token(kind)
    if token is None:
        return side
    if token.effect == "strength":
        return replace(side, strength=token.value)
    if token.effect == "attacker":
        return replace(side, style="attack")
    if token.effect == "defender":
        return replace(side, style="defence")
    if token.effect == "any_section":
        return replace(side, sections=SECTIONS_ALL)
    return side


def _after_match(tx: Tx, seat: int) -> None:
    """The first-goal token (l.534): "When this Player scores for the first time, place 1 VP on this card"."""
    mine = _mine(tx.state)
    club = tx.club(seat)
    for s, card, kind in mine.placed:
        token = _ext(tx.profile).token(kind)
        if s != seat or token is None or token.effect != "first_goal_vp" or (seat, card) in mine.scored:
            continue
        held = club.held(card)
        if held is None or not club.mod(f"scored:{card}:round"):
            continue
        club = tx.put(evolve(club, players=tuple(evolve(h, vp=h.vp + 1) if h.id == card else h for h in club.players)))
        mine = _put(tx, scored=mine.scored + ((seat, card),))
        tx.say("vp", seat, FIRST_GOAL.format(name=tx.name(card), seat=seat), card=card, amount=1)


def _sold(tx: Tx, seat: int, card: str) -> None:
    """l.504: "all tokens remain on cards Sold to other players": a card's Winter Break token (and its first goal, if
    scored) goes with it to the club that now holds it; a card sold to the supply leaves the game with its token."""
    mine = _mine(tx.state)
    if tx.state.game.revision < REVISED or mine.token_on(seat, card) is None:
        return
    holder = next((c.seat for c in tx.state.clubs if any(h.id == card for h in c.players)), None)
    if holder is None:
        _put(tx, placed=tuple(p for p in mine.placed if p[1] != card), scored=tuple(p for p in mine.scored if p[1] != card))
    else:
        _put(tx, placed=tuple((holder if c == card else s, c, k) for s, c, k in mine.placed),
             scored=tuple((holder if c == card else s, c) for s, c in mine.scored))


def _tokens_gained(tx: Tx, club: Club, held: Any, kind: str, count: int) -> int:
    """The Tough token (l.538): "Each time this Player gains [Injury or Suspension tokens], ignore 1 of them"."""
    if tx.state.game.revision < REVISED or club is None:
        return count  # a game begun before: the table kept to it by hand, as it was recorded
    token = _mine(tx.state).token_on(club.seat, held.id)
    found = _ext(tx.profile).token(token) if token is not None else None
    return count - 1 if found is not None and found.effect == "ignore_token" else count


def _abilities(tx: Tx, club: Club, card_id: str, abilities: Any) -> Any:
    """l.510: "During this phase, ignore all Staff card effects"."""
    if tx.state.stage == STAGE and tx.profile.cards.get(card_id) is not None and tx.profile.cards[card_id].kind == "staff":
        return ()
    return abilities


def _window_rules(tx: Tx) -> bool:
    """The Transfer Window of a game played under the readings of l.468–472 (revision 3 on)."""
    return tx.state.stage == STAGE and tx.state.game.revision >= REVISED


def _hired(tx: Tx, seat: int, card_id: str, row: str) -> None:
    """l.468: "They may offer to Hire or Sell Players ..., Sell them as usual, or pass": no Staff in the Window."""
    if row == "staff" and _window_rules(tx):
        raise E.NotAllowed(NO_STAFF.format(seat=seat, name=tx.name(card_id)))


def _sale_price(tx: Tx, club: Club, held: Any, price: tuple[int, int]) -> tuple[int, int]:
    """l.472: in the Transfer Window a footballer sold to the supply brings his Strength + 2 € instead of the board's
    price (halved the same way when he is injured or suspended). With Transferring Players in the game, that
    module already prices every sale so."""
    if tx.event.get("type") != "sell" or not _window_rules(tx) or "transfers" in tx.state.game.modules:
        return price
    now = strength(tx, club, held)
    board_price, worth = tx.board(club.seat).sell_price, now + WINDOW_SALE_PLUS
    if held.unavailable:
        board_price, worth = board_price // 2, worth // 2
    tx.say("window_price", club.seat, WINDOW_PRICE.format(seat=club.seat, name=tx.name(held.id), strength=now,
                                                          plus=WINDOW_SALE_PLUS, why=", halved" if held.unavailable else ""),
           card=held.id, budget=worth)
    return max(0, price[0] - board_price + worth), price[1]


# ---------------------------------------------------------------------------------------------------------------
# The Winter Break.


def _begin(tx: Tx) -> None:
    _put(tx, step="objectives", round=0)
    tx.state = evolve(tx.state, turn=0)
    tx.say("winter_break", None, BREAK_BEGINS, step="objectives")


def _over(tx: Tx) -> bool:
    return _mine(tx.state).step == "done"


def _awaiting(state: State) -> list[dict[str, Any]]:
    mine = _mine(state)
    if state.stage != STAGE:
        return []
    if mine.step == "objectives":
        answered = {s for s, _, _ in mine.winter}
        return [{"seat": c.seat, "need": "winter_objective", "text": WAIT_OBJECTIVE.format(seat=c.seat),
                 "short": OBJECTIVE_SHORT, "hint": OBJECTIVE_HINT} for c in state.clubs if c.seat not in answered]
    if mine.step == "transfer" and state.turn and not any(p.seat == state.turn for p in state.pending):
        return [{"seat": state.turn, "need": "action", "day": STAGE, "free_only": False, "round": mine.round}]
    if mine.step == "tokens":
        return [{"seat": None, "need": "winter_tokens", "count": len(state.clubs) + 1, "round": mine.round,
                 "text": WAIT_TOKENS.format(count=len(state.clubs) + 1, round=mine.round)}]
    if mine.step == "draft" and mine.order:
        return [{"seat": mine.order[0], "need": "winter_pick", "tokens": list(mine.revealed),
                 "text": WAIT_PICK.format(seat=mine.order[0]), "short": PICK_SHORT, "hint": ON_THE_PAGE}]
    if mine.step == "place":
        waiting = sorted({s for s, _ in mine.drafted})
        return [{"seat": s, "need": "winter_place", "tokens": [k for t, k in mine.drafted if t == s],
                 "text": WAIT_PLACE.format(seat=s), "short": PLACE_SHORT, "hint": ON_THE_PAGE} for s in waiting]
    return []


def _step(tx: Tx) -> bool:
    """The Transfer Window's turns move on once a club has hired, sold or passed; three rounds, then Training."""
    mine = _mine(tx.state)
    if mine.step != "transfer" or tx.state.pending:
        return False
    turn = tx.state.turn
    if not turn or not tx.club(turn).acted:
        return False
    order = turn_order(tx.state)
    i = order.index(turn)
    if i + 1 < len(order):
        _give_turn(tx, order[i + 1], mine.round)
        return True
    if mine.round < TRANSFER_ROUNDS:
        _put(tx, round=mine.round + 1)
        _give_turn(tx, order[0], mine.round + 1)
        return True
    tx.state = evolve(tx.state, turn=0)
    _training_round(tx, 1)
    return True


def _give_turn(tx: Tx, seat: int, round_: int) -> None:
    tx.put(evolve(tx.club(seat), acted=False, free_used=0))
    tx.state = evolve(tx.state, turn=seat)
    tx.say("turn", seat, WINDOW_ROUND.format(round=round_, seat=seat), turn=seat, round=round_)


def _in_step(tx: Tx, seat: int | None, step: str, what: str) -> Epic:
    mine = _mine(tx.state)
    why = NOT_IN_BREAK if tx.state.stage != STAGE else NOT_THIS_STEP.format(step=_step_words(mine)) if mine.step != step else ""
    if why:
        words = NOT_NOW.format(seat=seat, what=what, why=why) if seat is not None else TABLE_NOT_NOW.format(what=what, why=why)
        raise E.NotAllowed(words)
    return mine


def _step_words(mine: Epic) -> str:
    return {"objectives": "its Objectives", "transfer": f"the Transfer Window (round {mine.round} of 3)",
            "tokens": "Winter Training, the tokens to reveal", "draft": "Winter Training, the draft",
            "place": "Winter Training, the tokens to place", "done": "its end"}.get(mine.step, mine.step)


def _on_winter_objective(tx: Tx) -> None:
    """l.466: the Objective a club fulfilled before the break scores (3 VP, 6 perfectly), else one is discarded."""
    seat = seat_of(tx.event)
    club = tx.club(seat)
    mine = _in_step(tx, seat, "objectives", "say how its Objectives went")
    if any(s == seat for s, _, _ in mine.winter):
        raise E.NotAllowed(ANSWERED.format(seat=seat))
    card = field(tx.event, "card", str, "the id of the Objective card fulfilled (or discarded)")
    result = field(tx.event, "result", str, BAD_RESULT)
    if result not in ("fulfilled", "perfect", "missed"):
        raise E.BadEvent(E.BAD_FIELD.format(type="winter_objective", field="result", why=BAD_RESULT))
    second = mine.second_of(seat)
    held = [c for c in (club.objective, second) if c]
    if card not in held:
        names = " and ".join(tx.name(c) for c in held)
        raise E.NotAllowed(NOT_OWN_OBJECTIVE.format(name=tx.name(card) if card in tx.profile.cards else card, seat=seat, held=names))
    other = next(c for c in held if c != card) if len(held) > 1 else card
    tx.put(evolve(club, objective=other, objective_result=None))
    mine = _put(tx, winter=mine.winter + ((seat, card, result),), second=tuple(x for x in mine.second if x[0] != seat))
    ext = _ext(tx.profile)
    if result == "missed":
        tx.say("winter_objective", seat, OBJECTIVE_DROPPED.format(seat=seat), card=card, result=result, secret=True)
    else:
        vp = ext.objective_vp + (ext.objective_perfect_vp if result == "perfect" else 0)
        tx.say("winter_objective", seat, OBJECTIVE_SCORED.format(seat=seat, name=tx.name(card), vp=vp,
                                                                 perfectly=" perfectly" if result == "perfect" else ""),
               card=card, result=result, vp=vp)
    tx.say("objective_kept", seat, OBJECTIVE_AFTER.format(seat=seat), card=other, secret=True)
    if len(mine.winter) == len(tx.state.clubs):
        _season_maintenance(tx)
        _transfer_window(tx)


def _season_maintenance(tx: Tx) -> None:
    """l.467: every Stat level goes down by 1, if possible."""
    for club in tx.state.clubs:
        stats = tuple(max(1, s - 1) for s in club.stats)
        tx.put(evolve(club, stats=stats))
        words = lambda values: "/".join(map(str, values))  # noqa: E731
        tx.say("season_maintenance", club.seat, SEASON_MAINTENANCE.format(seat=club.seat, before=words(club.stats),
                                                                           after=words(stats)), stats=dict(zip(STATS, stats)))


def _transfer_window(tx: Tx) -> None:
    """l.468: the Transfer area refilled (by the table), each club's Production, three rounds of turns."""
    order = turn_order(tx.state)
    tx.say("transfer_window", None, WINDOW_OPENS.format(first=order[0]), first=order[0])
    for club in tx.state.clubs:
        board = tx.board(club.seat)
        gained = tuple(board.produce(stat, club.stats[i]) for i, stat in enumerate(STATS))
        tx.put(evolve(club, res=tuple(r + g for r, g in zip(club.res, gained))))
        words = ", ".join(f"{n} {STATS[i].capitalize()}" for i, n in enumerate(gained))
        tx.say("production", club.seat, f"Seat {club.seat} produces {words}.", gained=dict(zip(STATS, gained)))
    _put(tx, step="transfer", round=1)
    _give_turn(tx, order[0], 1)


def _pass(tx: Tx, seat: int) -> None:
    """A pass in the Transfer Window: the club's turn of this round ends."""
    from engine.rules.actions import pass_turn

    _in_step(tx, seat, "transfer", "pass")
    pass_turn(tx, seat)


def _draft_order(state: State, most_first: bool) -> tuple[int, ...]:
    """Clubs by League points (turn order between equal ones), the most first or the fewest first (l.516)."""
    order = turn_order(state)
    points = {c.seat: c.points for c in state.clubs}
    return tuple(sorted(order, key=lambda s: (-points[s] if most_first else points[s], order.index(s))))


def _training_round(tx: Tx, round_: int) -> None:
    order = _draft_order(tx.state, most_first=round_ != 2)
    _put(tx, step="tokens", round=round_, revealed=(), order=order)
    tx.say("winter_training", None, TRAINING.format(round=round_, count=len(tx.state.clubs) + 1, first=order[0]),
           round=round_, order=list(order))


def _supply(tx: Tx) -> dict[str, int]:
    """The Winter Break tokens not revealed yet, by kind."""
    used = _mine(tx.state).used
    return {t.id: t.count - used.count(t.id) for t in _ext(tx.profile).tokens}


def _token(tx: Tx, kind: str) -> Any:
    found = _ext(tx.profile).token(kind)
    if found is None:
        known = ", ".join(t.id for t in _ext(tx.profile).tokens)
        raise E.NotAllowed(UNKNOWN_TOKEN.format(token=kind, known=known))
    return found


def _on_tokens(tx: Tx) -> None:
    """The table reveals one token more than there are clubs (the kinds it drew from the supply)."""
    mine = _in_step(tx, None, "tokens", "reveal Winter Break tokens")
    kinds = [str(k) for k in field(tx.event, "tokens", list, "the kinds of the tokens revealed")]
    count = len(tx.state.clubs) + 1
    if len(kinds) != count:
        raise E.NotAllowed(WRONG_COUNT.format(count=count, got=len(kinds)))
    supply = _supply(tx)
    for kind in kinds:
        token = _token(tx, kind)
        if kinds.count(kind) > supply[kind]:
            left = ", ".join(f"{n} {k}" for k, n in supply.items() if n)
            raise E.NotAllowed(NONE_LEFT.format(name=token.name, left=left or "none"))
    _put(tx, step="draft", revealed=tuple(kinds), used=mine.used + tuple(kinds))
    tx.say("winter_tokens", None, REVEALED.format(names=", ".join(_token(tx, k).name for k in kinds)), tokens=kinds)


def _on_pick(tx: Tx) -> None:
    """A club takes one of the revealed tokens, in the round's order; the last one left is discarded."""
    seat = seat_of(tx.event)
    tx.club(seat)
    mine = _in_step(tx, seat, "draft", "take a Winter Break token")
    if mine.order[0] != seat:
        raise E.NotAllowed(NOT_YOUR_PICK.format(turn=mine.order[0]))
    kind = field(tx.event, "token", str, "the kind of the token taken")
    token = _token(tx, kind)
    if kind not in mine.revealed:
        raise E.NotAllowed(NOT_REVEALED.format(name=token.name, shown=", ".join(mine.revealed)))
    revealed = list(mine.revealed)
    revealed.remove(kind)
    mine = _put(tx, revealed=tuple(revealed), order=mine.order[1:], drafted=mine.drafted + ((seat, kind),))
    tx.say("winter_pick", seat, PICKED.format(seat=seat, name=token.name), token=kind)
    if mine.order:
        return
    for left in mine.revealed:
        tx.say("winter_discard", None, LEFT_OVER.format(name=_token(tx, left).name), token=left)
    if mine.round < DRAFT_ROUNDS:
        _training_round(tx, mine.round + 1)
    else:
        _put(tx, step="place", revealed=())
        _unplaceable(tx)


def _on_place(tx: Tx) -> None:
    """A drafted token on one of the club's Player cards (one a card), for the rest of the game (l.518)."""
    seat = seat_of(tx.event)
    club = tx.club(seat)
    mine = _in_step(tx, seat, "place", "place a Winter Break token")
    kind = field(tx.event, "token", str, "the kind of the token placed")
    token = _token(tx, kind)
    if (seat, kind) not in mine.drafted:
        raise E.NotAllowed(NOT_DRAFTED.format(seat=seat, name=token.name))
    card = field(tx.event, "card", str, "the id of the Player card it goes on")
    held = next((h for h in club.players if h.id == card), None)
    if held is None and tx.state.game.revision < REVISED and token.effect != "any_section":
        held = club.held(card)  # revisions 1–2 let a token lie on a Staff card, where it changed nothing
    if held is None:
        raise E.NotAllowed(NOT_A_PLAYER.format(seat=seat, card=tx.name(card) if card in tx.profile.cards else card))
    if mine.token_on(seat, card) is not None:
        raise E.NotAllowed(ONE_PER_CARD.format(card=tx.name(card)))
    if token.effect == "any_section":
        from engine.rules.context import side_of

        if side_of(tx, held, club).goalkeeper is not None:
            raise E.NotAllowed(NO_KEEPER.format(name=token.name, card=tx.name(card)))
    drafted = list(mine.drafted)
    drafted.remove((seat, kind))
    _put(tx, drafted=tuple(drafted), placed=mine.placed + ((seat, card, kind),))
    tx.say("winter_place", seat, PLACED.format(seat=seat, name=token.name, card=tx.name(card), does=EFFECTS[token.effect]),
           token=kind, card=card)
    _unplaceable(tx)


def _unplaceable(tx: Tx) -> None:
    """Tokens a club cannot place (every Player card of its carries one) are discarded; once every token is placed
    or discarded, the Winter Break is over."""
    mine = _mine(tx.state)
    drafted = list(mine.drafted)
    for club in tx.state.clubs:
        free = [h for h in club.players if mine.token_on(club.seat, h.id) is None]
        if free:
            continue
        for seat, kind in list(drafted):
            if seat == club.seat:
                drafted.remove((seat, kind))
                tx.say("winter_discard", seat, NO_CARD_LEFT.format(seat=seat, name=_token(tx, kind).name), token=kind)
    mine = _put(tx, drafted=tuple(drafted))
    if not mine.drafted:
        _put(tx, step="done")
        tx.say("winter_over", None, BREAK_OVER.format(week=BREAK_AFTER + 1))


# ---------------------------------------------------------------------------------------------------------------
# The view.


def _view(profile: Profile, state: State, viewer: Any) -> list[tuple[str, Any]]:
    mine = _mine(state)
    ext = _ext(profile)
    out: dict[str, Any] = {
        "step": mine.step or None, "round": mine.round, "revealed": list(mine.revealed), "order": list(mine.order),
        "drafted": [{"seat": s, "token": k} for s, k in mine.drafted],
        "placed": [{"seat": s, "card": c, "token": k} for s, c, k in mine.placed],
        "supply": {t.id: t.count - mine.used.count(t.id) for t in ext.tokens},
        "tokens": [{"id": t.id, "name": t.name, "effect": t.effect, "value": t.value, "does": EFFECTS[t.effect],
                    "text": t.text} for t in ext.tokens],
        "winter": [{"seat": s, "result": r, **({"card": c} if r != "missed" or viewer in ("all", s) else {})}
                   for s, c, r in mine.winter],
        "league_vp": list(ext.league_vp), "league_vp_beyond": ext.league_vp_beyond, "spaces": ext.spaces,
        "second": {str(s): c for s, c in mine.second if viewer in ("all", s)},
    }
    return [(NAME, out)]


def _secret_cards(state: State, viewer: Any) -> list[str]:
    """Another club's second Objective, and the Objective it discarded at the break (face down, l.466)."""
    mine = _mine(state)
    return ([c for s, c in mine.second if viewer not in ("all", s)]
            + [c for s, c, r in mine.winter if r == "missed" and viewer not in ("all", s)])


def _candidates(profile: Profile, state: State, need: dict[str, Any]) -> list[dict[str, Any]]:
    """Events worth trying for the module's needs (the tests' random games, the page's hints)."""
    what, seat = need.get("need"), need.get("seat")
    mine = _mine(state)
    if what == "winter_objective" and isinstance(seat, int):
        club = state.club(seat)
        return [{"type": "winter_objective", "seat": seat, "card": club.objective, "result": "missed"}] if club else []
    if what == "winter_tokens":
        out: list[str] = []
        used = list(mine.used)
        for t in _ext(profile).tokens:
            out += [t.id] * max(0, t.count - used.count(t.id))
        return [{"type": "winter_tokens", "tokens": out[:need.get("count", 0)]}]
    if what == "winter_pick":
        return [{"type": "winter_pick", "seat": seat, "token": k} for k in need.get("tokens", [])[:1]]
    if what == "winter_place" and isinstance(seat, int):
        club = state.club(seat)
        taken = {c for s, c, _ in mine.placed if s == seat}
        free = [h.id for h in (club.players if club else ()) if h.id not in taken]
        return [{"type": "winter_place", "seat": seat, "token": need["tokens"][0], "card": free[0]}] if free else []
    return []


EPIC_LEAGUE = host.register(host.Module(
    name=NAME,
    title="Epic League",
    doc="003 l.436: ten weeks on a 30-space League table with a Winter Break after week 5 and two Objectives.",
    events={
        "winter_objective": host.EventSpec("seat, card, result (fulfilled, perfect, missed): the Objective a club fulfilled "
                                           "before the Winter Break, or the one it discards", _on_winter_objective,
                                           seat_page=True),
        "winter_tokens": host.EventSpec("tokens (kinds): the Winter Break tokens the table reveals for a draft round", _on_tokens),
        "winter_pick": host.EventSpec("seat, token (kind): the Winter Break token a club takes in the draft", _on_pick),
        "winter_place": host.EventSpec("seat, token (kind), card: where a club puts a Winter Break token it drafted", _on_place),
    },
    phases=(host.Phase(STAGE, "the Winter Break", begin=_begin, step=_step, over=_over, awaiting=_awaiting,
                       pass_=_pass, turn_actions=("hire", "sell", "pass")),),
    hooks={"opponents_needed": _opponents_needed, "opponent_decks": _opponent_decks, "objectives_kept": _objectives_kept,
           "deck": _deck, "not_dealt": _not_dealt, "objective_kept": _objective_kept, "setup_check": _setup_check, "club_check": _club_check,
           "secret_cards": _secret_cards,
           "awaiting": _awaiting_setup, "board": _board, "week_phases": _week_phases, "score_parts": _score_parts,
           "footballer": _footballer, "abilities": _abilities, "hired": _hired, "sold": _sold, "sale_price": _sale_price, "tokens_gained": _tokens_gained, "after_match": _after_match, "view": _view, "candidates": _candidates},
    data=(host.DataFile(DATA_FILE, _read, doc="the League table extension: its teams, VP by position, the Objective cards "
                                              "of the mode and the Winter Break tokens",
                        teams=lambda ext: tuple(t.id for t in ext.teams)),),
    state=host.Slice(initial=lambda game: Epic(), decode=_decode),
    options={"lower_division": host.Option(LOWER_WORDS, _check_division, DIVISIONS[0], choices=DIVISIONS,
                                           title="Lower Division")},
    excludes=("division", "club_matches"),
))
