"""Matchday (rulebook, Matchday: Prepare for the match, Resolve the match, Result of the match): each club's lineup
and the pitch's rules, the Stands, a Tactic card, its match abilities, the nine zone pairs against its Opponent
card, the result, the Stands' €, experience, and the Match consequence roll."""

from __future__ import annotations

from collections import Counter
from operator import attrgetter, itemgetter
from typing import Any, Final, Mapping, NamedTuple, Sequence

from engine import errors as E
from engine.cards import STYLES, ZONES, Opponent, PlayerCard, PlayerSide, Profile
from engine.rules.abilities import MATCH_TIMINGS, ROLLS_FIRST_REVISION, card_abilities, card_actions, roll_first
from engine.rules.context import (
    describe_quad,
    event_roll,
    event_targets,
    field,
    flip_markers,
    pay,
    quad_add,
    quad_of,
    replace_held,
    seat_of,
    set_mod,
    side_of,
    unavailable,
)
from engine.rules.effects import Ctx, apply_abilities, apply_effects, applying_at, choices_of, consequence_ref
from engine.rules.league import move_team, week_opponent
from engine.rules.suspension_and_injury import injury_roll, resting, shed_tokens
from engine.state import Club, Held, Pending, Placed, Quad, State, evolve, evolve1
from engine.tx import Tx

def zone_goals(attackers: Sequence[int], defenders: Sequence[int]) -> int:
    """Goals attackers score against defenders in one zone pair.

    Attackers and defenders pair off strongest against strongest; an attacker scores only when strictly stronger
    than the defender paired with it, and attackers left without a defender score.
    """
    a = sorted(attackers, reverse=True)
    d = sorted(defenders, reverse=True)
    goals = sum(1 for i, s in enumerate(a) if i >= len(d) or s > d[i])
    return goals


#: A named tuple made from its values without the constructor that takes keywords (several times faster): for the
#: jersey markers of every lineup and the nine zones of every match.
_new_tuple: Final = tuple.__new__
#: Where a club keeps the fields `place_lineup` and `conclude_match` store, each in one copy of the club.
_RES, _MARKERS_SETUP, _LINEUP, _STANDS, _GOALS, _CONCEDED, _RESULT, _POINTS, _PLAYERS = (
    Club._fields.index(f) for f in ("res", "markers_setup", "lineup", "stands", "goals", "conceded", "result", "points", "players"))


class ZoneResult(NamedTuple):
    """One of the nine zone pairs: who stood there and how many goals each side scored (a named tuple: nine are
    made for every match, and a tuple is built several times faster than a frozen dataclass)."""

    zone: str  # the club's zone
    facing: str  # the Opponent card's zone it faces
    our_attack: tuple[int, ...]
    our_defence: tuple[int, ...]
    their_attack: tuple[int, ...]
    their_defence: tuple[int, ...]
    scored: int
    conceded: int

    def as_dict(self) -> dict[str, Any]:
        """JSON-safe form for announcements."""
        return {
            "zone": self.zone, "facing": self.facing, "our_attack": list(self.our_attack), "our_defence": list(self.our_defence),
            "their_attack": list(self.their_attack), "their_defence": list(self.their_defence),
            "scored": self.scored, "conceded": self.conceded,
        }


def _matchday(tx: Tx, seat: int, what: str) -> Club:
    if tx.state.stage != "matchday":
        raise E.WrongStage(E.WRONG_STAGE.format(seat=seat, what=what, stage=tx.stage_name(), expected="and this happens on Matchday"))
    return tx.club(seat)


def _before_kickoff(tx: Tx, seat: int, what: str) -> Club:
    """The club on Matchday with its lineup set and its match not yet played."""
    club = _matchday(tx, seat, what)
    if club.lineup is None:
        raise E.NotAllowed(E.NO_LINEUP.format(seat=seat))
    if club.result is not None:
        raise E.NotAllowed(E.ALREADY_PLAYED.format(seat=seat))
    return club


def strength_of(tx: Tx, club: Club, placed: Placed) -> int:
    """A placed jersey's Strength: its card's side plus Strength tokens (never below 0), or 1 without a card."""
    if placed.card is None:
        return 1
    held = club.held(placed.card)
    assert held is not None
    return max(0, side_of(tx, held, club).strength + held.strength_temp + held.strength_perm)


def stands_of(tx: Tx, club: Club) -> int:
    """Fanbase the club's Stands take: those printed on its board (each as many as the board says) plus built ones."""
    board = tx.board(club.seat)
    stands = board.printed_stands()
    built = club.infrastructure
    if built:  # loops, not generators: asked at every lineup
        kinds = board.kinds_by_id  # `Board.infrastructure_kind`
        for k, _ in club.suspended:  # a suspended Stands token lends no Stands until its tokens are gone
            if k in built:
                stands -= kinds[k].stands
        for k in built:
            stands += kinds[k].stands
    return stands


