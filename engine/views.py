"""Read-only views of a state: what is awaited, the League table, the final score breakdown, and `view` for pages."""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

from engine.cards import STATS, Profile
from engine.state import STAGE_NAMES, Club, State


def awaiting(state: State) -> tuple[dict[str, Any], ...]:
    """What the engine waits for now, most urgent first (see `State.awaiting`)."""
    out: list[dict[str, Any]] = [p.as_awaiting() for p in state.pending]
    busy = {p.seat for p in state.pending}
    stage = state.stage
    if stage == "setup":
        if not state.clubs:
            return ({"seat": None, "need": "club"},)
        from engine.rules.setup import missing

        gaps = missing(state, None)
        for seat, words, kinds in gaps:
            out.append({"seat": seat, "need": "card", "kinds": kinds, "what": words})
        if not gaps:
            out.append({"seat": None, "need": "first_player"})
    elif stage == "monday":
        for c in state.clubs:
            if c.board_card is None:
                out.append({"seat": c.seat, "need": "card", "kinds": ["board_meeting"]})
    elif stage in ("tuesday", "wednesday", "thursday"):
        if state.turn not in busy:
            club = state.club(state.turn)
            out.append({"seat": state.turn, "need": "action", "day": stage, "free_only": bool(club and club.acted)})
    elif stage == "matchday":
        for c in state.clubs:
            if c.seat in busy:
                continue
            if c.lineup is None:
                out.append({"seat": c.seat, "need": "lineup"})
            elif c.result is None:
                out.append({"seat": c.seat, "need": "kickoff"})
    elif stage == "final_scoring" and not any(p.need == "abilities" for p in state.pending):
        for c in state.clubs:
            if c.objective_result is None:
                out.append({"seat": c.seat, "need": "objective_result", "card": c.objective})
    return tuple(out)


def league_positions(state: State) -> dict[str, int]:
    """Position of every club ("seat:N") and Opponent team ("team:ID"); equal points share a position."""
    entries = [(f"seat:{c.seat}", c.points) for c in state.clubs] + [(f"team:{t.id}", t.points) for t in state.teams]
    return {key: 1 + sum(1 for _, p in entries if p > pts) for key, pts in entries}


def final_scores(profile: Profile, state: State) -> list[dict[str, Any]]:
    """Each club's score breakdown (League, VP tokens, Staff sets, Infrastructure, Objective, Office, Budget), ranked."""
    board = profile.board
    positions = league_positions(state)
    rows = []
    for club in state.clubs:
        position = positions[f"seat:{club.seat}"]
        sets = Counter(profile.cards[h.id].set for h in club.staff)  # type: ignore[union-attr]
        objective = {"perfect": board.objective_vp + board.objective_perfect_vp, "fulfilled": board.objective_vp}.get(club.objective_result or "", 0)
        parts = {
            "league": board.position_vp(position),
            "vp_tokens": club.vp_tokens + sum(1 for h in club.players if h.vp > 0),
            "staff_sets": sum(board.set_vp(colour, n) for colour, n in sets.items()),
            "infrastructure": sum(board.infrastructure_kind(k).vp for k in club.infrastructure),
            "objective": objective,
            "office": board.office_vp(club.office),
            "budget": club.res[0] // board.budget_per_vp,
        }
        rows.append({"seat": club.seat, "name": club.name, "position": position, **parts, "total": sum(parts.values())})
    # ties go to the higher League position, then are shared
    for row in rows:
        row["rank"] = 1 + sum(
            1 for o in rows if (o["total"], -o["position"]) > (row["total"], -row["position"])
        )
        row["winner"] = row["rank"] == 1
    return sorted(rows, key=lambda r: (r["rank"], r["seat"]))


