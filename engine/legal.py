"""Events the rules accept now: candidates built from `State.awaiting`, each checked by applying it.

Used by property tests, the golden playthrough generator and the page's hints.  The list is a useful sample,
not every possible event (a lineup is proposed by `auto_lineup`, not in all its arrangements).
"""

from __future__ import annotations

from typing import Any, Sequence

from engine.cards import STATS, ZONES, PlayerCard, Profile
from engine.errors import EngineError
from engine.rules import apply
from engine.rules.common import owner_of
from engine.state import Club, State


def _free(profile: Profile, state: State, kind: str) -> list[str]:
    taken: set[str] = set()
    for c in state.clubs:
        taken.update(c.megaphones)
    return [c.id for c in profile.cards_of(kind) if c.id not in taken and owner_of(state, c.id) is None]


def _used_board_cards(state: State) -> set[str]:
    return {c.board_card for c in state.clubs if c.board_card}


def auto_lineup(profile: Profile, club: Club) -> dict[str, Any]:
    """A legal lineup event for the club: its fit cards where they may play, blank-card jerseys filling the rest."""
    pitch = profile.board.pitch
    caps = dict(pitch.section_max)
    want = dict(pitch.start_sections)
    per_zone: dict[str, int] = {z: 0 for z in ZONES}
    per_section: dict[str, int] = {s: 0 for s in caps}
    used_numbers: set[int] = set()
    blocked: set[int] = set()
    placed: list[dict[str, Any]] = []
    fit: set[int] = set()
    for h in club.players:
        side = profile.cards[h.id].side(h.trained)  # type: ignore[union-attr]
        (blocked if h.unavailable else fit).add(side.jersey)
    blocked -= fit
    for h in club.players:
        card: PlayerCard = profile.cards[h.id]  # type: ignore[assignment]
        side = card.side(h.trained)
        if h.unavailable or side.jersey in used_numbers or len(placed) >= min(pitch.on_pitch, club.res[3]):
            continue
        if side.jersey not in pitch.jerseys and sum(1 for p in placed if p["jersey"] is None) >= pitch.blank_jerseys:
            continue
        for section in side.sections:
            if per_section[section] >= min(caps[section], want.get(section, caps[section]) + 1):
                continue
            zone = next((f"{section}_{s}" for s in ("centre", "left", "right") if per_zone[f"{section}_{s}"] < pitch.capacity(f"{section}_{s}")), None)
            if zone is None:
                continue
            jersey = side.jersey if side.jersey in pitch.jerseys else None
            placed.append({"zone": zone, "jersey": jersey, "card": h.id, "style": side.style})
            per_zone[zone] += 1
            per_section[section] += 1
            if jersey is not None:
                used_numbers.add(jersey)
            break
    numbers = [n for n in pitch.jerseys if n not in used_numbers and n not in blocked]
    blanks = pitch.blank_jerseys + len(blocked) - sum(1 for p in placed if p["jersey"] is None)
    order = [s for s, _ in pitch.start_sections] + list(caps)
    while len(placed) < pitch.on_pitch:
        section = min(order, key=lambda s: (per_section[s] - want.get(s, 0), order.index(s)))
        if per_section[section] >= caps[section]:
            section = next(s for s in order if per_section[s] < caps[s])
        zone = next((f"{section}_{s}" for s in ("centre", "left", "right") if per_zone[f"{section}_{s}"] < pitch.capacity(f"{section}_{s}")), None)
        if zone is None:
            order.remove(section)
            continue
        if numbers:
            jersey: int | None = numbers.pop(0)
        elif blanks > 0:
            jersey, blanks = None, blanks - 1
        else:
            break
        style = "defence" if section == "def" or (section == "mid" and per_section[section] % 2 == 0) else "attack"
        if jersey is not None:
            style = club.marker_side(jersey) or style  # a plain marker cannot be flipped
        placed.append({"zone": zone, "jersey": jersey, "card": None, "style": style})
        per_zone[zone] += 1
        per_section[section] += 1
    return {"type": "lineup", "seat": club.seat, "players": placed, "stands": 0}