def _plain_side(tx: Tx, club: Club, jersey: int | None, style: Any, sides: dict[str, Any] | None = None,
                shown: dict[int, str] | None = None, wearing: dict[int, list[Held]] | None = None) -> str:
    """The side a jersey marker without a card shows: a numbered one as it lies (no card of its number plays, so
    nothing flips it), `style` only when the engine has not seen it yet; a blank one as the table says.
    ``sides``: the faces of the club's footballers (by card id) when already known; ``shown`` and ``wearing``:
    the side each numbered marker shows and the footballers wearing each number, when already known."""
    if jersey is None:
        shows = None
    else:
        shows = shown.get(jersey) if shown is not None else club.marker_side(jersey)
    if style is None and shows is not None:
        return shows
    if style is None:
        raise E.NotAllowed(E.LINEUP_BLANK_SIDE if jersey is None else E.LINEUP_MARKER_UNSEEN.format(jersey=jersey))
    if style not in STYLES:
        raise E.NotAllowed(E.LINEUP_BAD_STYLE.format(style=style))
    if shows is not None and style != shows:
        raise E.NotAllowed(E.LINEUP_MARKER_SIDE.format(jersey=jersey, shows=shows, style=style))
    if jersey is not None:
        if wearing is not None:
            worn = wearing.get(jersey, [])
        else:
            if sides is None:
                sides = {h.id: side_of(tx, h, club) for h in club.players}
            worn = [h for h in club.players if sides[h.id].jersey == jersey]
        if worn and all(h.unavailable for h in worn):
            raise E.NotAllowed(E.LINEUP_UNAVAILABLE.format(name=f"Number {jersey} ({tx.name(worn[0].id)})"))
    return str(style)


def unseen_marker_sides(profile: Profile, club: Club) -> dict[int, str]:
    """A side for each numbered jersey marker the engine has not seen yet that keeps the setup's half attack and
    half defence: the lowest numbers defence, the highest attack, as far as the setup's counts still allow."""
    styles = dict(profile.board.pitch.start_styles)
    known = dict(club.markers_setup)
    left = {s: styles.get(s, 0) - sum(1 for v in known.values() if v == s) for s in STYLES}
    unseen = [n for n in profile.board.pitch.jerseys if n not in known and club.marker_side(n) is None]
    out: dict[int, str] = {}
    defence = max(0, min(left["defence"], len(unseen) - max(0, left["attack"])))
    for i, n in enumerate(unseen):
        out[n] = "defence" if i < defence else "attack"
    return out


def _setup_sides(tx: Tx, club: Club, lineup: tuple[Placed, ...]) -> tuple[tuple[int, str], ...]:
    """The setup sides known once this lineup is placed: a numbered marker never seen before and fielded plain
    still lies as it was set up, and at the beginning of the game exactly half showed attack and half defence."""
    known = dict(club.markers_setup)
    revealed = [(p.jersey, p.style) for p in lineup
                if p.card is None and p.jersey is not None and p.jersey not in known and club.marker_side(p.jersey) is None]
    if not revealed:
        return club.markers_setup
    sides = club.markers_setup + tuple(revealed)
    styles = dict(tx.board(club.seat).pitch.start_styles)
    attack = sum(1 for _, side in sides if side == "attack")
    defence = len(sides) - attack
    if attack > styles.get("attack", 0) or defence > styles.get("defence", 0):
        raise E.NotAllowed(E.LINEUP_SETUP_SIDES.format(
            attack=styles.get("attack", 0), defence=styles.get("defence", 0), shown_attack=attack, shown_defence=defence))
    return tuple(sorted(sides))


#: The section of each zone of the pitch (``def_left`` is in ``def``).
ZONE_SECTION: Final = {zone: zone.split("_")[0] for zone in ZONES}
SECTION_WORDS: Final = {"def": "Defenders", "mid": "Midfielders", "fwd": "Forwards"}
"""The pitch's sections as the rulebook names the footballers standing there (l.632)."""
_SIDE_WORDS: Final = {"left": "left wing", "centre": "central zone", "right": "right wing"}


def zone_words(zone: str, capital: bool = False) -> str:
    """A zone as a player says it: ``def_left`` is "the Defenders' left wing" ("The ..." to begin a sentence)."""
    section, _, side = zone.partition("_")
    return f"{'The' if capital else 'the'} {SECTION_WORDS.get(section, section)}' {_SIDE_WORDS.get(side, side)}"


#: The kinds of card a lineup fields (`Tx.card` checks them).
_FOOTBALLER_KINDS: Final = ("player", "youngster", "veteran")


