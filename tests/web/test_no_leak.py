"""No secret reaches a page or a stream that may not show it (issue: "A seat's own page").

The shipped scenarios are played step by step on the simulated table; after every step every GET route of the app
(found in the app itself, so a new route is checked without being listed here) and the live stream are read as the
public and TV viewer (no cookie) and as each seat holding its own page, and none may hold a secret the rules have not
revealed to that viewer:

- a club's Objective card (id or name) before the Final scoring, and its Epic League second Objective and the one it
  discarded at the Winter Break (003 l.477), except to that club;
- an Opponent card of a club's stack not yet revealed on a Matchday (not even to its own club: the stack is face
  down);
- a club's secret arrangement of its jersey markers for a half of a match between clubs until both have arranged
  (003 l.100–167), except to that club;
- a club's Betting bet (where its token lies, how much) until every club has answered (003 l.377–432), except to that
  club.

Left out, each for its reason: seat N's own page and its routes read *as seat N* (they are that club's, and may show
its own secrets; as every other viewer they are read like any route), and the routes that change something (POST:
the owner's and the seat pages' actions, none of which a viewer reads).  A route whose answer is the same whatever
the game and whoever asks (the deck's card list, the rules' limits, the pages' shells, the documentation) cannot carry
a secret of this game, so it is checked to stay so instead of for the cards it names.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from device.replay import parse, run_step
from device.running import RunningTable
from device.sim import SimulatedTable
from engine.rules.league import week_opponent
from web.app import create_app, load_routes
from web.security import seat_cookie

from .conftest import PIN

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
HIDDEN_STAGES = ("setup", "monday", "tuesday", "wednesday", "thursday")
SEATS = (1, 2, 3, 4)


# -- what is secret now, from the engine's state (the truth) -----------------------------------------------------


def secrets_now(profile: Any, state: Any) -> dict[int, dict[str, Any]]:
    """Each club's secrets at this moment: ``words`` (its Objectives' ids and names), the ``opponents`` not even the
    club has seen, its hidden ``arrangements`` (sets of placed markers) and its hidden ``bets`` ((seat, spaces))."""
    out: dict[int, dict[str, Any]] = {}
    modules = set(state.game.modules) if state.game is not None else set()
    for club in state.clubs:
        cards: set[str] = set()
        if state.stage not in ("final_scoring", "over") and club.objective:
            cards.add(club.objective)
        if "epic_league" in modules:
            epic = state.slice("epic_league")
            cards |= {c for s, c in epic.second if s == club.seat}
            cards |= {c for s, c, r in epic.winter if s == club.seat and r == "missed"}
        words = {profile.cards[c].name for c in cards if c in profile.cards} | cards
        seen = {week_opponent(state, club, w) for w in range(1, state.week)}
        if state.week and state.stage not in HIDDEN_STAGES:
            seen.add(week_opponent(state, club, state.week))
        opponents = {c for c in club.opponents if c not in seen}
        arrangements = []
        if "club_matches" in modules:
            for fixture in state.slice("club_matches").fixtures:
                for a in fixture.secret:
                    if a.seat == club.seat:
                        arrangements.append(frozenset((z, j, c, s) for z, j, c, s in a.players))
        bets = []
        if "betting" in modules:
            betting = state.slice("betting")
            if not betting.revealed:
                bets = [(b.seat, tuple(b.spaces)) for b in betting.bets if b.seat == club.seat]
        out[club.seat] = {"words": words, "opponents": opponents, "arrangements": arrangements, "bets": bets}
    return out


def _walk_json(payload: Any, markers: set[frozenset[Any]], bets: list[tuple[Any, Any]]) -> None:
    """Collect every set of placed jersey markers (a list of zone/jersey dicts) and every bet-like dict."""
    if isinstance(payload, dict):
        if "seat" in payload and isinstance(payload.get("on"), list):
            bets.append((payload.get("seat"), tuple(payload["on"])))
        for value in payload.values():
            _walk_json(value, markers, bets)
    elif isinstance(payload, list):
        placed = frozenset((d.get("zone"), d.get("jersey"), d.get("card"), d.get("style"))
                           for d in payload if isinstance(d, dict) and "zone" in d and "jersey" in d)
        if placed:
            markers.add(placed)
        for value in payload:
            _walk_json(value, markers, bets)


class Answer:
    """One answer of a route, read once: its text, and the marker sets and bets its JSON holds."""

    def __init__(self, body: bytes) -> None:
        self.text = body.decode("utf-8", errors="replace")
        self.markers: set[frozenset[Any]] = set()
        self.bets: list[tuple[Any, Any]] = []
        try:
            payload = json.loads(self.text)
        except ValueError:
            return
        _walk_json(payload, self.markers, self.bets)


def leaks(answer: Answer, secrets: dict[int, dict[str, Any]], viewer: int | str) -> list[str]:
    """What of ``secrets`` an answer (JSON, HTML, a stream's event) shows ``viewer`` that it may not see."""
    found = []
    for seat, secret in secrets.items():
        if seat != viewer:
            found += [f"seat {seat}'s Objective {w!r}" for w in sorted(secret["words"]) if w in answer.text]
            found += [f"seat {seat}'s secret arrangement ({len(a)} markers)" for a in secret["arrangements"]
                      if a in answer.markers]
            found += [f"seat {seat}'s secret bet on {'|'.join(bet[1])}" for bet in secret["bets"] if bet in answer.bets]
        found += [f"seat {seat}'s face-down Opponent card {c!r}" for c in sorted(secret["opponents"]) if c in answer.text]
    return found


# -- reading every route as every viewer -----------------------------------------------------------------------------


def _walk(routes: Any, prefix: str = "") -> Iterator[tuple[str, set[str]]]:
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:  # a router the app includes
            yield from _walk(included.routes, prefix + route.include_context.prefix)
        elif getattr(route, "methods", None):
            yield prefix + route.path, set(route.methods)


def get_routes(app: FastAPI) -> list[str]:
    """Every GET route of the app (its own and its routers', those it loads on first use too), as a pattern with
    ``{seat}``-like parameters."""
    return sorted({path for path, methods in _walk(load_routes(app).routes) if "GET" in methods})


STREAMS = ("/api/live",)
"""Routes that never end: read by their first event (``first_event``)."""


PARAMETERS = {"{seat}": "{seat}", "{screen}": "seat{seat}.screen", "{game_id}": "{game}", "{season_id}": "1"}
"""How each path parameter of a route is filled in for a seat (and the game being played); a route with another one
makes the test say so."""


def fill(path: str, seat: int, game: int | None = None) -> str:
    """A route's path with its parameters filled in for ``seat`` (a screen's frame: that seat's screen) and the game
    being played."""
    for name, value in PARAMETERS.items():
        path = path.replace(name, value.format(seat=seat, game=game or 1))
    assert "{" not in path, f"{path}: say in PARAMETERS how this route's parameter is filled in, so it is read too"
    return path


async def asgi_get(app: FastAPI, path: str, query: str = "", cookie: str = "", *, stream: bool = False) -> bytes:
    """What a browser's GET of ``path?query`` receives (through the whole app: its middleware, the route and its
    dependencies); with ``stream``, the first bytes of a stream that never ends (its first snapshot, or its refusal)."""
    body: list[bytes] = []
    done = asyncio.Event()

    async def receive() -> dict[str, Any]:
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body":
            body.append(message.get("body", b""))
            if not message.get("more_body") or (stream and b"event: snapshot" in message.get("body", b"")):
                done.set()

    headers = [(b"host", b"table.local")] + ([(b"cookie", cookie.encode())] if cookie else [])
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": query.encode(), "root_path": "",
             "headers": headers, "client": ("127.0.0.1", 5000), "server": ("table.local", 80), "state": {}}
    await asyncio.wait_for(app(scope, receive, send), timeout=10)
    return b"".join(body)


