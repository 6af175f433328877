"""Seasons: a league played over several evenings, ranked from each of its games' final scoring.

The engine scores every game (``engine.view()["final"]``: each club's VP, its rank and whether it won); a season
only adds those up.  Clubs are matched across games by name: the name typed at New game, trimmed, any number of
spaces read as one and ignoring case ("Club 1" and "club  1" are one club, shown as it was first spelt).  A game
that is not over, abandoned, or whose log the engine cannot score counts for nothing and is marked so.

Standings order (README.md, "Seasons"): most VP over the season's games; then most wins (rank 1 in a game, a shared
victory counting for every club sharing it); then the better (lower) average rank; clubs level on all three share
their position and are listed by name.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any

from device import errors
from device.errors import ExportError
from device.export import engine_final_view
from device.store import EventStore, GameRecord, GameStatus, SeasonRecord

log = logging.getLogger(__name__)

SEASON_FORMATS = ("json", "csv")
SEASON_EXPORT_VERSION = 1
NOT_OVER = "not over yet: counts once it is"
ABANDONED = "abandoned: counts for nothing"
NOT_SCORED = "its final scoring cannot be worked out from its log: counts for nothing (send the log with a bug report)"
FINAL_PAGE = "/final?game={game}"
"""Where the page shows one game's final scoring."""
UNKNOWN_SEASON_FORMAT = "{fmt!r} is not a season export format. Use one of: json, csv."
GAME_NOT_OVER_YET = "Game {game} is not over yet, so it has no final scoring. It appears here once the game ends."


def club_key(name: str) -> str:
    """How a club's name is matched across games: trimmed, spaces collapsed, case ignored."""
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class Place:
    """How a club did in one game of the season."""

    game: int
    rank: int
    vp: int
    winner: bool


@dataclass(frozen=True)
class SeasonGame:
    """One game of a season, and whether (and why not) it counts."""

    id: int
    number: int
    """Its place in the season, from 1."""
    status: GameStatus
    created: datetime
    ended: datetime | None
    final: tuple[Mapping[str, Any], ...]
    """The engine's final scoring rows (seat, name, total, rank, winner, the categories), empty unless it counts."""
    note: str
    """Why it counts for nothing, or "" when it counts."""

    @property
    def counted(self) -> bool:
        """Whether its final scoring is in the standings."""
        return not self.note

    @property
    def winners(self) -> tuple[str, ...]:
        """The club(s) the engine named winner."""
        return tuple(str(row["name"]) for row in self.final if row.get("winner"))


@dataclass(frozen=True)
class ClubStanding:
    """One club over the season: games played, VP, wins, average rank, and its place in each game."""

    position: int
    name: str
    places: tuple[Place, ...]

    @property
    def played(self) -> int:
        """Games of the season it played that count."""
        return len(self.places)

    @property
    def vp(self) -> int:
        """Its VP over those games."""
        return sum(p.vp for p in self.places)

    @property
    def wins(self) -> int:
        """Games it won (rank 1; a shared victory counts for each club sharing it)."""
        return sum(1 for p in self.places if p.rank == 1)

    @property
    def average_rank(self) -> Fraction:
        """Its mean rank over the games it played."""
        return Fraction(sum(p.rank for p in self.places), len(self.places))

    def place_in(self, game: int) -> Place | None:
        """How it did in one game, or None when it did not play it."""
        return next((p for p in self.places if p.game == game), None)


@dataclass(frozen=True)
class Standings:
    """A season's table: its games (counted or not) and its clubs, best first."""

    season: SeasonRecord
    games: tuple[SeasonGame, ...]
    clubs: tuple[ClubStanding, ...]

    def as_dict(self) -> dict[str, Any]:
        """JSON-safe, as the page and the JSON export read it."""
        return {
            "id": self.season.id,
            "name": self.season.name,
            "created": self.season.created.isoformat(),
            "games": [{
                "id": g.id, "number": g.number, "status": g.status, "counted": g.counted, "note": g.note,
                "created": g.created.isoformat(), "ended": g.ended.isoformat() if g.ended else None,
                "winners": list(g.winners), "link": FINAL_PAGE.format(game=g.id),
                "clubs": [{"seat": r["seat"], "name": r["name"], "vp": r["total"], "rank": r["rank"],
                           "winner": bool(r.get("winner"))} for r in g.final],
            } for g in self.games],
            "standings": [{
                "position": c.position, "club": c.name, "played": c.played, "vp": c.vp, "wins": c.wins,
                "average_rank": round(float(c.average_rank), 2),
                "games": {str(p.game): {"rank": p.rank, "vp": p.vp, "winner": p.winner} for p in c.places},
            } for c in self.clubs],
        }