def _parse_lineup(tx: Tx, club: Club, entries: Any, partial: bool = False) -> tuple[Placed, ...]:
    """The jersey markers of a lineup checked against the pitch and the club's cards (``partial``: the first of them,
    as a person places them one by one; every check but the count)."""
    pitch = tx.board(club.seat).pitch
    if not isinstance(entries, list) or not all([isinstance(e, dict) for e in entries]):
        raise E.BadEvent(E.BAD_FIELD.format(type="lineup", field="players", why="a list of {zone, jersey, card, style}"))
    if len(entries) > pitch.on_pitch or (len(entries) != pitch.on_pitch and not partial):
        raise E.NotAllowed(E.LINEUP_COUNT.format(need=pitch.on_pitch, count=len(entries)))
    placed: list[Placed] = []
    sides: dict[str, PlayerSide] = {}  # each footballer's face, asked once
    wearing: dict[int, list[Held]] = {}  # the footballers wearing each number
    # the numbers worn matter only while some footballer sits out (a plain marker may not stand for a number whose
    # every card is injured or suspended): without one, only the faces of the cards placed are asked
    blocked: set[int] = set()  # the numbers whose every card sits out
    players = club.players
    out = any([h.injury > 0 or h.suspension > 0 for h in players])  # `Held.unavailable`, without a call per card
    if out:
        for h in players:
            side = sides[h.id] = side_of(tx, h, club)
            wearing.setdefault(side.jersey, []).append(h)
        blocked = {n for n, worn in wearing.items() if all([h.unavailable for h in worn])}
    shown: dict[int, str] = dict(reversed(club.markers))  # the side each numbered marker shows (the first of a number)
    numbered = frozenset(pitch.jerseys)
    by_id = footballers_by_id(players)
    known_cards = tx.profile.cards
    numbers: list[int] = []
    cards: list[str] = []
    per_zone: dict[str, int] = {}
    per_section: dict[str, int] = {}
    for e in entries:
        zone = e.get("zone")
        try:
            section = ZONE_SECTION.get(zone)
        except TypeError:  # not even a name
            section = None
        if section is None:
            raise E.NotAllowed(E.LINEUP_ZONE.format(zone=zone, known=", ".join(ZONES)))
        jersey = e.get("jersey")
        card_id = e.get("card")
        style = e.get("style")
        if (jersey is not None and not (type(jersey) is int and jersey in numbered)  # a known number, at once
                and (not isinstance(jersey, int) or isinstance(jersey, bool) or jersey not in numbered)):
            raise E.NotAllowed(E.LINEUP_JERSEY_UNKNOWN.format(jersey=jersey, known=", ".join(map(str, pitch.jerseys))))
        if card_id is not None:
            # `tx.card` asked only when it refuses: a text id of a footballer card is taken at once
            card = known_cards.get(card_id) if type(card_id) is str else None
            if card is None or card.kind not in _FOOTBALLER_KINDS:
                card = tx.card(card_id, *_FOOTBALLER_KINDS)
            held = by_id.get(card_id)
            if held is None:
                held = club.held(card.id)  # not among the footballers
                if held is None:
                    raise E.NotAllowed(E.CARD_NOT_OWNED.format(seat=club.seat, name=card.name))
                sits_out = held.unavailable
            else:
                sits_out = out and held.unavailable  # none sits out when none of the club's footballers does
            if sits_out:
                raise E.NotAllowed(E.LINEUP_UNAVAILABLE.format(name=card.name))
            side = sides.get(held.id)
            if side is None:
                side = sides[held.id] = side_of(tx, held, club)
            wanted = side.jersey if side.jersey in numbered else None
            if jersey is None and wanted is not None:
                jersey = wanted
            if jersey != wanted:
                raise E.NotAllowed(E.LINEUP_CARD_JERSEY.format(name=card.name, jersey=side.jersey, given=jersey))
            if section not in side.sections:
                raise E.NotAllowed(E.LINEUP_CARD_SECTION.format(name=card.name, zone=zone_words(zone),
                                                                sections=" or ".join(SECTION_WORDS.get(s, s) for s in side.sections)))
            style = side.style
            cards.append(card_id)
        else:
            shows = shown.get(jersey) if jersey is not None else None
            if shows is not None and (style is None or (style == shows and jersey not in blocked)):
                style = shows  # a numbered marker as it lies, its number not out (what `_plain_side` says, sooner)
            else:
                style = _plain_side(tx, club, jersey, style, sides, shown, wearing)
        placed.append(_new_tuple(Placed, (zone, jersey, card_id, style)))  # `Placed` without its keyword-taking constructor
        if jersey is not None:
            numbers.append(jersey)
        per_zone[zone] = per_zone.get(zone, 0) + 1
    if len(set(numbers)) < len(numbers):  # the first number placed twice
        number = next(n for n, count in Counter(numbers).items() if count > 1)
        raise E.NotAllowed(E.LINEUP_JERSEY_TWICE.format(jersey=number))
    blanks = len(placed) - len(numbers)
    if blanks:
        # `blank_markers` from the numbers already known: a proxy for each number whose every card sits out
        have = tx.profile.board.pitch.blank_jerseys + len(blocked)
        if blanks > have:
            raise E.NotAllowed(E.LINEUP_BLANKS.format(have=have, count=blanks))
    if len(set(cards)) < len(cards):  # the first card placed twice
        card_id = next(c for c, count in Counter(cards).items() if count > 1)
        raise E.NotAllowed(E.LINEUP_CARD_TWICE.format(name=tx.name(card_id)))
    for zone, n in per_zone.items():
        section = ZONE_SECTION[zone]
        per_section[section] = per_section.get(section, 0) + n
    least = min(pitch.centre_capacity, pitch.wing_capacity)  # a zone holding no more is never asked its capacity
    for zone, n in per_zone.items():
        if n > least and n > pitch.capacity(zone):
            raise E.NotAllowed(E.LINEUP_ZONE_FULL.format(zone=zone_words(zone, capital=True), cap=pitch.capacity(zone), count=n))
    for section, cap in pitch.section_max:
        if per_section.get(section, 0) > cap:
            raise E.NotAllowed(E.LINEUP_SECTION_FULL.format(section=SECTION_WORDS.get(section, section), cap=cap,
                                                           count=per_section.get(section, 0)))
    return tuple(placed)


def on_lineup(tx: Tx) -> None:
    """Set the club's lineup: 1 Fitness per footballer card used, Fanbase on the Stands, resources assigned to cards."""
    seat = seat_of(tx.event)
    lineup_due(tx, seat)
    place_lineup(tx, seat)


def lineup_due(tx: Tx, seat: int) -> Club:
    """The club, when it may set its lineup now: on Matchday, with an Opponent card this week, not lined up yet."""
    club = _matchday(tx, seat, "set a lineup")
    if week_opponent(tx.state, club) is None:
        raise E.NotAllowed(E.NO_OPPONENT_CARD.format(seat=seat))
    if club.lineup is not None:
        raise E.NotAllowed(E.ALREADY_LINED_UP.format(seat=seat))
    return club


class Checked(NamedTuple):
    """A lineup as the rules take it: its jersey markers, the Fanbase on the Stands, the resources placed on cards
    and the club once it has paid for them (1 Fitness a footballer card, the Stands' Fanbase, what is assigned)."""

    lineup: tuple[Placed, ...]
    stands: int
    cost: tuple[int, int, int, int]
    assigned: dict[str, tuple[int, int, int, int]]
    club: Club


