"""A new game's setup events: the one path from the page's (or a scenario's) ``NewGame`` to what the engine takes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import engine
from engine.legal import deck, table_setup
from engine.legal import setup_events as default_setup
from engine.state import Game

from web.actions import ClubSetup, NewGame


def setup_events(profile: engine.Profile, game: NewGame, modules: Sequence[str] = (),
                 options: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The engine events that set up ``game``: what the game is (pack, modules, options), clubs, Directors, starting
    players, Opponents, Objective, Tactic.

    ``modules`` and ``options`` are the table's defaults (its table file's ``[game]``), used when ``game`` names
    none of its own (a scenario's new game that says nothing about modules).

    With ``game.deal`` the table deals whatever a club left out (the setup is complete, and ends with the First
    player); without it, only what the form names is set up, and each seat taps the rest on its pad when the
    table asks for it.
    """
    chosen = list(game.modules) if game.modules is not None else list(modules)
    first = {"type": "game", "pack": "eleven", "modules": chosen,
             "options": dict(game.options) if game.options is not None else dict(options or {}),
             "revision": engine.REVISION}
    events: list[dict[str, Any]] = [first, *({"type": "club", "seat": c.seat, "name": c.name} for c in game.clubs)]
    if not game.deal:
        for club in game.clubs:
            events += _named(club)
        return events
    seats = [club.seat for club in game.clubs]
    game_is = Game("eleven", tuple(first["modules"]), tuple(sorted(first["options"].items())), engine.REVISION)
    try:
        deck(profile, game_is, "opponent")
    except KeyError:
        game_is = Game()  # an unknown module: the game event itself is refused with the engine's sentence
    default = default_setup(profile, seats, game=first)[1:]
    dealt = _by_seat(default)
    # a game's modules may have each club keep more than one Objective (the Epic League's two)
    objectives = {seat: [e["card"] for e in default if e["type"] == "objective" and e.get("seat") == seat] for seat in seats}
    taken: set[str] = {card for club in game.clubs
                       for card in [*club.directors, club.veteran, club.youngster, *club.opponents, club.objective,
                                    club.tactic]
                       if card}

    def fill(kind: str, default: list[str], want: int) -> list[str]:
        # The table's own deal, minus cards someone chose by hand, topped up from the rest of the deck.
        picked = [c for c in default if c not in taken][:want]
        # the rest of the deck this game deals from (a Division's Opponent cards only)
        spare = [c.id for c in deck(profile, game_is, kind) if c.id not in taken and c.id not in picked]
        picked += spare[: want - len(picked)]
        taken.update(picked)
        return picked

    for club in game.clubs:
        own = dealt[club.seat]
        kept = profile.board.setup.directors_kept
        directors = list(club.directors) + fill("director", own["directors"]["cards"], kept - len(club.directors))
        veteran = club.veteran or fill("veteran", [own["starting_players"]["veteran"]], 1)[0]
        youngster = club.youngster or _youngster(profile, veteran, own["starting_players"]["youngster"], taken)
        opponents = list(club.opponents) or fill("opponent", own["opponents"]["cards"], len(own["opponents"]["cards"]))
        objective = club.objective or fill("objective", [own["objective"]["card"]], 1)[0]
        tactic = club.tactic or fill("tactic", [own["tactic"]["card"]], 1)[0]
        events += _named(club.model_copy(update={"directors": directors, "veteran": veteran, "youngster": youngster,
                                                 "opponents": opponents, "objective": objective, "tactic": tactic}))
        more = objectives[club.seat][1:]
        events += [{"type": "objective", "seat": club.seat, "card": card} for card in fill("objective", more, len(more))]
    # what the game's modules still want from the table itself (the Opponent cards under the remaining Betting tokens)
    events += table_setup(profile, events)
    events.append({"type": "first_player", "seat": game.first_seat or seats[0]})
    return events


def _named(club: ClubSetup) -> list[dict[str, Any]]:
    """The setup events for the cards a club's form names (the engine checks each; a seat taps what is missing)."""
    events: list[dict[str, Any]] = []
    if club.directors:
        events.append({"type": "directors", "seat": club.seat, "cards": list(club.directors)})
    if club.veteran or club.youngster:
        events.append({"type": "starting_players", "seat": club.seat, "veteran": club.veteran, "youngster": club.youngster})
    if club.opponents:
        events.append({"type": "opponents", "seat": club.seat, "cards": list(club.opponents)})
    if club.objective:
        events.append({"type": "objective", "seat": club.seat, "card": club.objective})
    if club.tactic:
        events.append({"type": "tactic", "seat": club.seat, "card": club.tactic})
    return events


def _by_seat(events: list[dict[str, Any]]) -> dict[int, dict[str, dict[str, Any]]]:
    out: dict[int, dict[str, dict[str, Any]]] = {}
    for event in events:
        if event.get("seat") is not None:  # the table's own setup events are dealt again after the clubs'
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