def candidates(profile: Profile, state: State) -> list[dict[str, Any]]:
    """Events worth trying now (some may still be refused)."""
    out: list[dict[str, Any]] = []
    board = profile.board
    for need in state.awaiting:
        seat, what = need["seat"], need["need"]
        if what == "keep_or_reroll":
            out.append({"type": "keep", "seat": seat})
            out.extend({"type": "reroll", "seat": seat, "value": v} for v in (1, 4, 6))
        elif what == "roll":
            top = 10 if need["die"] == "d10" else 6
            ev: dict[str, Any] = {"type": "roll", "seat": seat}
            if need.get("team"):
                ev["team"] = need["team"]
            out.extend({**ev, "value": v} for v in range(1, top + 1))
        elif what == "card" and need["kinds"] == ["board_meeting"]:
            used = _used_board_cards(state)
            out.extend({"type": "board_meeting", "seat": seat, "card": c.id} for c in profile.cards_of("board_meeting") if c.id not in used)
        elif what == "action":
            out.extend(_actions(profile, state, seat))
        elif what == "lineup":
            club = state.club(seat)
            assert club is not None
            lineup = auto_lineup(profile, club)
            out.append(lineup)
            if club.res[1] > 0:
                out.append({**lineup, "stands": 1})
        elif what == "kickoff":
            out.append({"type": "kickoff", "seat": seat})
            club = state.club(seat)
            if club is not None and club.tactic_played is None:
                out.extend({"type": "tactic_played", "seat": seat, "card": t} for t in club.tactics)
        elif what == "suspensions":
            club = state.club(seat)
            assert club is not None
            ids = [h.id for h in club.staff + club.players]
            out.append({"type": "suspensions", "seat": seat, "cards": [ids[i % len(ids)] for i in range(need["count"])]})
        elif what == "objective_result":
            out.extend({"type": "objective_result", "seat": seat, "result": r} for r in ("missed", "fulfilled", "perfect"))
        elif what == "first_player":
            out.extend({"type": "first_player", "seat": c.seat} for c in state.clubs)
    _ = board
    return out


def _actions(profile: Profile, state: State, seat: int) -> list[dict[str, Any]]:
    club = state.club(seat)
    assert club is not None
    out: list[dict[str, Any]] = [{"type": "pass", "seat": seat}]
    # a card's chosen footballer: the first untrained one (a coach trains him, a trainer strengthens him)
    pick = next((h.id for h in club.players if not h.trained and not h.unavailable), club.players[0].id if club.players else None)
    for card_id in list(club.directors) + [h.id for h in club.staff] + list(club.infrastructure):
        out.append({"type": "use_card", "seat": seat, "card": card_id, **({"targets": [pick]} if pick else {})})
    if not club.acted:
        out.extend({"type": "hire_player", "seat": seat, "card": c} for c in _free(profile, state, "player")[:3])
        out.extend({"type": "hire_youngster", "seat": seat, "card": c} for c in _free(profile, state, "youngster")[:1])
        out.extend({"type": "hire_staff", "seat": seat, "card": c} for c in _free(profile, state, "staff")[:3])
        out.extend({"type": "sell", "seat": seat, "card": h.id} for h in club.players if h.trained)
        for c in _free(profile, state, "sponsor")[:2]:
            out.extend({"type": "sponsor", "seat": seat, "card": c, "contract": k} for k in ("megaphone", "adboard", "shirt"))
        out.extend({"type": "build", "seat": seat, "kind": k.id} for k in profile.board.infrastructure)
        out.append({"type": "office", "seat": seat})
        out.extend({"type": "potential", "seat": seat, "stat": s} for s in STATS)
    return out


def legal_events(profile: Profile, state: State) -> list[dict[str, Any]]:
    """The candidate events that the rules accept now."""
    ok = []
    for ev in candidates(profile, state):
        try:
            apply(profile, state, ev)
        except EngineError:
            continue
        ok.append(ev)
    return ok


def setup_events(profile: Profile, seats: Sequence[int], picks: Sequence[int] = ()) -> list[dict[str, Any]]:
    """A complete setup for the given seats; ``picks`` (indexes, e.g. from a test's shuffled deck) vary the cards."""
    pick = list(picks)

    def choose(pool: list[Any]) -> Any:
        i = pick.pop(0) % len(pool) if pick else 0
        return pool.pop(i)

    directors = list(profile.cards_of("director"))
    veterans = list(profile.cards_of("veteran"))
    youngsters = list(profile.cards_of("youngster"))
    objectives = list(profile.cards_of("objective"))
    tactics = list(profile.cards_of("tactic"))
    opponents = list(profile.cards_of("opponent"))
    weeks = profile.board.setup.opponents_per_club
    events: list[dict[str, Any]] = []
    for seat in seats:
        events.append({"type": "club", "seat": seat, "name": f"Club {seat}"})
    for seat in seats:
        events.append({"type": "directors", "seat": seat, "cards": [choose(directors).id for _ in range(profile.board.setup.directors_kept)]})
        vet = choose(veterans)
        young = choose(youngsters)
        while young.untrained.jersey == vet.untrained.jersey:
            youngsters.append(young)
            young = youngsters.pop(0)
        events.append({"type": "starting_players", "seat": seat, "veteran": vet.id, "youngster": young.id})
        dealt: list[str] = []
        teams: set[str] = set()
        for card in list(opponents):
            if len(dealt) == weeks:
                break
            if card.team not in teams:
                teams.add(card.team)
                dealt.append(card.id)
                opponents.remove(card)
        # the order the cards come in (from the picks, else by seat) decides who meets whom each week
        k = (pick.pop(0) if pick else seats.index(seat)) % max(len(dealt), 1)
        events.append({"type": "opponents", "seat": seat, "cards": dealt[k:] + dealt[:k]})
        events.append({"type": "objective", "seat": seat, "card": choose(objectives).id})
        events.append({"type": "tactic", "seat": seat, "card": choose(tactics).id})
    events.append({"type": "first_player", "seat": seats[0]})
    return events