def check_lineup(tx: Tx, club: Club, *, partial: bool = False) -> Checked:
    """The event's lineup (``players``, ``stands``, ``assign``) checked for the club and paid for, nothing stored;
    ``partial``: the jersey markers placed so far (a person placing them one by one), every check but their count."""
    lineup, stands, cost, extra, setup = _checked(tx, club, partial)
    club = pay(club, cost, "field this lineup")
    if setup is not club.markers_setup:
        club = evolve1(club, "markers_setup", setup)
    return Checked(lineup, stands, cost, extra, club)


def _checked(tx: Tx, club: Club, partial: bool = False) -> tuple[tuple[Placed, ...], int, Quad, dict[str, Quad], tuple[tuple[int, str], ...]]:
    """`check_lineup`'s checks, the club not yet paying: the lineup, the Stands' Fanbase, the cost, the resources
    assigned to cards and the setup sides known once it is placed."""
    ev = tx.event
    seat = club.seat
    lineup = _parse_lineup(tx, club, field(ev, "players", list, "the ten jersey markers: zone, jersey, card, style"), partial)
    stands = field(ev, "stands", int, "Fanbase markers put on the Stands", default=0)
    if stands < 0 or stands > stands_of(tx, club):
        raise E.NotAllowed(E.STANDS_LIMIT.format(seat=seat, stands=stands_of(tx, club), count=stands))
    assign = field(ev, "assign", dict, "{card id: {resource: amount}} placed on footballer cards for their actions", default={})
    playing = set(fielded(lineup))
    cost = quad_of({"fitness": len(playing), "fanbase": stands})
    extra: dict[str, tuple[int, int, int, int]] = {}
    for card_id, res in assign.items():
        if card_id not in playing or not isinstance(res, dict):
            raise E.NotAllowed(E.ASSIGN_NOT_PLAYING.format(name=tx.name(str(card_id))))
        try:
            extra[card_id] = quad_of({str(k): int(v) for k, v in res.items()})
        except (KeyError, ValueError, TypeError):
            raise E.BadEvent(E.BAD_FIELD.format(type="lineup", field="assign", why="resources are budget, fanbase, operation, fitness with whole numbers")) from None
        if any(v < 0 for v in extra[card_id]):
            raise E.BadEvent(E.BAD_FIELD.format(type="lineup", field="assign", why="amounts cannot be negative"))
        cost = quad_add(cost, extra[card_id])
    res = club.res
    if cost[0] > res[0] or cost[1] > res[1] or cost[2] > res[2] or cost[3] > res[3]:
        pay(club, cost, "field this lineup")  # refused, in its words
    return lineup, stands, cost, extra, _setup_sides(tx, club, lineup)


def place_lineup(tx: Tx, seat: int) -> None:
    """The lineup of the event (``players``, ``stands``, ``assign``) placed for the club, checked and paid, then the
    effects after the reveal and before the match, and the cards sitting out shed a token (Matchday steps 1–4).
    From revision 3 the modules' step before the match (the Referee's call) comes first among the effects before
    the match: when it leaves rolls of the seat awaited, the club's own effects and step 4 wait for
    `finish_before_match`.  A module playing a match its own way (between clubs) places each lineup here when it
    is revealed."""
    club = tx.club(seat)
    if club.lineup is not None:
        raise E.NotAllowed(E.ALREADY_LINED_UP.format(seat=seat))
    lineup, stands, cost, extra, setup = _checked(tx, club)
    for card_id, q in extra.items():
        held = club.held(card_id)
        assert held is not None
        club = replace_held(club, evolve(held, assigned=quad_add(held.assigned, q)))
    shows = dict(club.markers)
    for p in lineup:
        if p.jersey is not None and shows.get(p.jersey) != p.style:  # a marker turns over (else the markers stay as they are)
            club = flip_markers(club, {p.jersey: p.style for p in lineup if p.jersey is not None})
            break
    # paid, its setup sides and its lineup stored in one copy of the club (`check_lineup`'s and `evolve`'s together)
    values = [*club]
    res = club.res
    values[_RES] = (res[0] - cost[0], res[1] - cost[1], res[2] - cost[2], res[3] - cost[3])
    values[_MARKERS_SETUP] = setup
    values[_LINEUP] = lineup
    values[_STANDS] = stands
    club = _new_tuple(Club, values)
    tx.put(club)
    if not tx.quiet:
        playing = set(fielded(lineup))
        tx.say(
            "lineup", seat, f"Seat {seat} lines up {len(playing)} footballer card(s) and puts {stands} Fanbase on the Stands (paying {describe_quad(cost)}).",
            players=[{"zone": p.zone, "jersey": p.jersey, "card": p.card, "style": p.style} for p in lineup], stands=stands,
        )
    # the cards that sit out because of their tokens: they shed one at step 4, after the effects before the match
    sitting_out = resting(club)
    apply_mandatory(tx, seat, "after_reveal")
    if tx.state.game.revision < ROLLS_FIRST_REVISION:  # a game begun before: the club's effects, then the modules'
        apply_mandatory(tx, seat, "before_match")
        tx.rules.before_match(tx, seat)  # type: ignore[attr-defined]
        shed_tokens(tx, seat, sitting_out)
        return
    awaited = tx.state.pending
    tx.rules.before_match(tx, seat)  # type: ignore[attr-defined]
    if any(p.seat == seat and p not in awaited for p in tx.state.pending):
        tx.put(set_mod(tx.club(seat), BEFORE_MATCH_WAITS, 1))  # the module's rolls first
        return
    apply_mandatory(tx, seat, "before_match")
    shed_tokens(tx, seat, sitting_out)


#: The running modifier of a club whose own effects before the match and step 4 wait for a module's rolls.
BEFORE_MATCH_WAITS: Final = "before_match_waits:round"


