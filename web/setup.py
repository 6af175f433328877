"""The setup events of a new game: what the page's form chose, and the table's own deal for anything left out."""

from __future__ import annotations

from typing import Any

import engine
from engine.legal import setup_events as default_setup

from web.models import NewGame


def setup_events(profile: engine.Profile, game: NewGame) -> list[dict[str, Any]]:
    """The engine events that set up ``game``: clubs, Directors, starting players, Opponents, Objective, Tactic."""
    seats = [club.seat for club in game.clubs]
    dealt = _by_seat(default_setup(profile, seats))
    chosen = {card for club in game.clubs
              for card in [*club.directors, club.veteran, club.youngster, *club.opponents, club.objective, club.tactic]
              if card}
    taken: set[str] = set(chosen)

    def fill(kind: str, default: list[str], want: int) -> list[str]:
        # The table's own deal, minus cards someone chose by hand, topped up from the rest of the deck.
        picked = [c for c in default if c not in taken][:want]
        spare = [c.id for c in profile.cards_of(kind) if c.id not in taken and c.id not in picked]
        picked += spare[: want - len(picked)]
        taken.update(picked)
        return picked

    events: list[dict[str, Any]] = [{"type": "club", "seat": c.seat, "name": c.name} for c in game.clubs]
    for club in game.clubs:
        own = dealt[club.seat]
        kept = profile.board.setup.directors_kept
        directors = list(club.directors) + fill("director", own["directors"]["cards"], kept - len(club.directors))
        veteran = club.veteran or fill("veteran", [own["starting_players"]["veteran"]], 1)[0]
        youngster = club.youngster or _youngster(profile, veteran, own["starting_players"]["youngster"], taken)
        opponents = list(club.opponents) or fill("opponent", own["opponents"]["cards"], len(own["opponents"]["cards"]))
        objective = club.objective or fill("objective", [own["objective"]["card"]], 1)[0]
        tactic = club.tactic or fill("tactic", [own["tactic"]["card"]], 1)[0]
        events += [
            {"type": "directors", "seat": club.seat, "cards": directors},
            {"type": "starting_players", "seat": club.seat, "veteran": veteran, "youngster": youngster},
            {"type": "opponents", "seat": club.seat, "cards": opponents},
            {"type": "objective", "seat": club.seat, "card": objective},
            {"type": "tactic", "seat": club.seat, "card": tactic},
        ]
    events.append({"type": "first_player", "seat": game.first_seat or seats[0]})
    return events


def _by_seat(events: list[dict[str, Any]]) -> dict[int, dict[str, dict[str, Any]]]:
    out: dict[int, dict[str, dict[str, Any]]] = {}
    for event in events:
        out.setdefault(event["seat"], {})[event["type"]] = event
    return out


def _jersey(profile: engine.Profile, card_id: str) -> int | None:
    card = profile.cards.get(card_id)
    side = getattr(card, "untrained", None)
    return getattr(side, "jersey", None)


def _youngster(profile: engine.Profile, veteran: str, default: str, taken: set[str]) -> str:
    """The dealt Youngster, or the next one whose jersey differs from the Veteran's (the rulebook redraws)."""
    number = _jersey(profile, veteran)
    pool = [default] + [c.id for c in profile.cards_of("youngster")]
    for card in pool:
        if card not in taken and _jersey(profile, card) != number:
            taken.add(card)
            return card
    return default
