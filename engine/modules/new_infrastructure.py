"""New Stadium Infrastructure tokens (003 l.277–287): Youth Academy, Analytic Center, Kids Fan Zone, Hall of Fame and
Tunnel, most with the Production keyword.

"During Setup, add all new Stadium Infrastructure tokens to the supply. Any player may build them the same as any
other regular Stadium Infrastructure token on an empty space of their Stadium board (except for the Stands #3 and
#4, and Adband #3 spaces)" (l.281); "Production is a new keyword ... On Monday, during Production, resolve their
effects" (l.283).  The tokens are data (``new_infrastructure.toml``, written as the board's ``[[infrastructure]]``);
the module adds them to every board of a game that chooses it.  A new token takes an empty improvement space, the
spaces the board's own four improvements are built on, so every token built leaves one space fewer (the board says
how many: ``infrastructure_spaces``; Unique Setup cards may change it); the base rules check the spaces.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from engine import host
from engine.cards import Board, InfrastructureKind
from engine.loader import FIELD_PROBLEM, DataError, Fields, infrastructure_kinds
from engine.state import State

NAME: Final = "new_infrastructure"
FILE: Final = "new_infrastructure.toml"
SPACE: Final = "improvement"
ON_IMPROVEMENT: Final = ('a new token is built on an empty improvement space, not on a Stands or adboard space '
                         '(003 l.281): leave space out or write "improvement"')
SAME_ID: Final = 'id "{id}" is a Stadium Infrastructure kind of board.toml already; give the new token its own id'


def _read(fields: Fields, cards: Mapping[str, Any]) -> tuple[InfrastructureKind, ...]:
    """Read ``new_infrastructure.toml``: ``[[infrastructure]]`` tables as in board.toml, each on an improvement space."""
    kinds = infrastructure_kinds(fields, "infrastructure")
    for kind in kinds:
        if kind.space != SPACE or kind.stands or kind.adboard_slots:
            field = "stands" if kind.stands else "adboard_slots" if kind.adboard_slots else "space"
            raise DataError(FIELD_PROBLEM.format(where=f"{FILE}, token {kind.id}", field=field, problem=ON_IMPROVEMENT))
    fields.done()
    return kinds


def _check(kinds: tuple[InfrastructureKind, ...], board: Board) -> None:
    """The new tokens' ids differ from the board's own kinds."""
    ids = {k.id for k in board.infrastructure}
    for kind in kinds:
        if kind.id in ids:
            raise DataError(FIELD_PROBLEM.format(where=f"{FILE}, token {kind.id}", field="id", problem=SAME_ID.format(id=kind.id)))


def kinds_of(profile: Any) -> tuple[InfrastructureKind, ...]:
    """The deck's new Stadium Infrastructure tokens."""
    return profile.module_data[NAME][FILE]  # type: ignore[no-any-return]


_boards: dict[int, tuple[Board, Board]] = {}


def _board(profile: Any, state: State, seat: int | None, board: Board) -> Board:
    # every board of the game, the League table's too, so a token's name is known wherever it is said
    found = _boards.get(id(board))
    if found is not None and found[0] is board:
        return found[1]
    out = replace(board, infrastructure=board.infrastructure + kinds_of(profile))
    if len(_boards) > 256:
        _boards.clear()
    _boards[id(board)] = (board, out)
    return out


def _view(profile: Any, state: State, viewer: Any) -> list[tuple[str, Any]]:
    kinds = [{"kind": k.id, "name": k.name, "cost": k.cost, "vp": k.vp,
              "production": any(a.timing == "production" for a in k.abilities),
              "text": " ".join(a.text for a in k.abilities if a.text)} for k in kinds_of(profile)]
    panel = {"title": "New Stadium Infrastructure (built on an empty improvement space)",
             "items": [f"{k['name']} ({k['cost']} €, {k['vp']} VP): {k['text']}" for k in kinds]}
    return [(NAME, {"kinds": kinds, "panel": panel})]


NEW_INFRASTRUCTURE = host.register(host.Module(
    name=NAME,
    title="New Stadium Infrastructure",
    doc="Five new Stadium Infrastructure tokens, most with Production on Monday, built on the Stadium board's empty "
        "improvement spaces (003 l.277–287).",
    hooks={"board": _board, "view": _view},
    data=(host.DataFile(FILE, _read, doc="the new tokens, written as board.toml's [[infrastructure]]", check=_check),),
))