def finish_before_match(tx: Tx, seat: int) -> None:
    """The club's own effects before the match, then its cards sitting out shed a token (Matchday steps 3–4), once
    the rolls a module's ``before_match`` left awaited are done (the Referee's call, so that its cell's effects
    before the match cover the club's): the module calls this when they are.  Nothing happens when the club waits
    for no such rolls (the steps came with its lineup, or were finished already)."""
    club = tx.club(seat)
    if not club.mod(BEFORE_MATCH_WAITS):
        return
    club = set_mod(club, BEFORE_MATCH_WAITS, -1)
    tx.put(club)
    sitting_out = resting(club)  # those with tokens once the call is made (engine/RULES.md, "Referee")
    apply_mandatory(tx, seat, "before_match")
    shed_tokens(tx, seat, sitting_out)


def apply_mandatory(tx: Tx, seat: int, timing: str) -> None:
    """Effects that happen by themselves at a moment of the match: the mandatory abilities of the club's cards
    (footballers only when they play); the others are offered to the club (`actions.offered`)."""
    club = tx.club(seat)
    sources = card_abilities(tx, club)
    now = applying_at(sources).get(timing) if sources else None
    if now:
        roll = event_roll(tx.event)
        for source, abilities in now:
            apply_abilities(tx, abilities, timing, Ctx(seat=seat, source=source, label=tx.name(source), roll=roll))
        club = tx.club(seat)
    if club.lineup is None:
        return
    # a module never makes an ability mandatory that the printed side lacks (the `footballer` hook): only the
    # footballers whose printed side has one at this moment are asked their face, most moments none
    moments, cards = mandatory_cards(tx.profile, club.lineup)
    if timing not in moments:
        return
    for card_id, untrained, trained in cards:
        held = club.held(card_id)
        if held is None or timing not in (trained if held.trained else untrained):
            continue
        side = side_of(tx, held, club)  # asked now: an earlier footballer's effects may have changed the game
        if timing not in side.mandatory:
            continue
        for ability in side.abilities:
            if ability.timing == timing and not ability.optional:
                apply_effects(tx, ability.effects, Ctx(seat=seat, source=card_id, label=tx.name(card_id), roll=event_roll(tx.event)))


def mandatory_cards(profile: Profile, lineup: tuple[Placed, ...]) -> tuple[frozenset[str], tuple[tuple[str, frozenset[str], frozenset[str]], ...]]:
    """The moments at which a side of a footballer card the lineup fields has a mandatory ability, and those cards
    (in the lineup's order), each with the moments its untrained and its trained side have one: kept per lineup
    (the same object from the lineup to the Match consequence), as the lineup and its match ask at each of their
    four moments."""
    found = _MANDATORY.get(id(lineup))
    if found is not None and found[0] is lineup and found[1] is profile:
        return found[2]
    cards = profile.cards
    moments: frozenset[str] = frozenset()
    out = []
    for card_id in fielded(lineup):
        card: PlayerCard = cards[card_id]  # type: ignore[assignment]
        untrained, trained = card.untrained.mandatory, card.trained.mandatory
        if untrained or trained:
            out.append((card_id, untrained, trained))
            moments = moments | untrained | trained
    if len(_MANDATORY) > 64:
        _MANDATORY.clear()
    answer = (moments, tuple(out))
    _MANDATORY[id(lineup)] = (lineup, profile, answer)
    return answer


_MANDATORY: dict[int, tuple[tuple[Placed, ...], Profile, tuple[frozenset[str], tuple[tuple[str, frozenset[str], frozenset[str]], ...]]]] = {}


def footballers_by_id(players: tuple[Held, ...]) -> dict[str, Held]:
    """The footballers by id, the first of an id as `Club.held` finds it (not to be changed): one table instead of a
    search per card, kept while the club's footballers are the same tuple (most events leave them so)."""
    kept = _BY_ID_KEPT[0]  # one tuple, read and replaced whole (requests answered side by side see one answer)
    if kept[0] is players:
        return kept[1]
    by_id: dict[str, Held] = {}
    for h in reversed(players):
        by_id[h.id] = h
    _BY_ID_KEPT[0] = (players, by_id)  # holds the tuple, so no other tuple can take its identity
    return by_id


#: The latest answer of `footballers_by_id`, with the footballers it was worked out for.
_BY_ID_KEPT: list[tuple[Any, dict[str, Held]]] = [((), {})]


def fielded(lineup: tuple[Placed, ...] | None) -> tuple[str, ...]:
    """The footballer cards a lineup fields, in its order: kept per lineup (the same object from the lineup to the
    Match consequence), as the lineup, each moment of the match and its result ask them."""
    if lineup is None:
        return ()
    found = _FIELDED.get(id(lineup))
    if found is not None and found[0] is lineup:
        return found[1]
    cards = tuple([p.card for p in lineup if p.card is not None])
    if len(_FIELDED) > 64:
        _FIELDED.clear()
    _FIELDED[id(lineup)] = (lineup, cards)
    return cards


_FIELDED: dict[int, tuple[tuple[Placed, ...], tuple[str, ...]]] = {}