FinalView = Callable[[GameRecord, list[dict[str, Any]]], Mapping[str, Any]]


class FinalScores:
    """Each game's final scoring as the engine gives it, replayed once per version of its log."""

    def __init__(self, store: EventStore, view: FinalView = engine_final_view) -> None:
        self._store = store
        self._view = view
        self._lock = threading.Lock()
        self._kept: dict[int, tuple[tuple[Any, ...], tuple[Mapping[str, Any], ...] | None]] = {}

    def final(self, game: GameRecord) -> tuple[Mapping[str, Any], ...] | None:
        """The engine's final rows of a game, None while it is not over; ValueError (and kin) when it cannot say."""
        # The log only grows, is undone or is corrected at its end, and each of those changes one of these.
        version = (game.status, game.events, game.ended)
        with self._lock:
            kept = self._kept.get(game.id)
        if kept is not None and kept[0] == version:
            return kept[1]
        view = self._view(game, self._store.events(game.id))
        rows = tuple(view["final"]) if view.get("final") else None
        with self._lock:
            self._kept[game.id] = (version, rows)
        return rows


def standings(store: EventStore, season: SeasonRecord, scores: FinalScores | None = None) -> Standings:
    """A season's standings from its games' final scoring (the engine's), clubs best first."""
    scores = scores or FinalScores(store)
    games = [_season_game(store.game(game_id), number, scores) for number, game_id in enumerate(season.games, 1)]
    names: dict[str, str] = {}
    places: dict[str, list[Place]] = {}
    for game in games:
        seen: set[str] = set()
        for row in game.final:
            name = " ".join(str(row["name"]).split())
            key = club_key(name)
            if key in seen:  # two seats of one game under one name: each still counts on its own
                name, key = f"{name} (seat {row['seat']})", club_key(f"{name} (seat {row['seat']})")
            seen.add(key)
            names.setdefault(key, name)
            places.setdefault(key, []).append(Place(game=game.id, rank=int(row["rank"]), vp=int(row["total"]),
                                                    winner=bool(row.get("winner"))))
    clubs = [ClubStanding(position=0, name=names[key], places=tuple(found)) for key, found in places.items()]

    def merit(club: ClubStanding) -> tuple[int, int, Fraction]:
        return (-club.vp, -club.wins, club.average_rank)

    clubs.sort(key=lambda c: (merit(c), club_key(c.name)))
    ranked = []
    for index, club in enumerate(clubs):
        # Level on VP, wins and average rank: the same position ("1, 1, 3").
        position = 1 + sum(1 for other in clubs[:index] if merit(other) < merit(club))
        ranked.append(ClubStanding(position=position, name=club.name, places=club.places))
    return Standings(season=season, games=tuple(games), clubs=tuple(ranked))


def _season_game(game: GameRecord, number: int, scores: FinalScores) -> SeasonGame:
    rows: tuple[Mapping[str, Any], ...] = ()
    note = ""
    if game.status == "abandoned":
        note = ABANDONED
    else:
        # The engine decides whether a game is over (its last event may have ended it while the log still says
        # "playing"), as the export does.
        try:
            rows = scores.final(game) or ()
        except (ImportError, AttributeError, ValueError, KeyError, TypeError) as exc:
            log.warning("game %d cannot be scored for its season: %s", game.id, exc)
            note = NOT_SCORED
        else:
            if not rows:
                note = NOT_OVER
    return SeasonGame(id=game.id, number=number, status=game.status, created=game.created, ended=game.ended,
                      final=rows, note=note)


# --- exports -------------------------------------------------------------------------------------------------------