#: `view`'s viewer showing everything, secrets included (the default: the owner's page, tests, exports).
EVERYTHING: Final = "all"
#: `view`'s viewer for a screen every player sees: no club's secrets.
TABLE: Final = "table"
#: What a club keeps secret until the Final scoring: its Objective (kept face down) and the Opponent card it has
#: not yet revealed (the stack is face down until Matchday).
SECRETS: Final = ("objective", "opponent")
UNKNOWN_VIEWER: Final = 'A view is for "all", "table" or a seat number, not {viewer!r}.'


def may_use(profile: Profile, state: State, seat: int) -> list[dict[str, Any]]:
    """The optional abilities a club may use now with ``use_card`` (outside its Tuesday–Thursday actions)."""
    from engine.rules.actions import offered
    from engine.rules.common import Tx

    club = state.club(seat)
    if club is None:
        return []
    tx = Tx(profile, state, {})
    return [
        {"card": card_id, "name": tx.name(card_id) if card_id in profile.cards else profile.board.infrastructure_kind(card_id).name,
         "timing": ability.timing, "cost": dict(ability.cost), "text": ability.text}
        for card_id, ability in offered(tx, club)
    ]


def _with_offers(profile: Profile, state: State) -> list[dict[str, Any]]:
    """`awaiting`, each need of a seat carrying the abilities the club may use now (``may_use``) when it has any."""
    out = []
    offers: dict[int, list[dict[str, Any]]] = {}
    for need in awaiting(state):
        seat = need.get("seat")
        if isinstance(seat, int):
            if seat not in offers:
                offers[seat] = may_use(profile, state, seat)
            if offers[seat]:
                need = {**need, "may_use": offers[seat]}
        out.append(need)
    return out


def _hidden(state: State, club: Club, viewer: int | str) -> tuple[str, ...]:
    """The secret fields of a club the viewer may not see."""
    if viewer == EVERYTHING:
        return ()
    hidden = []
    if state.stage not in ("final_scoring", "over") and viewer != club.seat:
        hidden.append("objective")
    if state.stage in ("setup", "monday", "tuesday", "wednesday", "thursday"):
        hidden.append("opponent")  # not even its own club has seen it yet
    return tuple(hidden)


def _infrastructure_view(profile: Profile, club: Club) -> list[dict[str, Any]]:
    """Each Infrastructure token; Suspension tokens on a kind lie on its first token."""
    out = []
    seen: set[str] = set()
    for k in club.infrastructure:
        tokens = 0 if k in seen else club.suspension_on(k)
        seen.add(k)
        out.append({"kind": k, "name": profile.board.infrastructure_kind(k).name, "exhausted": k in club.exhausted, "suspension": tokens})
    return out


