"""The Final scoring (rulebook, End of the game: Final scoring, Ties; Objective cards): the League position's VP,
VP tokens (a footballer card with tokens counts once), Staff sets, Stadium Infrastructure, the Objective, the Office
track, every 3 € one VP; the higher League position breaks a tie, else the victory is shared."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine import errors as E
from engine import host
from engine.cards import Profile
from engine.rules.abilities import open_windows
from engine.rules.context import field, seat_of
from engine.rules.effects import Ctx, conditions_hold
from engine.rules.league import league_positions
from engine.state import Pending, State, evolve
from engine.tx import Tx

#: The parts of a club's final score, in the order they are shown.
PARTS = ("league", "vp_tokens", "staff_sets", "infrastructure", "objective", "office", "budget")


def begin_final_scoring(tx: Tx) -> None:
    """The Final scoring's abilities (the optional ones wait for their clubs), then the Objectives."""
    tx.state = evolve(tx.state, turn=0)
    if not open_windows(tx, "final_scoring"):
        score_objectives(tx)


def score_objectives(tx: Tx) -> None:
    """Objectives are checked where the data allows; the others wait for the table's word (``objective_result``)."""
    tx.rules.final_scoring(tx)  # type: ignore[attr-defined]
    pending = list(tx.state.pending)
    for club in tx.state.clubs:
        club = tx.club(club.seat)
        if club.objective_result is not None:
            continue
        obj = tx.profile.cards.get(club.objective or "")
        if obj is None:
            tx.put(evolve(club, objective_result="missed"))
            continue
        ctx = Ctx(seat=club.seat, source=obj.id, label=obj.name)
        goal = conditions_hold(tx, club, obj.goal, ctx)  # type: ignore[attr-defined]
        perfect = conditions_hold(tx, club, obj.perfect, ctx) if goal else False  # type: ignore[attr-defined]
        if goal is False:
            result = "missed"
        elif goal is True and perfect is not None:
            result = "perfect" if perfect else "fulfilled"
        else:
            pending.append(Pending("objective_result", club.seat, ref=obj.id))
            tx.say("objective_ask", club.seat, f"Seat {club.seat}: tell whether {obj.name} is missed, fulfilled or fulfilled perfectly.", card=obj.id)
            continue
        tx.put(evolve(club, objective_result=result))
        tx.say("objective_result", club.seat, f"Seat {club.seat}'s Objective {obj.name} is {result}.", card=obj.id, result=result)
    tx.state = evolve(tx.state, pending=tuple(pending))
    tx.say("final_scoring", None, "The last week is over: Final scoring.")


def on_objective_result(tx: Tx) -> None:
    """The table says how far a club fulfilled its Objective (when the data cannot check it)."""
    ev = tx.event
    seat = seat_of(ev)
    if tx.state.stage != "final_scoring":
        raise E.WrongStage(E.WRONG_STAGE.format(seat=seat, what="score its Objective", stage=tx.stage_name(), expected="and Objectives are scored at the end"))
    result = field(ev, "result", str, '"missed", "fulfilled" or "perfect"')
    if result not in ("missed", "fulfilled", "perfect"):
        raise E.BadEvent(E.BAD_FIELD.format(type="objective_result", field="result", why='"missed", "fulfilled" or "perfect"'))
    club = tx.club(seat)
    if club.objective_result is not None:
        raise E.NotAllowed(E.SETUP_ALREADY.format(seat=seat, what=f"its Objective scored ({club.objective_result})"))
    window = next((p for p in tx.state.pending if p.need == "abilities"), None)
    if window is not None:
        raise E.NotAllowed(E.FINISH_ABILITIES.format(seat=window.seat, moment=tx.stage_name()))
    tx.put(evolve(club, objective_result=result))
    tx.state = evolve(tx.state, pending=tuple(p for p in tx.state.pending if not (p.need == "objective_result" and p.seat == seat)))
    tx.say("objective_result", seat, f"Seat {seat}'s Objective is {result}.", result=result)


def end_final_scoring(tx: Tx) -> None:
    """Every Objective is scored: the game is over."""
    scores = final_scores(tx.profile, tx.state)
    winners = [r["seat"] for r in scores if r["winner"]]
    tx.say("game_over", None, f"The game is over. Winner: {', '.join(f'Seat {w}' for w in winners)}.", scores=scores, winners=winners)


def final_scores(profile: Profile, state: State) -> list[dict[str, Any]]:
    """Each club's score breakdown (League, VP tokens, Staff sets, Infrastructure, Objective, Office, Budget, and
    the parts the game's modules add), ranked."""
    rules = host.rules_for(state.game)
    shared = rules.board(profile, state, None, profile.board)  # type: ignore[attr-defined]
    positions = league_positions(state)
    rows = []
    for club in state.clubs:
        board = rules.board(profile, state, club.seat, profile.board)  # type: ignore[attr-defined]
        position = positions[f"seat:{club.seat}"]
        sets = Counter(profile.cards[h.id].set for h in club.staff)  # type: ignore[union-attr]
        objective = {"perfect": board.objective_vp + board.objective_perfect_vp, "fulfilled": board.objective_vp}.get(club.objective_result or "", 0)
        parts = {
            "league": shared.position_vp(position),
            "vp_tokens": club.vp_tokens + sum(1 for h in club.players if h.vp > 0),
            "staff_sets": sum(board.set_vp(colour, n) for colour, n in sets.items()),
            "infrastructure": sum(board.infrastructure_kind(k).vp for k in club.infrastructure),
            "objective": objective,
            "office": board.office_vp(club.office),
            "budget": club.res[0] // board.budget_per_vp,
        }
        for name, vp in rules.score_parts(profile, state, club):  # type: ignore[attr-defined]
            parts[name] = parts.get(name, 0) + vp
        rows.append({"seat": club.seat, "name": club.name, "position": position, **parts, "total": sum(parts.values())})
    # ties go to the higher League position, then are shared
    for row in rows:
        row["rank"] = 1 + sum(
            1 for o in rows if (o["total"], -o["position"]) > (row["total"], -row["position"])
        )
        row["winner"] = row["rank"] == 1
    return sorted(rows, key=lambda r: (r["rank"], r["seat"]))