def season_json(table: Standings) -> str:
    """The season as one JSON document: the standings, then each game with its clubs' VP and rank."""
    document = {"format": "touchline-season", "version": SEASON_EXPORT_VERSION, **table.as_dict()}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def season_csv(table: Standings) -> str:
    """The standings (one row per club, a rank and a VP column per game) then, after a blank line, the games."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    counted = [g for g in table.games if g.counted]
    writer.writerow(["position", "club", "played", "vp", "wins", "average rank",
                     *(f"game {g.id} {what}" for g in counted for what in ("rank", "vp"))])
    for club in table.clubs:
        cells: list[Any] = []
        for game in counted:
            place = club.place_in(game.id)
            cells += ["", ""] if place is None else [place.rank, place.vp]
        writer.writerow([club.position, club.name, club.played, club.vp, club.wins,
                         f"{float(club.average_rank):.2f}", *cells])
    writer.writerow([])
    writer.writerow(["number", "game", "status", "counted", "winner", "note"])
    for game in table.games:
        writer.writerow([game.number, game.id, game.status, "yes" if game.counted else "no",
                         " and ".join(game.winners), game.note])
    return out.getvalue()


def render_season(table: Standings, fmt: str) -> str:
    """The season export in one of SEASON_FORMATS; ExportError naming them for any other."""
    if fmt == "json":
        return season_json(table)
    if fmt == "csv":
        return season_csv(table)
    raise ExportError(UNKNOWN_SEASON_FORMAT.format(fmt=fmt))


def export_name(season: SeasonRecord, fmt: str) -> str:
    """A file name for a season's export: its name in safe letters, and the format."""
    stem = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in season.name).strip("-").lower()
    return f"touchline-season-{'-'.join(filter(None, stem.split('-'))) or season.id}.{fmt}"


# --- the page's side (web.interface.Seasons) ---------------------------------------------------------------------


class SeasonBook:
    """The seasons as the page reads and changes them (``web.interface.Seasons``); every answer is JSON-safe.

    Refusals raise ``LookupError`` (no such season or game) or ``ValueError`` (a taken name, a game counting in
    another season) with the sentence to show; nothing changed then.
    """

    def __init__(self, store: EventStore) -> None:
        self._store = store
        self._scores = FinalScores(store)

    def kept(self) -> list[dict[str, Any]]:
        """Every season, oldest first: its id, name and how many games it has."""
        return [{"id": s.id, "name": s.name, "games": len(s.games)} for s in self._store.seasons()]

    def standings(self, season_id: int) -> dict[str, Any]:
        """A season's standings and games (see :meth:`Standings.as_dict`)."""
        return standings(self._store, self._store.season(season_id), self._scores).as_dict()

    def create(self, name: str) -> dict[str, Any]:
        """Make an empty season."""
        season = self._store.new_season(name)
        return {"id": season.id, "name": season.name, "games": 0}

    def add(self, season_id: int, games: Sequence[int]) -> dict[str, Any]:
        """Add games at the end of a season (all or none); return its standings."""
        return standings(self._store, self._store.add_to_season(season_id, games), self._scores).as_dict()

    def remove(self, season_id: int, games: Sequence[int]) -> dict[str, Any]:
        """Take games out of a season (they are kept); return its standings."""
        return standings(self._store, self._store.remove_from_season(season_id, games), self._scores).as_dict()

    def delete(self, season_id: int) -> dict[str, Any]:
        """Forget a season (its games are kept)."""
        season = self._store.delete_season(season_id)
        return {"id": season.id, "name": season.name, "games": len(season.games)}

    def games(self) -> list[dict[str, Any]]:
        """Every kept game, newest first, for choosing what to add: number, status, start, clubs, its season."""
        member = {g: s.name for s in self._store.seasons() for g in s.games}
        out = []
        for game in reversed(self._store.games()):
            clubs: list[str] = []
            if game.status != "abandoned":
                try:
                    clubs = [str(row["name"]) for row in self._scores.final(game) or ()]
                except (ImportError, AttributeError, ValueError, KeyError, TypeError):
                    clubs = []
            out.append({"id": game.id, "status": game.status, "created": game.created.isoformat(),
                        "clubs": clubs or [name for _, name in sorted(game.seats.items())],
                        "season": member.get(game.id)})
        return out

    def final(self, game_id: int) -> dict[str, Any]:
        """One game's final scoring as the engine gives it; ValueError while it is not over."""
        game = self._store.game(game_id)
        rows = None if game.status == "abandoned" else self._scores.final(game)
        if not rows:
            raise ValueError(GAME_NOT_OVER_YET.format(game=game_id) if game.status != "abandoned"
                             else errors.GAME_ABANDONED.format(game=game_id))
        season = self._store.season_of(game_id)
        return {"game": {"id": game.id, "created": game.created.isoformat(),
                         "ended": game.ended.isoformat() if game.ended else None,
                         "season": None if season is None else {"id": season.id, "name": season.name}},
                "final": [dict(row) for row in rows]}

    def export(self, season_id: int, fmt: str) -> tuple[str, str]:
        """A season's export in ``fmt`` (json or csv) and a file name for it."""
        season = self._store.season(season_id)
        return render_season(standings(self._store, season, self._scores), fmt), export_name(season, fmt)