def on_tactic_played(tx: Tx) -> None:
    """Play one Tactic card after the Opponent is revealed; it returns to the club afterwards."""
    ev = tx.event
    seat = seat_of(ev)
    allowed = tx.rules.tactics_allowed(tx, tx.club(seat), 1)  # type: ignore[attr-defined]
    if allowed == 0:
        raise E.NotAllowed(E.TACTIC_NONE.format(seat=seat))
    club = _before_kickoff(tx, seat, "play a Tactic card")
    if tx.state.game.revision >= ROLLS_FIRST_REVISION:
        _rolls_first(tx, seat)
    if club.mod("tactics:round") >= allowed:
        raise E.NotAllowed(E.TACTIC_ONE.format(seat=seat))
    card = tx.card(field(ev, "card", str, "the id of the Tactic card played"), "tactic")
    if card.id not in club.tactics:
        raise E.NotAllowed(E.CARD_NOT_OWNED.format(seat=seat, name=card.name))
    tx.put(set_mod(evolve(club, tactic_played=card.id), "tactics:round", 1))
    if not tx.quiet:
        tx.say("tactic_played", seat, f"Seat {seat} plays the Tactic {card.name}.", card=card.id)
    apply_effects(tx, card.effects, Ctx(seat=seat, source=card.id, label=card.name, targets=event_targets(ev), roll=event_roll(ev)))


def _rolls_first(tx: Tx, seat: int) -> None:
    """Refuse what must wait for a roll of the seat before the match (a card's effect, a module's dice)."""
    waiting = roll_first(tx.state, seat)
    if waiting is not None:
        raise E.NotAllowed(E.ROLL_BEFORE_KICKOFF.format(seat=seat, die=waiting.die))


def use_match_card(tx: Tx, seat: int, card_id: str, timings: tuple[str, ...] | None = None) -> None:
    """A card's match ability (a footballer's paid from resources assigned to it; others' from the supply).

    ``timings`` narrows the moment (a match between clubs takes its abilities one moment at a time); by default
    every moment before the kick-off, or after the match once the result is in."""
    club = _matchday(tx, seat, "use a card") if timings is None else tx.club(seat)
    found = card_actions(tx, club, card_id)
    name = tx.name(card_id)
    if found is None:
        raise E.NotAllowed(E.CARD_NOT_OWNED.format(seat=seat, name=name))
    abilities, holder = found
    if club.lineup is None:
        raise E.NotAllowed(E.NO_LINEUP.format(seat=seat))
    after = club.result is not None
    if timings is None and not after and tx.state.game.revision >= ROLLS_FIRST_REVISION:
        _rolls_first(tx, seat)
    if after and club.consequence_done:
        raise E.NotAllowed(E.AFTER_MATCH_OVER.format(seat=seat))
    if timings is None:
        timings = ("after_match",) if after else MATCH_TIMINGS[:3]
    # only what the club may use: mandatory abilities happen by themselves
    usable = [a for a in abilities if a.optional and a.timing in timings]
    if not usable:
        raise E.NotAllowed(E.CARD_HAS_NO_ACTION.format(name=name))
    held = club.held(card_id)
    if unavailable(club, card_id):
        raise E.NotAllowed(E.CARD_UNAVAILABLE.format(name=name))
    exhausted = held.exhausted if held is not None else card_id in club.exhausted
    if exhausted:
        raise E.NotAllowed(E.CARD_EXHAUSTED.format(name=name))
    ability = usable[0]
    cost = quad_of(ability.cost_map)
    if holder == "footballer":
        assert held is not None
        if all(p.card != card_id for p in club.lineup):
            raise E.NotAllowed(E.NOT_PLAYING.format(name=name))
        if any(c > h for c, h in zip(cost, held.assigned)):
            raise E.NotEnoughResources(E.NOT_ENOUGH.format(seat=seat, what=f"use {name}", cost=describe_quad(cost), have=describe_quad(held.assigned) + " assigned to the card"))
        club = replace_held(club, evolve(held, assigned=quad_add(held.assigned, cost, -1), exhausted=True))
    else:
        club = pay(club, cost, f"use {name}")
        club = replace_held(club, evolve(held, exhausted=True)) if held is not None else evolve(club, exhausted=club.exhausted + (card_id,))
    tx.put(club)
    if not tx.quiet:
        tx.say("use_card", seat, f"Seat {seat} uses {name} (paying {describe_quad(cost)}).", card=card_id, cost=list(cost),
               choices=choices_of(ability.effects))
    ev = tx.event
    apply_effects(tx, ability.effects, Ctx(seat=seat, source=card_id, label=name, targets=event_targets(ev), roll=event_roll(ev)))


def resolve_zones(tx: Tx, club: Club, opponent: Opponent) -> tuple[list[ZoneResult], Counter[str]]:
    """Compare the nine zone pairs; returns each pair's result and the goals each footballer card scored."""
    zones, scorers, _, _ = _compare_zones(tx, club, opponent, True)
    return zones, Counter(scorers)