def _club_view(profile: Profile, state: State, club: Club, viewer: int | str = EVERYTHING) -> dict[str, Any]:
    from engine.rules.match import unseen_marker_sides

    cards = profile.cards
    board = profile.board
    players = []
    for h in club.players:
        card = cards[h.id]
        side = card.side(h.trained)  # type: ignore[union-attr]
        players.append({
            "id": h.id, "name": card.name, "kind": card.kind, "trained": h.trained, "jersey": side.jersey,
            "style": side.style, "sections": list(side.sections), "strength": max(0, side.strength + h.strength_perm + h.strength_temp),
            "strength_tokens": {"temporary": h.strength_temp, "permanent": h.strength_perm}, "injury": h.injury,
            "suspension": h.suspension, "vp": h.vp, "exhausted": h.exhausted, "assigned": dict(zip(STATS, h.assigned)),
        })
    staff = [
        {"id": h.id, "name": cards[h.id].name, "profession": cards[h.id].profession, "set": cards[h.id].set,  # type: ignore[union-attr]
         "suspension": h.suspension, "exhausted": h.exhausted}
        for h in club.staff
    ]
    due = {
        "players": board.maintenance_due("players", len(club.players)),
        "staff": board.maintenance_due("staff", len(club.staff)),
        "infrastructure": board.maintenance_due("infrastructure", len(club.infrastructure)),
    }
    opponent = None
    if state.week and club.opponents and state.week <= len(club.opponents):
        opp = cards[club.opponents[state.week - 1]]
        opponent = {"id": opp.id, "name": opp.name, "team": opp.team}  # type: ignore[union-attr]
    out: dict[str, Any] = {
        "seat": club.seat, "name": club.name,
        "stats": dict(zip(STATS, club.stats)), "resources": dict(zip(STATS, club.res)), "vp_tokens": club.vp_tokens,
        "directors": [{"id": d, "name": cards[d].name, "exhausted": d in club.exhausted, "suspension": club.suspension_on(d)} for d in club.directors],
        "players": players, "staff": staff,
        "infrastructure": _infrastructure_view(profile, club),
        "sponsors": {"shirt": club.shirt, "adboards": list(club.adboards), "megaphones": list(club.megaphones)},
        "office": club.office, "maintenance": {**due, "total": sum(due.values())},
        "objective": club.objective, "objective_result": club.objective_result, "tactics": list(club.tactics),
        "opponents_left": max(0, len(club.opponents) - max(state.week - 1, 0)), "opponent": opponent,
        "league_points": club.points,
        "match": {"goals": club.goals, "conceded": club.conceded, "result": club.result, "stands": club.stands,
                  "tactic": club.tactic_played, "lineup": None if club.lineup is None else [
                      {"zone": p.zone, "jersey": p.jersey, "card": p.card, "style": p.style} for p in club.lineup]},
        "acted": club.acted, "board_card": club.board_card,
        "markers": {str(n): side for n, side in club.markers},
        "markers_unseen": {str(n): side for n, side in unseen_marker_sides(profile, club).items()},
    }
    hidden = _hidden(state, club, viewer)
    for name in hidden:
        out[name] = None
    # which fields are secret, and which of them this viewer does not see (shown as None)
    out["secret"] = list(SECRETS)
    out["hidden"] = list(hidden)
    return out


def view(profile: Profile, state: State, viewer: int | str = EVERYTHING) -> dict[str, Any]:
    """Everything tracked, JSON-safe: stage, week, turn, League table, clubs, and the final scores (so far / at the end).

    ``viewer`` says who looks: `EVERYTHING` ("all", the default) shows every secret; `TABLE` ("table") is a screen
    all players see, so every club's Objective and unrevealed Opponent card are None; a seat number shows that
    club's own Objective as well.  Each club lists its ``secret`` fields and those ``hidden`` from this viewer.
    """
    if viewer not in (EVERYTHING, TABLE) and (not isinstance(viewer, int) or isinstance(viewer, bool)):
        raise ValueError(UNKNOWN_VIEWER.format(viewer=viewer))
    positions = league_positions(state)
    table = [
        {"kind": "club", "seat": c.seat, "name": c.name, "points": c.points, "position": positions[f"seat:{c.seat}"],
         "vp": profile.board.position_vp(positions[f"seat:{c.seat}"]), "inactive": False}
        for c in state.clubs
    ] + [
        {"kind": "opponent", "team": t.id, "name": profile.board.team(t.id).name, "points": t.points,
         "position": positions[f"team:{t.id}"], "vp": profile.board.position_vp(positions[f"team:{t.id}"]), "inactive": t.inactive}
        for t in state.teams
    ]
    table.sort(key=lambda r: (r["position"], r["name"]))
    scores = final_scores(profile, state) if state.clubs else []
    return {
        "stage": state.stage, "stage_name": STAGE_NAMES.get(state.stage, state.stage), "week": state.week, "weeks": state.weeks,
        "first_seat": state.first_seat or None, "turn": state.turn or None, "awaiting": _with_offers(profile, state),
        "league": table, "clubs": [_club_view(profile, state, c, viewer) for c in state.clubs],
        "scores": scores, "final": scores if state.stage == "over" else None, "events": state.events,
        "discarded": list(state.discarded),
    }
