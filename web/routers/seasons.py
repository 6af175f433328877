"""Seasons: anyone reads the standings of a league over several games and each game's final scoring; making a
season and adding or taking out its games needs the table's PIN."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, HTTPException, Path, Query
from fastapi.responses import Response
from pydantic import Field

from web import errors
from web.actions import Body
from web.deps import TableDep, Unlocked
from web.interface import Seasons

router = APIRouter(prefix="/api", tags=["seasons"])
REFUSED = {409: {"description": "Refused (a taken name, a game in another season, a game not over); `detail` says "
                                "why. Nothing changed."},
           404: {"description": "No such season or game; `detail` says which there are."},
           403: {"description": "No PIN session, a bad CSRF token or another site's request. Nothing changed."}}
NO_SEASONS = "This table keeps no seasons (it has no game log)."
T = TypeVar("T")
GameId = Annotated[int, Field(ge=1, le=2**31, description="a game's number, as `touchline games` lists it")]
SeasonId = Annotated[int, Path(ge=1, le=2**31, description="the season's number (GET /api/seasons)")]


class SeasonName(Body):
    """A new season's name."""

    name: Annotated[str, Field(max_length=200, description="e.g. \"Autumn league\" (at most 60 characters once trimmed)")]


class SeasonGames(Body):
    """Games to add to a season, or to take out of it."""

    games: list[GameId] = Field(min_length=1, max_length=100)


async def get_seasons(table: TableDep) -> Seasons:
    """The table's seasons; 404 on a table that keeps none."""
    seasons = getattr(table, "seasons", None)
    if seasons is None:
        raise errors.NotFound(NO_SEASONS)
    return seasons  # type: ignore[no-any-return]


SeasonsDep = Annotated[Seasons, Depends(get_seasons)]


def answer(call: Callable[[], T]) -> T:
    """Run one call on the seasons; a refusal becomes a 404 or 409 carrying its sentence."""
    try:
        return call()
    except LookupError as missing:
        raise HTTPException(status_code=404, detail=_sentence(missing)) from missing
    except ValueError as refusal:
        raise HTTPException(status_code=409, detail=_sentence(refusal)) from refusal


def _sentence(exc: Exception) -> str:
    # A KeyError's str() adds quotes: take the sentence it was given.
    return exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)


# Plain `def` handlers: each reads the log (and may replay a game through the engine) in a worker thread, so the
# live pages are never held up by it.

@router.get("/seasons", summary="Every season, oldest first")
def season_list(seasons: SeasonsDep) -> dict[str, Any]:
    """``seasons``: each with its ``id``, ``name`` and how many ``games`` it has."""
    return {"seasons": answer(seasons.kept)}


@router.get("/seasons/{season_id}", summary="A season's standings and its games", responses=REFUSED)
def season_standings(season_id: SeasonId, seasons: SeasonsDep) -> dict[str, Any]:
    """Clubs best first (most VP, then most wins, then the better average rank), and each game with its link to its
    final scoring; a game not over (or abandoned) counts for nothing and says so in its ``note``."""
    return answer(lambda: seasons.standings(season_id))


@router.get("/seasons/{season_id}/export", summary="A season's standings as a JSON or CSV file", responses=REFUSED,
            response_class=Response)
def season_export(season_id: SeasonId, seasons: SeasonsDep,
                  format: Annotated[Literal["json", "csv"], Query(description="json or csv")] = "json") -> Response:
    """The same file as ``touchline export season NAME --format json|csv``."""
    text, name = answer(lambda: seasons.export(season_id, format))
    media = "application/json" if format == "json" else "text/csv; charset=utf-8"
    return Response(text, media_type=media, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.post("/seasons", summary="Make a season", responses=REFUSED)
def season_create(body: SeasonName, _: Unlocked, seasons: SeasonsDep) -> dict[str, Any]:
    """An empty season; its name is trimmed, at most 60 characters, and not another season's (in any case)."""
    return answer(lambda: seasons.create(body.name))


@router.post("/seasons/{season_id}/games", summary="Add games to a season", responses=REFUSED)
def season_add(season_id: SeasonId, body: SeasonGames, _: Unlocked, seasons: SeasonsDep) -> dict[str, Any]:
    """Games at the end of the season, all or none (a game counts in one season only); the season's standings."""
    return answer(lambda: seasons.add(season_id, list(body.games)))


@router.post("/seasons/{season_id}/remove", summary="Take games out of a season", responses=REFUSED)
def season_remove(season_id: SeasonId, body: SeasonGames, _: Unlocked, seasons: SeasonsDep) -> dict[str, Any]:
    """The games are kept and may join another season; the season's standings."""
    return answer(lambda: seasons.remove(season_id, list(body.games)))


@router.post("/seasons/{season_id}/delete", summary="Forget a season", responses=REFUSED)
def season_delete(season_id: SeasonId, _: Unlocked, seasons: SeasonsDep) -> dict[str, Any]:
    """The season only: its games are kept."""
    return answer(lambda: seasons.delete(season_id))


@router.get("/games", summary="Every kept game, newest first")
def game_list(seasons: SeasonsDep) -> dict[str, Any]:
    """``games``: each with its ``id``, ``status``, start, ``clubs`` and the ``season`` it counts in (or null)."""
    return {"games": answer(seasons.games)}


@router.get("/games/{game_id}/final", summary="One game's final scoring", responses=REFUSED)
def game_final(game_id: Annotated[int, Path(ge=1, le=2**31)], seasons: SeasonsDep) -> dict[str, Any]:
    """The engine's final scoring of a game that is over (409 while it is not): ``game`` and ``final``."""
    return answer(lambda: seasons.final(game_id))
