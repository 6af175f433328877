"""The steps only the page can give (build, Office, Club potential, hire, Sponsor, pass, Suspensions, Objectives)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from fastapi.testclient import TestClient

import engine
from engine import errors as E
from engine.errors import EngineError
from web import choices
from device.running import RunningTable

from .conftest import _lineup, play_until


def _asks(client: TestClient) -> list[dict[str, Any]]:
    response = client.get("/api/choices")
    assert response.status_code == 200, response.text
    return response.json()["asks"]


def _filled(option: dict[str, Any], pick: int = 0) -> dict[str, Any]:
    """The option's event with each field set to one of its choices, as the page's selects send it."""
    event = dict(option["event"])
    for f in option.get("fields", []):
        value = f["choices"][pick % len(f["choices"])]["value"]
        event[f["name"]] = [*event.get(f["name"], []), value] if f.get("list") else value
    return event


def _club(client: TestClient, seat: int) -> dict[str, Any]:
    return next(c for c in client.get("/api/state").json()["game"]["clubs"] if c["seat"] == seat)


def test_no_game_no_asks(client: TestClient) -> None:
    assert _asks(client) == []


def test_the_club_on_turn_is_offered_build_office_potential_and_pass(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    view = play_until(client, game, "tuesday")
    (ask,) = _asks(client)
    assert (ask["seat"], ask["need"]) == (view["turn"], "action")
    kinds = {o["event"]["type"] for o in ask["options"]}
    assert {"build", "office", "potential", "pass", "hire_player", "sponsor"} <= kinds
    forbidden = table.profile.board.potential_forbidden
    refused = next(o for o in ask["options"] if o["event"] == {"type": "potential", "seat": ask["seat"], "stat": forbidden})
    assert refused["why_not"] == E.POTENTIAL_FORBIDDEN.format(stat=forbidden.capitalize())


def test_every_option_offered_without_a_reason_is_accepted_by_the_rules(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    play_until(client, game, "tuesday")
    client.post("/api/actions/correction", json={"seat": 1, "what": "budget", "delta": 20, "reason": "test money"},
                headers=game)
    (ask,) = _asks(client)
    offered = [o for o in ask["options"] if "why_not" not in o]
    assert {o["event"]["type"] for o in offered} >= {"build", "office", "potential", "hire_player", "sponsor", "pass"}
    state = table.session.state
    for option in offered:
        try:
            engine.apply(table.profile, state, _filled(option))
        except EngineError as refusal:
            raise AssertionError(f"{option['label']} was offered but refused: {refusal}") from refusal


def test_building_from_the_page_pays_and_then_that_kind_is_no_longer_offered(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    view = play_until(client, game, "tuesday")
    seat = view["turn"]
    kind = table.profile.board.infrastructure[0]
    client.post("/api/actions/correction", json={"seat": seat, "what": "budget", "delta": kind.cost, "reason": "test"},
                headers=game)
    budget = _club(client, seat)["resources"]["budget"]
    option = next(o for o in _asks(client)[0]["options"] if o["event"].get("kind") == kind.id)
    assert "why_not" not in option
    response = client.post("/api/actions/event", json=option["event"], headers=game)
    assert response.status_code == 200, response.text
    club = _club(client, seat)
    assert [i["kind"] for i in club["infrastructure"]] == [kind.id]
    assert club["resources"]["budget"] == budget - kind.cost
    # The next club is on turn now; a poor club is told what building costs instead of being offered it.
    nxt = _asks(client)[0]
    assert nxt["seat"] != seat
    if _club(client, nxt["seat"])["resources"]["budget"] < kind.cost:
        again = next(o for o in nxt["options"] if o["event"].get("kind") == kind.id)
        # the engine's own sentence, naming the club as people call it
        assert again["why_not"].startswith(f"{_club(client, nxt['seat'])['name']} cannot build {kind.name}")


_FACES = itertools.count()


def _answer(client: TestClient, view: dict[str, Any], wait: dict[str, Any]) -> dict[str, Any]:
    """What the pads and buttons give: a Board meeting card, a die result, keep, a kick-off."""
    seat, need = wait["seat"], wait["need"]
    if need == "kickoff":
        return {"type": "kickoff", "seat": seat}
    if need == "keep_or_reroll":
        return {"type": "keep", "seat": seat}
    if need == "roll":
        # Every face in turn: the same few faces again could tie the same Directors' votes forever.
        return {"type": "roll", "seat": seat, "value": 1 + next(_FACES) % 6, **({"team": wait["team"]} if wait.get("team") else {})}
    if need == "card":
        drawn = {c["board_card"] for c in view["clubs"]}
        cards = client.get("/api/deck", params={"kind": "board_meeting"}).json()
        return {"type": "board_meeting", "seat": seat, "card": next(c["id"] for c in cards if c["id"] not in drawn)}
    raise AssertionError(f"cannot answer {wait}")


def _step(client: TestClient, csrf: dict[str, str], view: dict[str, Any], n: int, pick: int = -1) -> str:
    """Answer what the table waits for first: page steps from /api/choices (option ``pick`` when it can be taken,
    else the last one, which passes), the rest as the pads and buttons would. Returns the event's type."""
    wait = view["awaiting"][0]
    if wait["need"] in ("action", "suspensions", "objective_result"):
        ask = next(a for a in _asks(client) if a["seat"] == wait["seat"] and a["need"] == wait["need"])
        offered = [o for o in ask["options"] if "why_not" not in o and all(f["choices"] for f in o.get("fields", []))]
        event = _filled(offered[pick % len(offered)], n)
    elif wait["need"] == "lineup":
        event = _lineup(next(c for c in view["clubs"] if c["seat"] == wait["seat"]), client.get("/api/rules").json()["pitch"])
    else:
        event = _answer(client, view, wait)
    response = client.post("/api/actions/event", json=event, headers=csrf)
    assert response.status_code == 200, (event, response.text)
    return str(event["type"])


