"""Read-only views of a state for a viewer: everything tracked, JSON-safe, with each club's secrets hidden from
those who may not see them, and the limits the rules work out for the page (what may be used, fielded, placed:
each club's ``limits`` for its lineup, `engine.lineup.limits`)."""

from __future__ import annotations

from typing import Any, Final

from engine import host
from engine.cards import STATS, Board, Profile
from engine.lineup import limits as lineup_limits
from engine.rules.abilities import offered
from engine.rules.actions import build_refusal
from engine.rules.effects import describe_effect
from engine.rules.final_scoring import final_scores
from engine.rules.league import league_positions, week_opponent
from engine.rules.matchday import unseen_marker_sides
from engine.state import Club, Game, State
from engine.tx import Tx

__all__ = ["EVERYTHING", "SECRETS", "TABLE", "final_scores", "league_positions", "may_use", "secret_cards", "view"]


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
    club = state.club(seat)
    if club is None:
        return []
    tx = Tx(profile, host.rules_for(state.game), state, {}, quiet=True)
    return [
        {"card": card_id, "name": tx.kind_name(card_id, seat),
         "timing": ability.timing, "cost": dict(ability.cost), "text": ability.text}
        for card_id, ability in offered(tx, club)
    ]


def _with_offers(profile: Profile, state: State) -> list[dict[str, Any]]:
    """`awaiting`, each need of a seat carrying the abilities the club may use now (``may_use``) when it has any."""
    out = []
    offers: dict[int, list[dict[str, Any]]] = {}
    for need in state.awaiting:
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


def secret_cards(state: State, viewer: int | str) -> frozenset[str]:
    """The cards in the clubs' hands that ``viewer`` may not see now: each other club's Objective until the Final
    scoring, and the modules' secret cards.  Whatever is shown to the viewer (a seat's screen on the page) names
    none of them.  (A club's face-down Opponent stack is no card in its hand: nothing shows it before its Matchday.)"""
    hidden = {c.objective for c in state.clubs if c.objective and "objective" in _hidden(state, c, viewer)}
    hidden.update(host.rules_for(state.game).secret_cards(state, viewer))  # type: ignore[attr-defined]
    return frozenset(hidden)


def _infrastructure_view(board: Board, club: Club) -> list[dict[str, Any]]:
    """Each Infrastructure token; Suspension tokens on a kind lie on its first token."""
    out = []
    seen: set[str] = set()
    for k in club.infrastructure:
        tokens = 0 if k in seen else club.suspension_on(k)
        seen.add(k)
        out.append({"kind": k, "name": board.infrastructure_kind(k).name, "exhausted": k in club.exhausted, "suspension": tokens})
    return out


_tables: dict[int, tuple[Board, dict[str, Any]]] = {}


def board_tables(board: Board) -> dict[str, Any]:
    """A seat's board tables in plain values (the page shows a seat's own when its modules change them): the Fanbase
    each printed Stands takes, the Stadium board's spaces, the Maintenance tracks, the Office track, the Match
    consequence table in words and what a step of a Stat marker past the top or below 1 does."""
    found = _tables.get(id(board))
    if found is not None and found[0] is board:
        return found[1]
    tables = {
        "stands": list(board.stands_capacity or (1,) * board.board_stands),
        "spaces": dict(board.infrastructure_spaces),
        "maintenance": {track: list(steps) for track, steps in board.maintenance},
        "office": [{"cost": s.cost, "vp": s.vp} for s in board.office],
        "match_consequences": {result: ["; ".join(describe_effect(e) for e in face) for face in faces]
                               for result, faces in board.match_consequences},
        "past_top": {"own": board.stat_past_top.own, "budget": board.stat_past_top.budget, "vp": board.stat_past_top.vp},
        "below_bottom": {"own": board.stat_below_bottom.own, "instead": board.stat_below_bottom.instead,
                         "budget": board.stat_below_bottom.budget},
    }
    if len(_tables) > 64:
        _tables.clear()
    _tables[id(board)] = (board, tables)
    return tables


def _stadium(board: Board, club: Club) -> dict[str, Any]:
    """What the club may build on its Stadium board: every kind with its cost, VP and space, and why it could not be
    built now (copies, a full space, its cost; the turn aside), and each kind of space used and free."""
    used = {space: 0 for space, _ in board.infrastructure_spaces}
    for k in club.infrastructure:
        space = board.infrastructure_kind(k).space
        used[space] = used.get(space, 0) + 1
    return {
        "spaces": {space: {"spaces": board.spaces(space), "built": n} for space, n in used.items()},
        "build": [{"kind": k.id, "name": k.name, "cost": k.cost, "vp": k.vp, "space": k.space, "copies": k.copies,
                   "built": club.infrastructure.count(k.id), "why_not": build_refusal(board, club, k),
                   "text": " ".join(a.text for a in k.abilities if a.text)}
                  for k in board.infrastructure],
    }


