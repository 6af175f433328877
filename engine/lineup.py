"""A lineup as a person builds it (rulebook, Matchday: Prepare for the match, 000 l.612–633): the limits the rules
work out for a club, why the jersey markers placed so far would be refused, and the rest of them placed for it.

Every answer is the rules' own (`engine.rules.matchday`), tried on the state: the markers placed so far are checked
as the lineup event checks them (all but their count), a whole lineup by applying the event itself.  Nothing here
decides a rule again; the page and the device only show what these functions say.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine import errors as E
from engine import host
from engine.cards import SECTIONS, STYLES, ZONES, Profile
from engine.reducer import why_not
from engine.rules.context import side_of
from engine.rules.matchday import check_lineup, lineup_due, stands_of
from engine.rules.suspension_and_injury import blank_markers
from engine.state import Club, Placed, State, evolve
from engine.tx import Tx
from engine.words import club_words

__all__ = ["CANNOT_FILL", "auto_lineup", "fill_lineup", "limits", "lineup_why_not"]

CANNOT_FILL: Final = ("The jersey markers left cannot fill the pitch around those placed: take one back (a blank "
                      "marker or a crowded section) and fill again.")
OUT_INJURED: Final = "injured ({weeks} week(s) on the Injury token)"
OUT_SUSPENDED: Final = "suspended ({tokens} Suspension token(s))"


def _tx(profile: Profile, state: State, event: Mapping[str, Any]) -> Tx:
    return Tx(profile, host.rules_for(state.game), state, event, quiet=True)


def _arranging(state: State, seat: int) -> dict[str, Any] | None:
    """The seat's need to arrange its jersey markers in secret for a half of a match between clubs, if any."""
    return next((n for n in state.awaiting if n.get("seat") == seat and n.get("need") == "arrange"), None)


def limits(tx: Tx, club: Club) -> dict[str, Any]:
    """What the rules allow the club's lineup now, worked out once for the page: the pitch (markers on it, per zone
    and per section, the formation the club declared for a half of a match between clubs keeping each section to
    its count; the starting formation), its numbered and blank jersey markers, the sides the setup's markers
    show (000 l.249: exactly 5 attack and 5 defence at the beginning) and how many never seen may still show each,
    the Fanbase its Stands take (the seat's own board, as its modules make it, plus its Infrastructure), the
    footballers that may play (``fielded``) and why the others may not (``out``), and the Fitness that pays 1 a card."""
    pitch = tx.board(club.seat).pitch
    sections = dict(pitch.section_max)
    formation = _formation(tx.state, club.seat)
    if formation is not None:  # a formation declared for a half of a match between clubs: its counts are the most
        sections = {s: min(cap, formation.get(s, 0)) for s, cap in sections.items()}
    start = dict(pitch.start_styles)
    seen = Counter(side for _, side in club.markers_setup)
    out: dict[str, str] = {}
    for h in club.players:
        if h.injury:
            out[h.id] = OUT_INJURED.format(weeks=h.injury)
        elif h.suspension:
            out[h.id] = OUT_SUSPENDED.format(tokens=h.suspension)
    return {
        "on_pitch": pitch.on_pitch, "zones": {z: pitch.capacity(z) for z in ZONES}, "sections": sections,
        "start": dict(pitch.start_sections), "jerseys": list(pitch.jerseys), "blanks": blank_markers(tx, club),
        "sides": {s: start.get(s, 0) for s in STYLES},
        "sides_left": {s: max(0, start.get(s, 0) - seen[s]) for s in STYLES},
        "stands": stands_of(tx, club), "fitness": club.res[3],
        "fielded": [h.id for h in club.players if h.id not in out], "out": out,
    }


