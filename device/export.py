"""Exporting a kept game: its full log and final scoring as JSON or CSV, and as a BG Stats import link.

The export is built over a small typed structure (``GameExport``); ``final_from_view`` adapts the engine's
``view()["final"]`` breakdown to it, so the formats do not depend on the engine's internal layout.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote

from device import errors
from device.errors import ExportError
from device.store import EventRecord, EventStore, GameRecord, SeasonRecord

GAME_NAME = "Eleven"
SOURCE_NAME = "Touchline"
# BG Stats' play import deep link: the app opens a prefilled play for the owner to confirm.
BGSTATS_LINK = "bgstats://app.bgstatsapp.com/createPlay.html?data="
FORMATS = ("json", "csv", "bgstats")
_NOT_CATEGORIES = frozenset({"seat", "name", "club", "position", "league_position", "total", "vp", "rank", "winner"})
Format = Literal["json", "csv", "bgstats"]
EXPORT_VERSION = 1
UNNAMED_PLAYER = "Player at seat {seat}"
"""A seat whose players gave no name at New game, as BG Stats lists it (the club's name goes in the role)."""


@dataclass(frozen=True)
class ClubScore:
    """One club's final score: total VP, the breakdown by category, and where it finished."""

    seat: int
    name: str
    total: int
    breakdown: tuple[tuple[str, int], ...]
    league_position: int | None
    rank: int
    winner: bool


@dataclass(frozen=True)
class FinalScoring:
    """The Final scoring of a finished game, clubs best first."""

    clubs: tuple[ClubScore, ...]

    @property
    def winners(self) -> tuple[ClubScore, ...]:
        """The club(s) that won (several only when they share the victory)."""
        return tuple(c for c in self.clubs if c.winner)

    @property
    def categories(self) -> tuple[str, ...]:
        """Every scoring category, in the order first met."""
        seen: dict[str, None] = {}
        for club in self.clubs:
            for name, _ in club.breakdown:
                seen.setdefault(name, None)
        return tuple(seen)


@dataclass(frozen=True)
class GameExport:
    """Everything exported about one game."""

    game: GameRecord
    events: tuple[EventRecord, ...]
    final: FinalScoring | None
    season: SeasonRecord | None = None
    """The season the game counts in, if any."""

    @property
    def minutes(self) -> int:
        """How long the game took: from its start to its end, or to its last event when no end was noted."""
        if self.game.minutes is not None:
            return self.game.minutes
        if not self.events:
            return 0
        return max(0, round((self.events[-1].created - self.game.created).total_seconds() / 60))

    @property
    def rules(self) -> GameRules:
        """The modules and options the game was played with (its first event; a log without one is the base game)."""
        return game_rules(self.events[0].event if self.events else None)

    def player_name(self, seat: int) -> str:
        """Who played a seat: the names the seat gave at New game, else ``Player at seat N`` (a club is not a player)."""
        return self.game.seats.get(seat) or UNNAMED_PLAYER.format(seat=seat)


@dataclass(frozen=True)
class GameRules:
    """What a game was: the rule modules chosen and its options, as the game's first event names them."""

    modules: tuple[str, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def text(self) -> str:
        """In a few words: "base game", or the modules and options ("referee, betting; division 2")."""
        words = ", ".join(self.modules) or "base game"
        if self.options:
            words += "; " + ", ".join(f"{k} {v}" for k, v in self.options)
        return words


def game_rules(first: Mapping[str, Any] | None) -> GameRules:
    """The modules and options a log's first event names (the base game when it is not a ``game`` event)."""
    if not first or first.get("type") != "game":
        return GameRules()
    modules = first.get("modules") or []
    options = first.get("options") or {}
    return GameRules(tuple(str(m) for m in modules if isinstance(m, str)),
                     tuple(sorted((str(k), v) for k, v in options.items())) if isinstance(options, Mapping) else ())


def final_from_view(view: Mapping[str, Any]) -> FinalScoring | None:
    """Adapt ``engine.view()``'s final scoring breakdown (None while the game is not over).

    Accepted shape: ``view["final"]`` is a list of clubs (or ``{"clubs": [...], "winners": [seats]}``), each with
    ``seat``, ``name``/``club``, ``total``/``vp``, ``position``/``league_position`` and its categories, either as
    fields of their own (``league``, ``office``, ...: what ``engine.view`` gives) or under ``breakdown`` (a mapping
    or a list of ``{category, vp}``).  Winners come from the engine when it names them (``winner`` on each row or
    ``winners``); otherwise the rule of the base game applies: most VP, then higher in the League table, else the
    victory is shared.
    """
    final = view.get("final")
    if not final:
        return None
    raw_clubs = final.get("clubs", []) if isinstance(final, Mapping) else list(final)
    named_winners = final.get("winners") if isinstance(final, Mapping) else None
    if named_winners is None and raw_clubs and all("winner" in raw for raw in raw_clubs):
        named_winners = [int(raw["seat"]) for raw in raw_clubs if raw["winner"]]
    parsed = []
    for raw in raw_clubs:
        breakdown = raw.get("breakdown")
        if breakdown is None:
            # The engine's rows carry each category as a field of its own beside seat, name, total and rank.
            breakdown = {k: v for k, v in raw.items()
                         if k not in _NOT_CATEGORIES and isinstance(v, int) and not isinstance(v, bool)}
        if isinstance(breakdown, Mapping):
            items = tuple((str(k), int(v)) for k, v in breakdown.items())
        else:
            items = tuple((str(b.get("category") or b.get("name")), int(b.get("vp", b.get("points", 0)))) for b in breakdown)
        total = raw.get("total", raw.get("vp"))
        parsed.append({
            "seat": int(raw["seat"]),
            "name": str(raw.get("name") or raw.get("club") or f"Seat {raw['seat']}"),
            "total": int(total) if total is not None else sum(v for _, v in items),
            "breakdown": items,
            "league_position": raw.get("league_position", raw.get("position")),
        })
    return rank_clubs(parsed, winners=named_winners)


def rank_clubs(clubs: list[dict[str, Any]], *, winners: list[int] | None = None) -> FinalScoring:
    """Order clubs best first and mark the winner(s): most VP, then higher in the League table, else shared."""

    def key(club: dict[str, Any]) -> tuple[int, int]:
        position = club["league_position"]
        return (-club["total"], position if position is not None else 99)

    ordered = sorted(clubs, key=lambda c: (*key(c), c["seat"]))
    best = key(ordered[0]) if ordered else None
    scores = []
    for index, club in enumerate(ordered):
        # Clubs level on VP and League position share a rank ("1, 1, 3"), as they share the victory.
        rank = 1 + sum(1 for other in ordered[:index] if key(other) < key(club))
        won = club["seat"] in winners if winners is not None else key(club) == best
        scores.append(ClubScore(seat=club["seat"], name=club["name"], total=club["total"], breakdown=club["breakdown"],
                                league_position=club["league_position"], rank=rank, winner=won))
    return FinalScoring(clubs=tuple(scores))


def engine_final_view(game: GameRecord, events: list[dict[str, Any]]) -> dict[str, Any]:
    """Replay a game's log through the engine and return the table's view of where it ended."""
    import engine  # here, not at the top: exporting a log must work even while the engine cannot load

    profile = engine.load_profile(None if game.profile_source == "demo" else game.profile_source)
    state = engine.replay(profile, events)
    return dict(engine.view(profile, state))


def engine_final_scoring(game: GameRecord, events: list[dict[str, Any]]) -> FinalScoring | None:
    """Replay a game's log through the engine and read its final scoring (None while not over)."""
    return final_from_view(engine_final_view(game, events))


def build_export(store: EventStore, game_id: int, *,
                 scorer: Callable[[GameRecord, list[dict[str, Any]]], FinalScoring | None] | None = None,
                 ) -> GameExport:
    """Gather a game's record, log and (when it is over) final scoring (by the engine unless ``scorer`` is given)."""
    scorer = scorer or engine_final_scoring
    game = store.game(game_id)
    records = store.records(game_id)
    final = None
    if game.status != "abandoned":
        # The engine decides whether the game is over (its last event may have ended it while the log still
        # calls it "playing"); a log marked finished that the engine cannot score is worth a bug report.
        try:
            final = scorer(game, [r.event for r in records])
        except (ImportError, AttributeError, ValueError, KeyError, TypeError) as exc:
            if game.status == "finished":
                raise ExportError(errors.NO_FINAL_SCORING.format(game=game_id, reason=exc)) from exc
    return GameExport(game=game, events=tuple(records), final=final, season=store.season_of(game_id))


def to_json(export: GameExport) -> str:
    """The whole game as one JSON document: the game, its final scoring and every event."""
    game = export.game
    document = {
        "format": "touchline-game",
        "version": EXPORT_VERSION,
        "game": {
            "id": game.id,
            "name": GAME_NAME,
            "created": game.created.isoformat(),
            "ended": game.ended.isoformat() if game.ended else None,
            "minutes": export.minutes,
            "status": game.status,
            "profile_source": game.profile_source,
            "seats": {str(seat): name for seat, name in sorted(game.seats.items())},
            "modules": list(export.rules.modules),
            "options": dict(export.rules.options),
            "season": None if export.season is None else {"id": export.season.id, "name": export.season.name},
        },
        "final": None if export.final is None else {
            "winners": [c.seat for c in export.final.winners],
            "clubs": [
                {
                    "seat": c.seat,
                    "name": c.name,
                    "player": export.player_name(c.seat),
                    "total": c.total,
                    "rank": c.rank,
                    "winner": c.winner,
                    "league_position": c.league_position,
                    "breakdown": dict(c.breakdown),
                }
                for c in export.final.clubs
            ],
        },
        "events": [{"seq": r.seq, "created": r.created.isoformat(), "event": r.event} for r in export.events],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def to_csv(export: GameExport) -> str:
    """The final scoring (one row per club, one column per category) then, after a blank line, the log."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if export.final is not None:
        categories = export.final.categories
        writer.writerow(["rank", "seat", "club", "player", *categories, "total", "winner"])
        for club in export.final.clubs:
            points = dict(club.breakdown)
            writer.writerow([club.rank, club.seat, club.name, export.player_name(club.seat),
                             *(points.get(c, 0) for c in categories), club.total, "yes" if club.winner else "no"])
        writer.writerow([])
    writer.writerow(["seq", "time", "type", "seat", "event"])
    for record in export.events:
        event = record.event
        writer.writerow([record.seq, record.created.isoformat(), event.get("type", ""), event.get("seat", ""),
                         json.dumps(event, ensure_ascii=False, separators=(",", ":"))])
    return out.getvalue()


def bgstats_play(export: GameExport) -> dict[str, Any]:
    """The play as BG Stats' import JSON: game, date, duration, and each player's score and result."""
    if export.final is None:
        raise ExportError(errors.GAME_NOT_OVER.format(game=export.game.id))
    game = export.game
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": f"touchline-{game.id}-{game.created.strftime('%Y%m%d%H%M%S')}",
        "playDate": game.created.astimezone().strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": export.minutes,
        "board": "" if not export.rules.modules else export.rules.text,  # BG Stats' variant field
        "game": {"name": GAME_NAME, "highestWins": True, "noPoints": False, "sourceGameId": "eleven"},
        "players": [
            {
                "name": export.player_name(c.seat),
                "sourcePlayerId": f"seat-{c.seat}",
                "score": c.total,
                "rank": c.rank,
                "winner": c.winner,
                "role": c.name,
                "startPlayer": c.seat == 1,
            }
            for c in export.final.clubs
        ],
    }


def bgstats_link(export: GameExport) -> str:
    """The ``bgstats://`` link that opens the play in BG Stats, prefilled."""
    payload = json.dumps(bgstats_play(export), ensure_ascii=False, separators=(",", ":"))
    return BGSTATS_LINK + quote(payload, safe="")


def render(export: GameExport, fmt: str) -> str:
    """The export in one of FORMATS; ExportError naming the formats for any other."""
    if fmt == "json":
        return to_json(export)
    if fmt == "csv":
        return to_csv(export)
    if fmt == "bgstats":
        return bgstats_link(export) + "\n"
    raise ExportError(errors.UNKNOWN_FORMAT.format(fmt=fmt))