def _club_view(profile: Profile, state: State, club: Club, viewer: int | str = EVERYTHING) -> dict[str, Any]:
    cards = profile.cards
    board = host.rules_for(state.game).board(profile, state, club.seat, profile.board)  # type: ignore[attr-defined]
    players = []
    # the face each footballer shows in this game: a module may change it (an Epic League Winter Break token)
    face = Tx(profile, host.rules_for(state.game), state, {}, quiet=True)
    for h in club.players:
        card = cards[h.id]
        side = face.rules.footballer(face, club, h, card.side(h.trained))  # type: ignore[union-attr,attr-defined]
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
    week_card = week_opponent(state, club) if state.week else None
    if week_card is not None:
        opp = cards[week_card]
        opponent = {"id": opp.id, "name": opp.name, "team": opp.team}  # type: ignore[union-attr]
    out: dict[str, Any] = {
        "seat": club.seat, "name": club.name,
        "stats": dict(zip(STATS, club.stats)), "resources": dict(zip(STATS, club.res)), "vp_tokens": club.vp_tokens,
        "directors": [{"id": d, "name": cards[d].name, "exhausted": d in club.exhausted, "suspension": club.suspension_on(d)} for d in club.directors],
        "players": players, "staff": staff,
        "infrastructure": _infrastructure_view(board, club),
        "stadium": _stadium(board, club),
        "board": board_tables(board),
        "sponsors": {"shirt": club.shirt, "adboards": list(club.adboards), "megaphones": list(club.megaphones)},
        "office": club.office, "maintenance": {**due, "total": sum(due.values())},
        "objective": club.objective, "objective_result": club.objective_result, "tactics": list(club.tactics),
        "opponents_left": sum(1 for w in range(max(state.week, 1), state.weeks + 1) if week_opponent(state, club, w))
        if state.weeks else len(club.opponents),
        "opponent": opponent,
        "league_points": club.points,
        "match": {"goals": club.goals, "conceded": club.conceded, "result": club.result, "stands": club.stands,
                  "tactic": club.tactic_played, "lineup": None if club.lineup is None else [
                      {"zone": p.zone, "jersey": p.jersey, "card": p.card, "style": p.style} for p in club.lineup]},
        "acted": club.acted, "board_card": club.board_card,
        "markers": {str(n): side for n, side in club.markers},
        "markers_unseen": {str(n): side for n, side in unseen_marker_sides(profile, club).items()},
        "limits": lineup_limits(face, club),
    }
    hidden = _hidden(state, club, viewer)
    for name in hidden:
        out[name] = None
    # which fields are secret, and which of them this viewer does not see (shown as None)
    out["secret"] = list(SECRETS)
    out["hidden"] = list(hidden)
    return out


def game_words(game: Game) -> dict[str, Any]:
    """What a game is, for people: pack, modules (names and titles), options, and one line saying it
    ("Eleven with Referee and Betting, Division 2")."""
    rules = host.rules_for(game)
    titles = [m.title for m in rules.modules]
    declared = {**rules.pack.options, **{k: o for m in rules.modules for k, o in m.options.items()}}
    options = [f"{(declared[k].title or k.capitalize()) if k in declared else k} {v}" for k, v in game.options]
    line = rules.pack.title + (" with " + _and(titles) if titles else ", the base game")
    return {"pack": game.pack, "modules": list(game.modules), "titles": titles, "options": dict(game.options),
            "revision": game.revision, "text": line + ("; " + ", ".join(options) if options else "") + "."}


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def view(profile: Profile, state: State, viewer: int | str = EVERYTHING) -> dict[str, Any]:
    """Everything tracked, JSON-safe: stage, week, turn, League table, clubs, and the final scores (so far / at the end).

    ``viewer`` says who looks: `EVERYTHING` ("all", the default) shows every secret; `TABLE` ("table") is a screen
    all players see, so every club's Objective and unrevealed Opponent card are None; a seat number shows that
    club's own Objective as well.  Each club lists its ``secret`` fields and those ``hidden`` from this viewer.
    """
    if viewer not in (EVERYTHING, TABLE) and (not isinstance(viewer, int) or isinstance(viewer, bool)):
        raise ValueError(UNKNOWN_VIEWER.format(viewer=viewer))
    rules = host.rules_for(state.game)
    board = rules.board(profile, state, None, profile.board)  # type: ignore[attr-defined]
    positions = league_positions(state)
    table = [
        {"kind": "club", "seat": c.seat, "name": c.name, "points": c.points, "position": positions[f"seat:{c.seat}"],
         "vp": board.position_vp(positions[f"seat:{c.seat}"]), "inactive": False}
        for c in state.clubs
    ] + [
        {"kind": "opponent", "team": t.id, "name": board.team(t.id).name, "points": t.points,
         "position": positions[f"team:{t.id}"], "vp": board.position_vp(positions[f"team:{t.id}"]), "inactive": t.inactive}
        for t in state.teams
    ]
    table.sort(key=lambda r: (r["position"], r["name"]))
    scores = final_scores(profile, state) if state.clubs else []
    return {
        "game": game_words(state.game),
        "stage": state.stage, "stage_name": rules.stage_name(state.stage), "week": state.week, "weeks": state.weeks,
        "first_seat": state.first_seat or None, "turn": state.turn or None, "awaiting": _with_offers(profile, state),
        "league": table, "clubs": [_club_view(profile, state, c, viewer) for c in state.clubs],
        "scores": scores, "final": scores if state.stage == "over" else None, "events": state.events,
        "discarded": list(state.discarded),
        "modules": dict(rules.view(profile, state, viewer)),  # type: ignore[attr-defined]
    }
