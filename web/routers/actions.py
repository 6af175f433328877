"""Changes to the game made from the page, all behind the table's PIN (session cookie + CSRF token + Origin)."""

from __future__ import annotations

import random
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response

import engine
from engine.errors import EngineError
from engine.legal import deal_opponents
from web import actions, errors, models
from web.deps import GuardDep, TableDep, Unlocked, profile_of
from web.interface import Table
from web.security import COOKIE, check_origin, request_client, set_session_cookie

router = APIRouter(prefix="/api", tags=["actions"])
REFUSED = {409: {"description": "The rules refuse this now; `detail` says why. Nothing changed."},
           403: {"description": "No PIN session, a bad CSRF token or another site's request. Nothing changed."}}


async def submit(table: Table, action: actions.TableAction) -> dict[str, Any]:
    """Hand one action to the table; a refusal by the rules becomes a 409 carrying its sentence."""
    try:
        result = await table.submit(action)
    except (ValueError, EngineError) as refusal:
        # EngineError covers UnknownCard, which is a KeyError (whose str() would add quotes).
        sentence = refusal.args[0] if refusal.args and isinstance(refusal.args[0], str) else str(refusal)
        raise HTTPException(status_code=409, detail=sentence) from refusal
    return {"ok": True, "result": result}


@router.post("/session", summary="Unlock this browser with the table's PIN", responses=REFUSED)
def login(body: models.Login, request: Request, response: Response, guard: GuardDep) -> dict[str, Any]:
    """Check the PIN and give this browser a session cookie; returns the CSRF token for later changes."""
    check_origin(request)
    old = guard.session_id(request)
    token = guard.login(body.pin, request_client(request), has_session=old is not None)
    if old is not None:  # unlocked again: the new session replaces the old one
        guard.logout(old)
    sid = guard.session_id_of(token) or ""
    set_session_cookie(response, token, secure=request.url.scheme == "https", max_age=guard.seconds_left(sid))
    return {"unlocked": True, "csrf": guard.csrf_token(sid)}


@router.post("/session/logout", summary="Lock this browser again", responses=REFUSED)
def logout(sid: Unlocked, response: Response, guard: GuardDep) -> dict[str, Any]:
    """End this browser's session on the table (its cookie no longer unlocks anything) and forget the cookie."""
    guard.logout(sid)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
    return {"unlocked": False}


@router.post("/session/logout-all", summary="Lock every browser", responses=REFUSED)
def logout_all(_: Unlocked, response: Response, guard: GuardDep) -> dict[str, Any]:
    """End every session, this one too: every browser has to give the PIN again (after the PIN was seen, say)."""
    count = guard.logout_all()
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
    return {"unlocked": False, "ended": count, "message": errors.LOGGED_OUT_ALL.format(count=count)}


@router.post("/actions/new-game", summary="Start a new game", responses=REFUSED)
async def new_game(body: actions.NewGame, _: Unlocked, table: TableDep) -> dict[str, Any]:
    """Clubs and seats, Directors, Opponents dealt, Objectives and module options; the rest is dealt by the table
    (or, with ``deal`` false, tapped on each seat's pad when the table asks for it)."""
    return await submit(table, body)


@router.post("/actions/lineup", summary="Record a club's Matchday lineup", responses=REFUSED)
async def lineup(body: actions.Lineup, _: Unlocked, table: TableDep) -> dict[str, Any]:
    """Ten jersey markers in the nine zones and Fanbase on the Stands; 1 Fitness per footballer card playing."""
    return await submit(table, body)


def _in_play(table: Table) -> Any:
    """The engine's state of the game in play; a 409 saying so when there is none."""
    state = table.game_state()
    if state is None:
        raise HTTPException(status_code=409, detail=errors.NO_GAME)
    return state


@router.post("/lineup/check", summary="Ask the rules about a lineup being built", responses=REFUSED)
def lineup_check(body: models.LineupDraft, _: Unlocked, table: TableDep) -> dict[str, Any]:
    """The engine tries the jersey markers placed so far, one more at a time (all ten: the lineup itself):
    ``ok``, or ``why`` in the rules' words and ``index``, the marker at fault in the order placed (null: the
    lineup as a whole, its Stands or its cost).  Nothing changes at the table."""
    refusal = engine.lineup_why_not(profile_of(table), _in_play(table), body.seat, body.placed(), body.stands, body.assign)
    return {"ok": refusal is None, "why": None, "index": None, **(refusal or {})}


