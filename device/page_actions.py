"""The page's actions as the engine's events: a new game's setup, a lineup, a correction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import STATS


def page_events(action: Mapping[str, Any], state: Any) -> list[dict[str, Any]]:
    """The engine events a page action stands for."""
    kind = action.get("type")
    if kind == "lineup":
        event: dict[str, Any] = {
            "type": "lineup",
            "seat": action.get("seat"),
            "players": [
                {"zone": p.get("zone"), "jersey": p.get("number", p.get("jersey")), "card": p.get("card"), "style": p.get("style")}
                for p in action.get("placements", action.get("players", ()))
            ],
            "stands": int(action.get("stands", 0) or 0),
        }
        if action.get("assign"):
            event["assign"] = action["assign"]
        events = [event]
        if action.get("tactic"):
            events.append({"type": "tactic_played", "seat": action.get("seat"), "card": action["tactic"]})
        return events
    if kind == "correction":
        seat = action.get("seat")
        what = str(action.get("field", ""))
        delta = int(action.get("value", 0)) - _current(state, seat, what)
        return [{"type": "adjust", "seat": seat, "what": what, "delta": delta, "reason": str(action.get("reason", "correction"))}]
    return [dict(action)]


def _current(state: Any, seat: Any, what: str) -> int:
    """The tracked number a correction sets, as it is now (so the event can carry the change)."""
    club = state.club(seat) if isinstance(seat, int) else None
    if club is None:
        raise ValueError(f"There is no club at Seat {seat}.")
    if what in STATS:
        return int(club.res[STATS.index(what)])
    if what.startswith("stat:") and what[5:] in STATS:
        return int(club.stats[STATS.index(what[5:])])
    value = getattr(club, what, None)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError(f'A correction can set a resource, "stat:<name>", vp_tokens, points or office, not "{what}".')


def setup_events(action: Mapping[str, Any], profile: Any) -> list[dict[str, Any]]:
    """The engine's setup events for the page's new game: clubs, and whatever cards the page already names.

    What the page leaves out (Directors, starting footballers, Opponents, Objective, Tactic) is tapped on
    each seat's pad afterwards, as the table asks for it.
    """
    events: list[dict[str, Any]] = []
    clubs = sorted(action.get("clubs", ()), key=lambda c: int(c.get("seat", 0)))
    if not clubs:
        raise ValueError("A new game needs at least one club.")
    for club in clubs:
        events.append({"type": "club", "seat": int(club["seat"]), "name": str(club.get("name") or f"Club {club['seat']}")})
    for club in clubs:
        seat = int(club["seat"])
        directors = club.get("directors") or ([club["director"]] if club.get("director") else [])
        if len(directors) == profile.board.setup.directors_kept:
            events.append({"type": "directors", "seat": seat, "cards": list(directors)})
        if club.get("veteran") and club.get("youngster"):
            events.append({"type": "starting_players", "seat": seat, "veteran": club["veteran"], "youngster": club["youngster"]})
        if club.get("opponents"):
            events.append({"type": "opponents", "seat": seat, "cards": list(club["opponents"])})
        objectives = club.get("objectives") or ([club["objective"]] if club.get("objective") else [])
        # (the page's form names one kept Objective; a list means the first is kept)
        if objectives:
            events.append({"type": "objective", "seat": seat, "card": objectives[0]})
        if club.get("tactic"):
            events.append({"type": "tactic", "seat": seat, "card": club["tactic"]})
    return events