class Viewers:
    """The app of a simulated table, read as the public and as each seat on its own page."""

    def __init__(self, table: SimulatedTable) -> None:
        self.table = table
        self.running = RunningTable(table.session, table.hardware, pin=PIN)
        self.app = create_app(self.running)
        self.routes = get_routes(self.app)
        self.cookies: dict[int | str, str] = {"table": ""}
        self._game: int | None = None
        self.before: dict[str, bytes] = {}
        """Each route's answer before any game: one that never differs from it names no secret of a game."""
        self.shown: set[frozenset[Any]] = set()
        """Every set of jersey markers the public was shown so far (an earlier week's lineup): an arrangement the
        same as one of them tells nobody anything new."""
        self.shown_bets: set[tuple[Any, ...]] = set()
        """Every bet the public was shown so far (last week's, settled): the same bet again tells nothing new."""
        self._read: dict[bytes, Answer] = {}

    def seats(self) -> list[int]:
        state = self.table.session.state
        return [c.seat for c in state.clubs] if state is not None else []

    def unlock_seats(self) -> None:
        """Give each seat's browser its own page again when a new game began."""
        if self.running.game_id == self._game:
            return
        self._game = self.running.game_id
        for seat in self.seats():
            self.cookies[seat] = f"{seat_cookie(seat)}={self.app.state.guard.grant_seat(seat)}"

    async def answers(self, viewer: int | str) -> list[tuple[str, bytes]]:
        """Every route and the live stream as ``viewer`` reads them now (its own seat's page as itself left out)."""
        cookie = self.cookies[viewer]
        out = []
        for pattern in self.routes:
            for seat in SEATS:
                if "{seat}" not in pattern and "{screen}" not in pattern and seat > 1:
                    break  # one route for the whole table
                if pattern.startswith(("/seat/", "/api/seat/")) and seat == viewer:
                    continue  # the seat's own page, as that seat: its own secrets are its to see
                path = fill(pattern, seat, self.running.game_id)
                if pattern in STREAMS:
                    query = f"seat={viewer}" if isinstance(viewer, int) else ""
                    out.append((f"{path}?{query} stream", await asgi_get(self.app, path, query, cookie, stream=True)))
                    continue
                query = "limit=200" if pattern == "/api/log" else ""  # the whole log, not its last page
                out.append((path, await asgi_get(self.app, path, query, cookie)))
                if isinstance(viewer, int) and pattern in ("/api/state", "/api/log"):
                    own = "&".join(filter(None, (query, f"seat={viewer}")))
                    out.append((f"{path}?seat={viewer}", await asgi_get(self.app, path, own, cookie)))
        return out

    def check(self, where: str) -> list[str]:
        """Every leak now, as ``where: route as viewer: what``."""
        self.unlock_seats()
        state = self.table.session.state
        secrets = secrets_now(self.table.session.profile, state) if state is not None else {}
        for secret in secrets.values():
            secret["arrangements"] = [a for a in secret["arrangements"] if a not in self.shown]
            secret["bets"] = [b for b in secret["bets"] if b not in self.shown_bets]
        viewers: list[int | str] = ["table", *self.seats()]

        async def read_all() -> list[list[tuple[str, bytes]]]:
            return [await self.answers(viewer) for viewer in viewers]

        found = []
        read: dict[bytes, Answer] = {}
        for viewer, answers in zip(viewers, asyncio.run(read_all())):
            for route, body in answers:
                if state is None:
                    self.before.setdefault(route, body)
                    continue
                if self.before.get(route) == body:
                    continue  # the same as before any game: a catalogue, not this game's
                answer = read.get(body) or self._read.get(body) or Answer(body)
                read[body] = answer
                if viewer == "table":
                    self.shown |= answer.markers
                    self.shown_bets |= set(answer.bets)
                found += [f"{where}: {route} as {'the public' if viewer == 'table' else f'seat {viewer}'}: {what}"
                          for what in leaks(answer, secrets, viewer)]
        self._read = read  # an answer unchanged since the last step is not read again
        return found