@router.post("/lineup/fill", summary="Let the rules place the rest of a lineup", responses=REFUSED)
def lineup_fill(body: models.LineupDraft, _: Unlocked, table: TableDep) -> dict[str, Any]:
    """The markers placed so far kept where they are and the rest placed by the engine: the club's strongest fit
    footballers its Fitness pays for, defenders at the back, the setup's 5 attack and 5 defence kept.  A 409 with
    the rules' sentence when the markers placed are refused or leave no room.  Nothing changes at the table."""
    try:
        lineup = engine.fill_lineup(profile_of(table), _in_play(table), body.seat, body.placed(), body.stands)
    except EngineError as refusal:
        raise HTTPException(status_code=409, detail=str(refusal.args[0] if refusal.args else refusal)) from refusal
    return {"players": lineup["players"], "stands": lineup["stands"]}


@router.post("/actions/tactic", summary="Play a Tactic card this match", responses=REFUSED)
async def tactic(body: actions.TacticPlayed, _: Unlocked, table: TableDep) -> dict[str, Any]:
    """Exactly one Tactic card, after the lineup and before the kick-off."""
    return await submit(table, body)


@router.post("/actions/kickoff", summary="Resolve a club's match", responses=REFUSED)
async def kickoff(body: actions.Kickoff, _: Unlocked, table: TableDep) -> dict[str, Any]:
    """The nine zones compared; the result's announcements hold the zone-by-zone breakdown."""
    return await submit(table, body)


@router.post("/actions/correction", summary="Change a tracked number by hand, with a reason", responses=REFUSED)
async def correction(body: actions.Adjust, _: Unlocked, table: TableDep) -> dict[str, Any]:
    """Recorded as an ``adjust`` event like any other, so it can be undone."""
    return await submit(table, body)


@router.post("/actions/event", summary="Any event the rules know", responses=REFUSED)
async def event(body: actions.EventBody, _: Unlocked, table: TableDep) -> dict[str, Any]:
    """For playing without hardware or fixing what the pads missed: the event as the engine describes it."""
    return await submit(table, body)


@router.post("/choices/deal-opponents", summary="Deal a club's Opponent cards at random for the new game's form",
             responses=REFUSED)
def deal(body: models.DealOpponents, _: Unlocked, table: TableDep) -> dict[str, Any]:
    """The table shuffles the Opponent deck; the engine deals from it as the game chosen does (its Division's cards,
    one per team, as many as its weeks need, none another seat holds).  Nothing changes at the table."""
    profile = profile_of(table)
    shuffled = [card.id for card in profile.cards_of("opponent")]
    random.SystemRandom().shuffle(shuffled)  # the table's shuffle: the engine itself never draws
    try:
        cards = deal_opponents(profile, {"modules": body.modules, "options": body.options}, shuffled, body.taken)
    except EngineError as refusal:
        raise HTTPException(status_code=409, detail=str(refusal)) from refusal
    return {"cards": cards}


@router.post("/actions/undo", summary="Undo the last event", responses=REFUSED)
async def undo(_: Unlocked, table: TableDep) -> dict[str, Any]:
    """Drop the last event and refold the game."""
    return await submit(table, actions.Undo())


@router.post("/actions/enrol/start", summary="Wait for a card to be tapped on any pad", responses=REFUSED)
async def enrol_start(_: Unlocked, table: TableDep) -> dict[str, Any]:
    """The next tap on any pad is held for enrolment instead of played."""
    return await submit(table, actions.EnrolStart())


@router.post("/actions/enrol", summary="Bind the tapped tag to a card of the deck", responses=REFUSED)
async def enrol(body: actions.Enrol, _: Unlocked, table: TableDep) -> dict[str, Any]:
    """From now on this tag means this card."""
    return await submit(table, body)


@router.post("/actions/enrol/cancel", summary="Stop waiting for a card to enrol", responses=REFUSED)
async def enrol_cancel(_: Unlocked, table: TableDep) -> dict[str, Any]:
    """Taps are played normally again."""
    return await submit(table, actions.EnrolCancel())