def test_a_token_built_from_the_page_offers_its_action_on_a_later_turn(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    """The Club training camp has no card to tap: its action (train a footballer) is a page step, with the pick."""
    view = play_until(client, game, "tuesday")
    seat = view["turn"]
    camp = table.profile.board.infrastructure_kind("training_camp")
    client.post("/api/actions/correction", json={"seat": seat, "what": "budget", "delta": camp.cost, "reason": "test"},
                headers=game)
    build = next(o for o in _asks(client)[0]["options"] if o["event"].get("kind") == camp.id)
    assert client.post("/api/actions/event", json=build["event"], headers=game).status_code == 200
    view = play_until(client, game, "wednesday")
    while view["turn"] != seat:
        assert client.post("/api/actions/event", json={"type": "pass", "seat": view["turn"]}, headers=game).status_code == 200
        view = client.get("/api/state").json()["game"]
    use = next(o for o in _asks(client)[0]["options"] if o["event"]["type"] == "use_card")
    players = [p["id"] for p in _club(client, seat)["players"]]
    assert [c["value"] for c in use["fields"][0]["choices"]] == players
    need = dict(camp.abilities[0].cost)["fitness"]

    def fitness_to(value: int) -> dict[str, Any]:
        delta = value - _club(client, seat)["resources"]["fitness"]
        if delta:
            client.post("/api/actions/correction", json={"seat": seat, "what": "fitness", "delta": delta,
                                                         "reason": "test"}, headers=game)
        return next(o for o in _asks(client)[0]["options"] if o["event"]["type"] == "use_card")

    assert f"it costs {need} Fitness" in fitness_to(need - 1)["why_not"]
    use = fitness_to(need)
    assert "why_not" not in use
    untrained = next(p["id"] for p in _club(client, seat)["players"] if not p["trained"])
    response = client.post("/api/actions/event", json={**use["event"], "targets": [untrained]}, headers=game)
    assert response.status_code == 200, response.text
    assert next(p for p in _club(client, seat)["players"] if p["id"] == untrained)["trained"]


@pytest.mark.slow
def test_a_whole_game_is_played_with_the_page_choices_alone(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    """Every turn, Suspension choice and Objective answered from /api/choices (rolls and cards as the table gives them)."""
    seen: set[str] = set()
    for n in range(3000):
        view = client.get("/api/state").json()["game"]
        if view["stage"] == "over":
            break
        # Mostly pass, so the game moves on; every third page step, another action the page offers.
        seen.add(_step(client, game, view, n, pick=n if n % 3 == 0 else -1))
    else:
        raise AssertionError(f"the game did not end: {view['stage']} week {view['week']}, {view['awaiting'][:2]}")
    assert "pass" in seen
    assert len(seen & {"build", "office", "potential", "hire_player", "hire_youngster", "hire_staff", "sponsor"}) >= 2
    assert client.get("/api/state").json()["game"]["final"]


def test_unpaid_maintenance_is_settled_by_choosing_cards_on_the_page(
        client: TestClient, table: RunningTable, game: dict[str, str]) -> None:
    view = play_until(client, game, "tuesday")
    seat = view["turn"]
    client.post("/api/actions/correction", json={"seat": seat, "what": "budget", "delta": 10, "reason": "test"},
                headers=game)
    hire = next(o for o in _asks(client)[0]["options"] if o["event"]["type"] == "hire_staff")
    assert client.post("/api/actions/event", json=_filled(hire), headers=game).status_code == 200
    view = play_until(client, game, "matchday")
    budget = _club(client, seat)["resources"]["budget"]
    client.post("/api/actions/correction", json={"seat": seat, "what": "budget", "delta": -budget, "reason": "broke"},
                headers=game)
    for n in range(200):
        view = client.get("/api/state").json()["game"]
        wait = view["awaiting"][0]
        if wait["need"] == "suspensions":
            break
        assert view["stage"] == "matchday", "the week ended without asking for Suspensions"
        _step(client, game, view, n)
    (ask,) = [a for a in _asks(client) if a["need"] == "suspensions"]
    assert ask["seat"] == seat and ask["count"] == wait["count"] >= 1
    (option,) = ask["options"]
    chosen = option["fields"][0]["choices"][0]["value"]
    event = {**option["event"], "cards": [chosen] * ask["count"]}
    assert client.post("/api/actions/event", json=event, headers=game).status_code == 200
    club = _club(client, seat)
    held = next(x for x in club["staff"] + club["players"] if x["id"] == chosen)
    assert held["suspension"] >= 2 * ask["count"] - 1  # 2 tokens each (one may already be gone with the week)
    assert not any(a["need"] == "suspensions" for a in _asks(client))


def test_suspensions_ask_for_one_card_per_missing_euro_from_the_club() -> None:
    club = {"seat": 2, "name": "Riverside Town", "players": [{"id": "vet_01", "name": "Old Hand"}],
            "staff": [{"id": "st_02", "name": "Physio"}]}
    (ask,) = choices.asks(engine.load_profile(), {"clubs": [club], "awaiting": [{"seat": 2, "need": "suspensions", "count": 2}]})
    (option,) = ask["options"]
    assert [f["name"] for f in option["fields"]] == ["cards", "cards"]
    assert {c["value"] for c in option["fields"][0]["choices"]} == {"vet_01", "st_02"}
    assert _filled(option, 1) == {"type": "suspensions", "seat": 2, "cards": ["vet_01", "vet_01"]}


def test_an_objective_the_data_cannot_check_is_asked_with_three_answers() -> None:
    profile = engine.load_profile()
    card = profile.cards_of("objective")[0]
    club = {"seat": 1, "name": "Middleham", "objective": card.id}
    (ask,) = choices.asks(profile, {"clubs": [club], "awaiting": [{"seat": 1, "need": "objective_result", "card": card.id}]})
    assert card.name in ask["title"]
    assert [o["event"]["result"] for o in ask["options"]] == ["fulfilled", "perfect", "missed"]


def test_the_referees_suspension_among_several_footballers_is_one_step_on_the_page() -> None:
    # 003 l.69, Unjust: "Place a [Suspension token] on a Player card with any of these tags": the club chooses which
    # when several fit; the page offers each of them, and only them, as the engine lists them.
    from engine.modules import referee as R
    from tests.engine.helpers import club, demo
    from tests.engine.modules.test_referee import _unjust_with_several

    profile = demo()
    state, fits = _unjust_with_several()
    ask = next(a for a in choices.asks(profile, engine.view(profile, state), state) if a["need"] == R.SUSPEND_EVENT)
    assert ask["seat"] == 1 and [o["event"]["card"] for o in ask["options"]] == fits
    assert [o["label"] for o in ask["options"]] == [f"Suspend {profile.cards[c].name} (1 token(s))" for c in fits]
    chosen = engine.apply(profile, state, ask["options"][0]["event"]).state
    assert club(chosen, 1).held(fits[0]).suspension == 1  # type: ignore[union-attr]
    assert all(a["need"] != R.SUSPEND_EVENT for a in choices.asks(profile, engine.view(profile, chosen), chosen))