def play_checked(name: str, *, stop_at: int | None = None) -> Iterator[list[str]]:
    """Play a shipped scenario step by step; after each step yield the leaks found."""
    scenario = parse(SCENARIOS / name)
    with tempfile.TemporaryDirectory(prefix="touchline-noleak-") as tmp, \
            SimulatedTable.open(Path(tmp) / "touchline.db", table=scenario.table, dice=scenario.dice) as table:
        viewers = Viewers(table)
        viewers.check("before the game")
        for step in scenario.steps[:stop_at]:
            run_step(table, step)
            yield viewers.check(f"{name} {step.where}")


def first_leaks(name: str) -> list[str]:
    """The leaks of the first step of a scenario that has any (none: [])."""
    steps = play_checked(name)
    try:
        return next((found for found in steps if found), [])
    finally:
        steps.close()


@pytest.mark.slow
@pytest.mark.timeout(1200)  # a whole game read as five viewers at every step: minutes on a busy machine
@pytest.mark.parametrize("scenario", ["club-matches-game.toml", "epic-league-game.toml", "betting-game.toml",
                                      "full-game.toml"])
def test_no_secret_reaches_a_route_or_the_live_stream_at_any_step(scenario: str) -> None:
    found: list[str] = []
    for step_leaks in play_checked(scenario):
        found += step_leaks
        assert len(found) < 20, "\n".join(found)
    assert found == []