def _compare_zones(tx: Tx, club: Club, opponent: Opponent, keep: bool) -> tuple[list[ZoneResult], dict[str, int], int, int]:
    """`resolve_zones`, with the goals scored and conceded in all nine zones; ``keep``: each pair's result is kept
    (a replay, which reads none of them, only counts the goals)."""
    facings = tx.board(club.seat).pitch.faced
    # the Opponent's Strengths in each of its zones, strongest first: as printed unless an effect changes them
    lines = opponent.lines if not club.opp_mods else _changed_lines(club, opponent)
    # each jersey marker's Strength (`strength_of`), once, in the zones the club fields some:
    # attackers as (Strength, card), defenders' Strength
    attack: dict[str, list[tuple[int, str | None]]] = {}
    defence: dict[str, list[int]] = {}
    for p in club.lineup or ():
        zone, _, card, style = p  # a `Placed` unpacked at once, not read field by field
        if card is None:
            strength = 1
        else:
            held = club.held(card)
            assert held is not None
            side = side_of(tx, held, club)
            strength = max(0, side.strength + held.strength_temp + held.strength_perm)
        if style == "attack":
            if zone in attack:
                attack[zone].append((strength, card))
            else:
                attack[zone] = [(strength, card)]
        elif style == "defence":
            if zone in defence:
                defence[zone].append(strength)
            else:
                defence[zone] = [strength]
    scorers: dict[str, int] = {}  # a plain table (not a `Counter`, whose making costs more): read with `get`
    out = []
    goals = against = 0
    for zone in ZONES:
        facing = facings[zone]
        their_att, d = lines[facing]
        scored = 0
        attackers = attack.get(zone)
        if attackers is not None:
            if len(attackers) == 1:  # one attacker, as mostly: he scores when stronger than the first defender
                s, card = attackers[0]
                if not d or s > d[0]:
                    scored = 1
                    if card:
                        scorers[card] = scorers.get(card, 0) + 1
            else:
                # strongest first; among equals a jersey marker without a card is paired (and blocked) first, so the
                # card scores (from revision 3; before, equals in lineup order)
                attackers.sort(key=_strength_key if tx.state.game.revision < CARDS_SCORE_REVISION else _plain_first_key, reverse=True)
                n = len(d)
                for i, (s, card) in enumerate(attackers):
                    if i >= n or s > d[i]:
                        scored += 1
                        if card:
                            scorers[card] = scorers.get(card, 0) + 1
        defenders = defence.get(zone)
        if defenders is not None:
            if len(defenders) > 1:
                defenders.sort(reverse=True)
            conceded = _goals(their_att, defenders) if their_att else 0
        else:
            conceded = len(their_att)  # nobody defends: each attacker scores
        goals += scored
        against += conceded
        if keep:  # the named tuple made without its keyword-taking constructor: nine for every match
            ours_attack = () if attackers is None else tuple([s for s, _ in attackers])
            out.append(_new_tuple(ZoneResult, (zone, facing, ours_attack, () if defenders is None else tuple(defenders),
                                               their_att, d, scored, conceded)))
    return out, scorers, goals, against


def _goals(attackers: Sequence[int], defenders: Sequence[int]) -> int:
    """`zone_goals` of Strengths already strongest first."""
    n = len(defenders)
    goals = 0
    for i, s in enumerate(attackers):
        if i >= n or s > defenders[i]:
            goals += 1
    return goals


def _changed_lines(club: Club, opponent: Opponent) -> dict[str, tuple[tuple[int, ...], tuple[int, ...]]]:
    """The Opponent's Strengths in each of its zones, strongest first, as this match's effects change them."""
    out = {}
    mods = club.opp_mods
    for zone, footballers in opponent.zones:
        section = zone.split("_")[0]
        attack: list[int] = []
        defence: list[int] = []
        for f in footballers:
            style = f.style
            if style == "attack" or style == "defence":
                strength = f.strength  # changed by each of the match's effects on its section and style, never below 0
                for sec, sty, amount in mods:
                    if (sec == "all" or sec == section) and (sty == "any" or sty == style):
                        strength += amount
                (attack if style == "attack" else defence).append(strength if strength > 0 else 0)
        attack.sort(reverse=True)
        defence.sort(reverse=True)
        out[zone] = (tuple(attack), tuple(defence))
    return out


#: An attacker's Strength, of (Strength, card), read without a Python call per attacker.
_strength_key: Final = itemgetter(0)
#: From this revision, of attackers of equal Strength in a zone the jersey markers without a card meet the defenders
#: first, so a card scores when one of them can (engine/RULES.md, "Zone pairs").
CARDS_SCORE_REVISION: Final = 3


def _plain_first_key(attacker: tuple[int, str | None]) -> tuple[int, bool]:
    """An attacker's order, strongest first (sorted in reverse): among equals, one without a card comes first."""
    return attacker[0], attacker[1] is None


def on_kickoff(tx: Tx) -> None:
    """Resolve the club's match against this week's Opponent card, then the result and what follows it."""
    ev = tx.event
    seat = seat_of(ev)
    club = _before_kickoff(tx, seat, "play its match")
    _rolls_first(tx, seat)
    card_id = week_opponent(tx.state, club)
    if card_id is None:
        raise E.NotAllowed(E.NO_OPPONENT_CARD.format(seat=seat))
    opponent: Opponent = tx.profile.cards[card_id]  # type: ignore[assignment]
    apply_mandatory(tx, seat, "during_match")
    club = tx.club(seat)
    resolved = tx.rules.match_resolver(tx, seat)  # type: ignore[attr-defined]
    if resolved is not None:
        zones, scorers = resolved
        scored, let_in = sum(map(_SCORED, zones)), sum(map(_CONCEDED_IN, zones))  # no Python loop over the zones
    else:  # a replay reads no zone's result: only its goals are counted
        zones, scorers, scored, let_in = _compare_zones(tx, club, opponent, not tx.quiet)
    goals = club.goals + scored
    conceded = club.conceded + let_in
    result = "win" if goals > conceded else "draw" if goals == conceded else "loss"
    their = _THEIR_RESULT[result]
    board = tx.board(None)
    points = board.points_by_result
    team_name = board.team(opponent.team).name
    against = opponent.name if opponent.name == team_name else f"{opponent.name} ({team_name})"
    move_team(tx, opponent.team, points[their])
    if not tx.quiet:  # the zones in words, for whoever reads the announcements
        for z in zones:
            if z.scored or z.conceded:
                tx.say("zone", seat, f"{z.zone.replace('_', ' ')}: Seat {seat} scores {z.scored}, {opponent.name} scores {z.conceded}.", **z.as_dict())
    conclude_match(tx, seat, goals, conceded, result, scorers, against,
                   opponent=opponent.id, team=opponent.team, zones=None if tx.quiet else [z.as_dict() for z in zones])


#: The Opponent team's result for the club's.
_THEIR_RESULT: Final = {"win": "loss", "loss": "win", "draw": "draw"}
#: The goals a zone's result counts for the club and against it.
_SCORED: Final = attrgetter("scored")
_CONCEDED_IN: Final = attrgetter("conceded")