def lineup_why_not(profile: Profile, state: State, seat: int, players: Sequence[Mapping[str, Any]],
                   stands: int = 0, assign: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """Why the jersey markers placed so far (in the order they were placed) would be refused, or None when the
    rules take them: ``{"why": sentence, "index": the marker at fault or None}``.  A lineup of every marker is the
    lineup event itself tried (or the secret arrangement, in a match between clubs); fewer are checked as it checks
    them, one more at a time, so the first marker that breaks a rule is the one named.  Clubs are named, not seats.
    """
    entries = [dict(p) for p in players]
    arranging = _arranging(state, seat)
    kind = "lineup" if arranging is None else "arrange"
    event: dict[str, Any] = {"type": kind, "seat": seat, "players": entries, "stands": stands, "assign": dict(assign or {})}
    if arranging is not None and arranging.get("half") == 2:
        del event["stands"], event["assign"]  # the second half: the first half's markers in other zones, nothing paid
    tx = _tx(profile, state, event)
    at: int | None = None  # the marker being tried when the rules refuse
    try:
        club = tx.club(seat) if arranging is not None else lineup_due(tx, seat)
        for at in range(len(entries)):
            _check_placed(_tx(profile, state, {**event, "players": entries[:at + 1], "stands": 0, "assign": {}}), club)
        at = None
        _check_placed(tx, club)
    except E.EngineError as refusal:
        return {"why": club_words(state, str(refusal.args[0] if refusal.args else refusal)), "index": at}
    if len(entries) == tx.board(seat).pitch.on_pitch:
        why = why_not(profile, state, event)
        if why is not None:
            return {"why": club_words(state, why), "index": None}
    return None


def _check_placed(tx: Tx, club: Club) -> None:
    """The event's jersey markers placed so far checked as the rules will take them: as a lineup's (every check
    but their count), or as the game's modules take them their own way (a second half's arrangement)."""
    if tx.rules.markers_placed(tx, club) is None:  # type: ignore[attr-defined]
        check_lineup(tx, club, partial=True)


def fill_lineup(profile: Profile, state: State, seat: int, players: Sequence[Mapping[str, Any]] = (),
                stands: int = 0) -> dict[str, Any]:
    """The lineup event with the jersey markers placed so far kept where they are and the rest placed by the rules'
    choice: the club's strongest fit footballers (one per number, as many as its Fitness pays for) in their own
    sections, defenders at the back and attackers up front, then its plain markers, those showing defence behind
    and attack in front, never turning a marker first seen to a side the setup's 5 attack and 5 defence no longer
    allows.  Raises `engine.errors.EngineError` with the sentence when the markers placed are refused or the rest
    cannot be placed around them."""
    refusal = lineup_why_not(profile, state, seat, players)
    if refusal is not None:
        raise E.NotAllowed(refusal["why"])
    tx = _tx(profile, state, {"type": "lineup", "seat": seat, "players": [dict(p) for p in players]})
    club = tx.club(seat)
    formation = _formation(state, seat)
    second_half = (_arranging(state, seat) or {}).get("half") == 2
    if second_half:
        fixed: tuple[Placed, ...] = tuple(_worn(club, p) for p in players)
    else:
        fixed = check_lineup(tx, club, partial=True).lineup if players else ()
    barred: set[str] = set()  # cards the rules refused where the choice put them (a second Goalkeeper)
    while True:
        event = {**(_rearrange(tx, club, fixed, formation) if second_half
                    else _complete(tx, club, fixed, formation, frozenset(barred))), "stands": stands}
        if len(event["players"]) != tx.board(seat).pitch.on_pitch:
            raise E.NotAllowed(CANNOT_FILL)
        refusal = lineup_why_not(profile, state, seat, event["players"], stands)
        if refusal is None:
            return event
        at = refusal["index"]
        card = event["players"][at]["card"] if at is not None and at >= len(fixed) else None
        if second_half or card is None or card in barred:
            raise E.NotAllowed(refusal["why"])
        barred.add(card)  # the choice leaves it out and places the rest again


def auto_lineup(profile: Profile, club: Club, state: State | None = None) -> dict[str, Any]:
    """A legal lineup event for the club with no marker placed yet (`fill_lineup`'s choice); without a state, the
    club alone in a base game."""
    base = state if state is not None else State()
    clubs = tuple(club if c.seat == club.seat else c for c in base.clubs)
    probe = evolve(base, clubs=clubs if club.seat in {c.seat for c in base.clubs} else clubs + (club,))
    return _complete(_tx(profile, probe, {}), club, ())


def _formation(state: State, seat: int) -> dict[str, int] | None:
    """The formation the seat has declared and must arrange its markers in (a match between clubs: the need to
    arrange carries it as "Defenders-Midfielders-Forwards"), or None."""
    shape = (_arranging(state, seat) or {}).get("shape")
    parts = shape.split("-") if isinstance(shape, str) else []
    if len(parts) != len(SECTIONS) or not all(p.isdigit() for p in parts):
        return None
    return dict(zip(SECTIONS, map(int, parts)))


def _worn(club: Club, entry: Mapping[str, Any]) -> Placed:
    """A marker of a second half placed so far, as the first half fielded it (a card on the marker it wore)."""
    card, jersey, style = entry.get("card"), entry.get("jersey"), entry.get("style")
    was = next((p for p in club.lineup or () if p.card == card and (card is not None or p.jersey == jersey)), None)
    if was is not None:
        jersey = was.jersey if jersey is None else jersey
        style = was.style if style is None else style
    return Placed(str(entry.get("zone")), jersey, card, str(style))


def _rearrange(tx: Tx, club: Club, fixed: Sequence[Placed], formation: Mapping[str, int] | None) -> dict[str, Any]:
    """A second half of a match between clubs: ``fixed`` and the first half's markers not placed yet (l.156), each
    in a section its card plays in with room left (``formation`` when the club declared one), in the zone it stood
    in when it has room; the markers that play in the fewest sections first, so each finds a place."""
    pitch = tx.board(club.seat).pitch
    caps = dict(pitch.section_max)
    room = {s: min(caps[s], *([formation.get(s, 0)] if formation else [])) - sum(1 for p in fixed if p.zone.startswith(s + "_"))
            for s in caps}
    per_zone = Counter(p.zone for p in fixed)
    left = list((Counter((p.jersey, p.card, p.style) for p in club.lineup or ())
                 - Counter((p.jersey, p.card, p.style) for p in fixed)).elements())
    stood = {(p.jersey, p.card, p.style): p.zone for p in club.lineup or ()}
    plays = {card: side_of(tx, held, club).sections for card in {c for _, c, _ in left if c}
             if (held := club.held(card)) is not None}
    order = {"attack": ("fwd", "mid", "def"), "defence": ("def", "mid", "fwd")}
    placed = [p._asdict() for p in fixed]

    def put(marker: tuple[int | None, str | None, str], sections: Sequence[str]) -> bool:
        jersey, card, style = marker
        was = stood[marker]
        for section in sections:
            zones = [was] * was.startswith(section + "_") + [f"{section}_{side}" for side in ("centre", "left", "right")]
            zone = next((z for z in zones if per_zone[z] < pitch.capacity(z)), None)
            if room.get(section, 0) > 0 and zone is not None and (card is None or section in plays.get(card, SECTIONS)):
                room[section] -= 1
                per_zone[zone] += 1
                placed.append({"zone": zone, "jersey": jersey, "card": card, "style": style})
                return True
        return False

    # where each stood, if its section has room (the markers that play in the fewest sections first), then the rest
    left.sort(key=lambda m: len(plays.get(m[1], SECTIONS)) if m[1] else len(SECTIONS))
    moved = [m for m in left if not put(m, (stood[m].split("_")[0],))]
    for marker in moved:
        put(marker, order.get(marker[2], SECTIONS))
    return {"type": "lineup", "seat": club.seat, "players": placed, "stands": 0}


def _complete(tx: Tx, club: Club, fixed: Sequence[Placed], formation: Mapping[str, int] | None = None,
              barred: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The lineup event of ``fixed`` and as many more jersey markers as the rules' limits let the choice place (in
    ``formation``, markers per section, when one was declared), the ``barred`` cards left out."""
    pitch = tx.board(club.seat).pitch
    caps = dict(pitch.section_max)
    zones = {s: [f"{s}_{side}" for side in ("centre", "left", "right")] for s in caps}
    room = {s: min(caps[s], sum(pitch.capacity(z) for z in zones[s]), *([formation.get(s, 0)] if formation else []))
            for s in caps}
    per_zone = Counter(p.zone for p in fixed)
    placed: list[dict[str, Any]] = [p._asdict() for p in fixed]

    def free(section: str) -> int:
        return room[section] - sum(1 for p in placed if p["zone"].startswith(section + "_"))

    def put(section: str, jersey: int | None, card: str | None, style: str) -> None:
        zone = next(z for z in zones[section] if per_zone[z] < pitch.capacity(z))
        per_zone[zone] += 1
        placed.append({"zone": zone, "jersey": jersey, "card": card, "style": style})

    # the face each footballer shows in this game (a module may change it: an Epic League Winter Break token)
    sides = {h.id: side_of(tx, h, club) for h in club.players}
    fit = {sides[h.id].jersey for h in club.players if not h.unavailable}
    blocked = {sides[h.id].jersey for h in club.players if h.unavailable} - fit
    blanks = blank_markers(tx, club) - sum(1 for p in fixed if p.jersey is None)
    numbers = {p.jersey for p in fixed if p.jersey is not None} | {sides[p.card].jersey for p in fixed if p.card}
    # the strongest fit card of each number not placed yet, strongest first; Fitness pays 1 a card
    best: dict[int, tuple[int, str, Any]] = {}
    for h in club.players:
        side = sides[h.id]
        strength = side.strength + h.strength_perm + h.strength_temp
        if h.unavailable or side.jersey in numbers or h.id in barred:
            continue
        if side.jersey not in best or strength > best[side.jersey][0]:
            best[side.jersey] = (strength, h.id, side)
    pool = sorted(best.values(), key=lambda x: (-x[0], x[1]))
    order = {"attack": ("fwd", "mid", "def"), "defence": ("def", "mid", "fwd")}
    payable = max(0, min(pitch.on_pitch - len(placed), club.res[3] - sum(1 for p in fixed if p.card)))
    chosen, pool = pool[:payable], pool[payable:]
    while chosen:
        left_out = 0
        # the least flexible cards first, so a card that plays in one section keeps its place
        for _, card_id, side in sorted(chosen, key=lambda x: (len(x[2].sections), -x[0], x[1])):
            jersey = side.jersey if side.jersey in pitch.jerseys else None
            section = next((s for s in order[side.style] if s in side.sections and free(s) > 0), None)
            if section is None or (jersey is None and blanks <= 0):
                left_out += 1
                continue
            if jersey is None:
                blanks -= 1
            put(section, jersey, card_id, side.style)
        chosen, pool = pool[:left_out], pool[left_out:]  # a card that found no place leaves its Fitness to the next
    # the plain markers: numbered ones not used by a card (and not of a number that cannot play), then blanks
    used = {p["jersey"] for p in placed if p["jersey"] is not None}
    known = {n for n, _ in club.markers_setup}
    first_seen = [p for p in fixed if p.card is None and p.jersey is not None and p.jersey not in known
                  and club.marker_side(p.jersey) is None]
    setup = dict(pitch.start_styles)
    budget = {style: setup.get(style, 0) - sum(1 for _, s in club.markers_setup if s == style)
              - sum(1 for p in first_seen if p.style == style) for style in STYLES}
    numbered = [n for n in pitch.jerseys if n not in used and n not in blocked]
    # how many markers each section still takes: the setup's formation, grown where markers stand, within the caps
    target = {s: max((formation or dict(pitch.start_sections)).get(s, 0), room[s] - free(s)) for s in caps}
    while sum(target.values()) > pitch.on_pitch:
        s = max(caps, key=lambda s: (target[s] - (room[s] - free(s)), s == "mid"))
        target[s] -= 1
    for s in ("mid", "def", "fwd"):
        while sum(target.values()) < pitch.on_pitch and target[s] < room[s]:
            target[s] += 1
    wanted = {"def": "defence", "fwd": "attack", "mid": None}
    for section in ("def", "fwd", "mid"):
        style_wanted = wanted[section]
        for _ in range(target[section] - (room[section] - free(section))):
            pick = _plain_pick(club, numbered, known, budget, style_wanted)
            if pick is None:
                if blanks <= 0:
                    break
                blanks -= 1
                put(section, None, None, style_wanted or ("attack" if budget["attack"] >= budget["defence"] else "defence"))
                continue
            number, style = pick
            numbered.remove(number)
            put(section, number, None, style)
    return {"type": "lineup", "seat": club.seat, "players": placed, "stands": 0}


def _plain_pick(club: Club, numbered: list[int], known: set[int], budget: dict[str, int], style: str | None) -> tuple[int, str] | None:
    """The numbered plain marker that best shows `style` (any side for None): one showing it, else one never seen
    (turned to it while the setup's count allows), else any; the setup budget is spent for a marker never seen."""
    unseen = [n for n in numbered if club.marker_side(n) is None and n not in known]
    if style is not None:
        same = [n for n in numbered if club.marker_side(n) == style]
        if same:
            return same[0], style
        if unseen and budget[style] > 0:
            budget[style] -= 1
            return unseen[0], style
    if unseen:
        side = style if style is not None and budget[style] > 0 else max(budget, key=lambda k: budget[k])
        budget[side] -= 1
        return unseen[0], side
    rest = [n for n in numbered if club.marker_side(n) is not None]
    if rest:
        return rest[0], str(club.marker_side(rest[0]))
    return None