# -- the checker catches what it is there for ------------------------------------------------------------------------


def test_the_checker_reports_an_objective_a_view_lets_out_on_the_routes_and_the_stream(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.views

    monkeypatch.setattr(engine.views, "_hidden", lambda state, club, viewer: ())  # every secret shown to everyone
    found = first_leaks("club-matches-game.toml")
    assert any("/api/state as the public: seat 1's Objective 'obj_01'" in f for f in found)
    assert any("/api/live? stream as the public: seat 2's Objective" in f for f in found)
    assert any("/api/state?seat=3 as seat 3: seat 4's Objective" in f for f in found)


def test_the_checker_reports_a_face_down_opponent_card_in_the_log_shown_to_its_own_seat(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from device.game_log import Reader

    shown = Reader.line  # as before the stack was kept face down from its own seat too
    monkeypatch.setattr(Reader, "line", lambda self, line, viewer: shown(
        self, {k: v for k, v in line.items() if k != "face_down"}, viewer))
    found = first_leaks("full-game.toml")
    assert any("/api/log?seat=2 as seat 2: seat 2's face-down Opponent card" in f for f in found)
    assert not any("as the public" in f for f in found)  # the others never saw the cards


def test_the_checker_reports_an_arrangement_and_a_bet_only_to_those_who_may_not_see_them() -> None:
    arrangement = frozenset({("def_left", 2, None, "defence"), ("mid_centre", 7, "pl_03", "attack")})
    secrets = {1: {"words": {"obj_01", "Commercial powerhouse"}, "opponents": set(), "arrangements": [arrangement],
                   "bets": [(1, ("3/1/0/0", "3/0/0/0"))]}}
    payload = {"clubs": [{"seat": 1, "match": {"lineup": [{"zone": z, "jersey": j, "card": c, "style": s}
                                                          for z, j, c, s in sorted(arrangement, key=str)]}}],
               "modules": {"betting": {"bets": [{"seat": 1, "on": ["3/1/0/0", "3/0/0/0"], "stake": 2}]}},
               "log": [{"text": "Seat 1 keeps Commercial powerhouse."}]}
    answer = Answer(json.dumps(payload).encode())
    assert leaks(answer, secrets, "table") == [
        "seat 1's Objective 'Commercial powerhouse'", "seat 1's secret arrangement (2 markers)",
        "seat 1's secret bet on 3/1/0/0|3/0/0/0"]
    assert leaks(answer, secrets, 2) == leaks(answer, secrets, "table")
    assert leaks(answer, secrets, 1) == []  # its own
    other = Answer(json.dumps({"bets": [{"seat": 1, "on": ["1/1/0/0"]}], "lineup": []}).encode())
    assert leaks(other, secrets, "table") == []