def conclude_match(tx: Tx, seat: int, goals: int, conceded: int, result: str, scorers: Mapping[str, int], against: str,
                   **fields: Any) -> None:
    """Result of the match (000 l.711–720) once its goals are known: League points, the result announced (with
    ``fields``), the Stands' €, temporary Strength gone, experience, abilities after the match, then the Match
    consequence roll is awaited.  A module that plays a match its own way (between clubs) ends it here too."""
    club = tx.club(seat)
    points = tx.board(None).points_by_result
    # the result, the Stands' € and the footballers stored in one copy of the club (not one copy each)
    values = [*club]
    values[_GOALS] = goals
    values[_CONCEDED] = conceded
    values[_RESULT] = result
    values[_POINTS] = club.points + points[result]
    if not tx.quiet:
        word = {"win": "wins", "draw": "draws", "loss": "loses"}[result]
        tx.say(
            "result", seat, f"Seat {seat} {word} {goals}–{conceded} against {against} and gains {points[result]} League point(s).",
            goals=goals, conceded=conceded, result=result, points=points[result], **fields,
        )
    # "Discard the Fanbase markers from the Stands and gain 1 € for each discarded"; temporary Strength goes,
    # experience spaces fill
    if club.stands:
        res = club.res
        budget = res[0] + club.stands  # `with_res(club, "budget", club.stands)`, in the same copy
        values[_RES] = (budget if budget > 0 else 0, res[1], res[2], res[3])
        if not tx.quiet:
            tx.say("stands", seat, f"Seat {seat} discards the {club.stands} Fanbase on the Stands and gains {club.stands} €.", fanbase=0, budget=club.stands)
    playing = fielded(club.lineup)
    players = []
    experience = tx.rules.experience  # type: ignore[attr-defined]
    for h in club.players:
        if h.strength_temp:
            h = evolve(h, strength_temp=0)
        if h.id in playing and experience(tx, club.seat, h, True):
            h = _experience(tx, club.seat, h, scorers.get(h.id, 0))
        players.append(h)
    values[_PLAYERS] = tuple(players)
    club = _new_tuple(Club, values)
    for card_id, n in sorted(scorers.items()):
        # who scored this match, for the abilities and modules that ask after it (until the next Monday)
        club = set_mod(club, f"scored:{card_id}:round", n)
    tx.put(club)
    apply_mandatory(tx, seat, "after_match")
    tx.rules.after_match(tx, seat)  # type: ignore[attr-defined]
    tx.state = evolve1(tx.state, "pending", tx.state.pending + (Pending("roll", seat, "match_consequence", "d6", True),))


def _experience(tx: Tx, seat: int, held: Held, goals: int) -> Held:
    """Fill an empty experience space for playing (and one for scoring) with a VP token."""
    card: PlayerCard = tx.profile.cards[held.id]  # type: ignore[assignment]
    spaces = card.side(held.trained).experience
    experience = held.experience
    gained = 0
    filled: set[str] = set()
    for i, kind in enumerate(spaces):
        bit = 1 << i
        if experience & bit or kind in filled:
            continue
        if kind == "played" or (kind == "scored" and goals):
            experience |= bit
            filled.add(kind)
            gained += 1
    if not gained:
        return held
    held = evolve(held, experience=experience, vp=held.vp + gained)
    if not tx.quiet:
        tx.say("experience", seat, f"{card.name} gains {gained} experience VP token(s).", card=held.id, vp=gained)
    return held


def consequence_roll(tx: Tx, pending: Pending, value: int) -> None:
    """The Match consequence roll (purpose ``match_consequence``): the d6 against the board's table for the result."""
    seat = pending.seat
    assert seat is not None
    club = tx.club(seat)
    assert club.result is not None
    effects = tx.board(seat).consequence(club.result, value)
    effects = tx.rules.consequence(tx, seat, club.result, value, effects)  # type: ignore[attr-defined]
    tx.put(evolve(club, consequence_done=True))
    if not tx.quiet:
        tx.say("match_consequence", seat, f"Seat {seat} rolled {value} for the Match consequence after a {club.result}.", roll=value, result=club.result, effects=[e.to_dict() for e in effects])
    apply_effects(tx, effects, Ctx(seat=seat, label="Match consequence", table=consequence_ref(club.result, value), targets=event_targets(tx.event)))


def injury_or_suspension_roll(tx: Tx, pending: Pending, value: int) -> None:
    """The d10 of an injury or a suspension (purposes ``injury`` and ``suspension``) names the number hit."""
    assert pending.seat is not None
    injury_roll(tx, pending.seat, value, pending.count or 1, suspension=pending.purpose == "suspension")


# ---------------------------------------------------------------------------------------------------------------
# The phase.


def begin_matchday(tx: Tx) -> None:
    """Matchday: every club sets its lineup (injured and suspended cards shed a token after it, at step 4)."""
    tx.state = evolve(tx.state, turn=0)
    tx.say("day", None, "Matchday: set your lineups.", day="matchday")


def matchday_over(tx: Tx) -> bool:
    """Matchday ends once every club has rolled its Match consequence."""
    return all(c.consequence_done for c in tx.state.clubs)


def matchday_awaiting(state: State) -> list[dict[str, Any]]:
    """Each club's lineup, then its kick-off (unless a roll of the club is awaited)."""
    busy = {p.seat for p in state.pending}
    out: list[dict[str, Any]] = []
    for c in state.clubs:
        if c.seat in busy:
            continue
        if c.lineup is None:
            out.append({"seat": c.seat, "need": "lineup"})
        elif c.result is None:
            out.append({"seat": c.seat, "need": "kickoff"})
    return out
