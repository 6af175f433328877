"""A stand-in table for the web app's tests, benchmark and demos: a small game with simulated pads and screens.

It plays the part ``device/`` plays on a real table: it holds the game, turns page actions and simulated taps and
presses into changes, keeps the announcements, and pushes a snapshot to every open page after each change.
"""

from __future__ import annotations

import copy
import io
import random
import socket
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from PIL import Image, ImageDraw, ImageFont

from web.app import close_live, create_app
from web.interface import SimulatedHardware
from web.live import Hub

PIN = "2468"
SCREEN_SIZE = (128, 64)
NO_UNDO = "There is nothing to undo: no event has been recorded yet."
NO_GAME = "No game is running: start a new game first."
UNKNOWN_FIELD = "There is no tracked number called {field!r} for this club."
NOT_MATCHDAY = "Seat {seat} cannot set a lineup now: it is {day}, not Matchday."
NO_TAP = "No card has been tapped for enrolment: start enrolment, then tap a card on any pad."
NOT_WAITING = "The table is not waiting for a card to enrol: press \"Enrol a card\" first."
NO_CLUB = "There is no club at seat {seat}."

DECK: list[dict[str, Any]] = [
    {"id": "dir_accountant", "kind": "director", "name": "The Accountant"},
    {"id": "dir_legend", "kind": "director", "name": "Club Legend"},
    {"id": "dir_investor", "kind": "director", "name": "Foreign Investor"},
    {"id": "dir_mayor", "kind": "director", "name": "Former Mayor"},
    {"id": "dir_ultra", "kind": "director", "name": "Ultras Leader"},
    {"id": "dir_doctor", "kind": "director", "name": "Team Doctor"},
    {"id": "bm_tv_rights", "kind": "board_meeting", "name": "TV rights"},
    {"id": "bm_stadium_leak", "kind": "board_meeting", "name": "Leaking roof"},
    {"id": "bm_fan_protest", "kind": "board_meeting", "name": "Fan protest"},
    {"id": "opp_downtown", "kind": "opponent", "name": "Downtown United"},
    {"id": "opp_steelchester", "kind": "opponent", "name": "Steelchester FC"},
    {"id": "opp_harbour", "kind": "opponent", "name": "Harbour Athletic"},
    {"id": "opp_valley", "kind": "opponent", "name": "Valley Rovers"},
    {"id": "pl_gonzalez", "kind": "player", "name": "Gonzalez"},
    {"id": "pl_hernandez", "kind": "player", "name": "Hernandez"},
    {"id": "yg_kowalski", "kind": "youngster", "name": "Kowalski"},
    {"id": "vet_moreau", "kind": "veteran", "name": "Moreau"},
    {"id": "st_steward", "kind": "staff", "name": "Steward"},
    {"id": "st_doctor", "kind": "staff", "name": "Doctor"},
    {"id": "sp_brewery", "kind": "sponsor", "name": "Local Brewery"},
    {"id": "obj_youth", "kind": "objective", "name": "Youth academy"},
    {"id": "obj_fortress", "kind": "objective", "name": "Fortress"},
    {"id": "tac_counter", "kind": "tactic", "name": "Counter-attack"},
]
_NAMES = {card["id"]: card["name"] for card in DECK}
_VOTES = {"dir_accountant": "yellow", "dir_legend": "blue", "dir_investor": "yellow", "dir_mayor": "blue",
          "dir_ultra": "blue", "dir_doctor": "yellow"}
_DECISIONS = {"yellow": {"budget": 2, "fanbase": -1}, "blue": {"fanbase": 1, "budget": -1}}
# League VP by position, as on the rulebook's table.
_LEAGUE_VP = [15, 12, 9, 6, 3, 1, 0, -1]


def _sample_players() -> list[dict[str, Any]]:
    return [
        {"id": "pl_gonzalez", "name": "Gonzalez", "jersey": 9, "section": "fwd", "style": "attack", "strength": 3,
         "trained": False, "injury": 0, "suspension": 0, "vp": 0},
        {"id": "yg_kowalski", "name": "Kowalski", "jersey": 6, "section": "mid", "style": "defence", "strength": 2,
         "trained": False, "injury": 1, "suspension": 0, "vp": 0},
        {"id": "vet_moreau", "name": "Moreau", "jersey": 3, "section": "def", "style": "defence", "strength": 2,
         "trained": True, "injury": 0, "suspension": 0, "vp": 1},
    ]


def _new_club(seat: int, name: str, directors: list[str], opponents: list[str]) -> dict[str, Any]:
    return {
        "seat": seat, "name": name,
        "directors": [{"id": d, "name": _NAMES.get(d, d)} for d in directors],
        "resources": {"budget": 3, "fanbase": 2, "operation": 1, "fitness": 4},
        "stats": {"budget": 2, "fanbase": 2, "operation": 2, "fitness": 2},
        "maintenance": {"players": 1, "staff": 0, "infrastructure": 0, "due": 1},
        "office": {"step": 0, "vp": 0},
        "sponsors": [], "staff": {}, "infrastructure": [],
        "players": _sample_players() if seat == 1 else [],
        "opponents": [{"id": o, "name": _NAMES.get(o, o)} for o in opponents],
        "vp": 0, "points": 0,
    }


def _league(game: dict[str, Any]) -> list[dict[str, Any]]:
    rows = [{"team": c["name"], "seat": c["seat"], "kind": "club", "active": True, "points": c["points"]}
            for c in game["clubs"]]
    rows += [dict(t) for t in game["teams"]]
    rows.sort(key=lambda r: -r["points"])
    for row in rows:
        # Teams level on points share the position, as on the printed League table.
        row["position"] = 1 + sum(1 for other in rows if other["points"] > row["points"])
        row["vp"] = _LEAGUE_VP[min(row["position"], len(_LEAGUE_VP)) - 1] if row["position"] <= 8 else -3
    return rows


class StandInSim:
    """Simulated pads, buttons and screens: one tap pad, one button and one screen per seat."""

    def __init__(self, table: StandInTable) -> None:
        """Belongs to one stand-in table."""
        self._table = table
        self.on_pad: dict[str, str | None] = {}

    def _seats(self) -> list[int]:
        game = self._table.game
        return [c["seat"] for c in game["clubs"]] if game else [1, 2]

    def layout(self) -> dict[str, Any]:
        """Seats with their pads, buttons and screens: ids and labels."""
        seats = self._seats()
        return {
            "seats": [{"seat": s, "label": f"Seat {s}"} for s in seats],
            "pads": [{"id": f"seat{s}", "seat": s, "label": f"Seat {s} pad", "card": self.on_pad.get(f"seat{s}")}
                     for s in seats],
            "buttons": [{"id": f"seat{s}", "seat": s, "label": f"Seat {s} button"} for s in seats],
            "screens": [{"id": f"seat{s}", "seat": s, "label": f"Seat {s} screen",
                         "width": SCREEN_SIZE[0], "height": SCREEN_SIZE[1]} for s in seats],
        }

    def place(self, pad: str, card_id: str) -> None:
        """Put a card on a pad."""
        self.on_pad[pad] = card_id
        self._table.tapped(int(pad.removeprefix("seat")), card_id)

    def lift(self, pad: str) -> None:
        """Take the card away."""
        self.on_pad[pad] = None
        self._table.changed()

    def press(self, button: str) -> None:
        """A short press: roll the die the seat is asked for."""
        self._table.pressed(int(button.removeprefix("seat")), hold=False)

    def hold(self, button: str) -> None:
        """A long press: keep the result instead of rerolling."""
        self._table.pressed(int(button.removeprefix("seat")), hold=True)

    def frame_png(self, screen: str) -> bytes:
        """The screen's lines drawn in white on black, 128×64, as PNG."""
        lines = self._table.screen_lines(int(screen.removeprefix("seat")))
        image = Image.new("1", SCREEN_SIZE, 0)
        draw = ImageDraw.Draw(image)
        font = ImageFont.load_default(size=11)
        for row, line in enumerate(lines[:5]):
            draw.text((2, 1 + row * 12), line, fill=1, font=font)
        out = io.BytesIO()
        image.save(out, format="PNG")
        return out.getvalue()


class StandInTable:
    """A table with a small sample game, its own dice, simulated hardware and live updates."""

    def __init__(self, pin: str = PIN, seed: int = 7, simulated: bool = True) -> None:
        """A table with no game yet; ``seed`` makes its dice repeatable."""
        self.pin = pin
        self.game: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        self.history: list[dict[str, Any]] = []
        self.enrolment: dict[str, Any] | None = None
        self.enrolled: dict[str, str] = {}
        self.actions: list[dict[str, Any]] = []
        self._undo: list[tuple[Any, ...]] = []
        self._screens: dict[int, list[str]] = {}
        self._versions: dict[int, int] = {}
        self._dice = random.Random(seed)
        self._lock = threading.RLock()
        self._sim = StandInSim(self) if simulated else None
        self.hub = Hub(self.snapshot)

    # -- the Table interface -----------------------------------------------------------------------------------

    @property
    def sim(self) -> SimulatedHardware | None:
        """The simulated hardware (None when made with ``simulated=False``)."""
        return self._sim

    def snapshot(self) -> dict[str, Any]:
        """Game view, log, chart history, screens and enrolment, JSON-safe."""
        with self._lock:
            view = None
            if self.game is not None:
                view = {k: v for k, v in self.game.items() if k != "teams"}
                view["league"] = _league(self.game)
            seats = [c["seat"] for c in self.game["clubs"]] if self.game else [1, 2]
            return copy.deepcopy({
                "game": view,
                "log": self.log[-50:],
                "history": self.history,
                "screens": {f"seat{s}": {"seat": s, "version": self._versions.get(s, 0),
                                         "lines": self.screen_lines(s)} for s in seats},
                "enrolment": self.enrolment,
                "simulation": self._sim is not None,
            })

    def subscribe(self) -> AsyncIterator[dict[str, Any]]:
        """Every change, as a fresh snapshot."""
        return self.hub.subscribe()

    async def submit(self, action: dict[str, Any]) -> dict[str, Any]:
        """Apply one page action; raise ValueError with a sentence when refused."""
        with self._lock:
            handler = getattr(self, f"_do_{action['type']}")
            before = self._save()
            result = handler(action)
            if action["type"] not in ("undo", "enrol_start", "enrol_cancel", "enrol"):
                self._undo.append(before)
            self.actions.append(action)
        self.changed()
        return result

    def deck(self) -> list[dict[str, Any]]:
        """Every card of the sample deck."""
        return [dict(card) for card in DECK]

    # -- what the simulated hardware calls ---------------------------------------------------------------------

    def changed(self) -> None:
        """Push a new snapshot to every open page."""
        self.hub.publish()

    def screen_lines(self, seat: int) -> list[str]:
        """What a seat's screen says now."""
        if self.enrolment is not None:
            return ["Enrolment", "Tap a card on", "any pad now"]
        if self.game is None:
            return ["Touchline", "No game yet:", "open the page", "to start one"]
        return self._screens.get(seat) or [f"Seat {seat}", "Week " + str(self.game["week"]), self.game["day"].title()]

    def _say(self, seat: int, *lines: str) -> None:
        self._screens[seat] = list(lines)
        self._versions[seat] = self._versions.get(seat, 0) + 1

    def tapped(self, seat: int, card_id: str) -> None:
        """A card lay down on a seat's pad."""
        with self._lock:
            if self.enrolment is not None:
                self.enrolment = {"state": "tapped", "uid": "04-A3-1F-%02X" % (len(self.enrolled) + 16),
                                  "pad": f"seat{seat}"}
                for s in self._screens_all():
                    self._versions[s] = self._versions.get(s, 0) + 1
            elif self.game is not None:
                self._board_card(seat, card_id)
        self.changed()

    def _screens_all(self) -> list[int]:
        return [c["seat"] for c in self.game["clubs"]] if self.game else [1, 2]

    def pressed(self, seat: int, hold: bool) -> None:
        """A seat's button was pressed (or held)."""
        with self._lock:
            club = self._club(seat) if self.game else None
            if club is not None and club.get("board_card") and not club.get("board_done"):
                self._board_roll(club, self._dice.randint(1, 6))
            elif club is not None:
                self._say(seat, f"Seat {seat}", "Nothing to roll", "right now")
        self.changed()

    # -- the sample game ---------------------------------------------------------------------------------------

    def _save(self) -> tuple[Any, ...]:
        return copy.deepcopy((self.game, self.log, self.history, self._screens))

    def _club(self, seat: int) -> dict[str, Any]:
        if self.game is None:
            raise ValueError(NO_GAME)
        for club in self.game["clubs"]:
            if club["seat"] == seat:
                return club
        raise ValueError(NO_CLUB.format(seat=seat))

    def _announce(self, kind: str, seat: int | None, text: str, **fields: Any) -> dict[str, Any]:
        item = {"kind": kind, "seat": seat, "text": text,
                "week": self.game["week"] if self.game else 0, **fields}
        self.log.append(item)
        return item

    def _record_week(self) -> None:
        assert self.game is not None
        self.history = [h for h in self.history if h["week"] != self.game["week"]]
        self.history.append({"week": self.game["week"], "clubs": {
            str(c["seat"]): {"points": c["points"], **c["resources"]} for c in self.game["clubs"]}})

    def _do_new_game(self, action: dict[str, Any]) -> dict[str, Any]:
        clubs = []
        for spec in action["clubs"]:
            directors = spec.get("directors") or ["dir_accountant", "dir_legend", "dir_mayor"]
            clubs.append(_new_club(spec["seat"], spec["name"], directors, spec.get("opponents", [])))
        teams = [{"team": _NAMES[o], "id": o, "seat": None, "kind": "opponent", "active": True, "points": 0}
                 for o in ("opp_downtown", "opp_steelchester", "opp_harbour")]
        self.game = {"week": 1, "weeks": 8, "day": "monday", "turn": None, "stage": "monday", "over": False,
                     "clubs": clubs, "teams": teams, "final": None,
                     "awaiting": [{"seat": c["seat"], "need": "card", "kinds": ["board_meeting"]} for c in clubs]}
        self.log = []
        self.history = []
        self._screens = {}
        for club in clubs:
            self._say(club["seat"], club["name"][:20], "Board meeting:", "tap a card")
        self._announce("setup", None, f"A new game started with {len(clubs)} clubs.")
        self._record_week()
        return {"clubs": len(clubs)}

    def _board_card(self, seat: int, card_id: str) -> None:
        club = self._club(seat)
        if not card_id.startswith("bm_") or club.get("board_card"):
            self._say(seat, "Not now:", _NAMES.get(card_id, card_id)[:20], "is not asked for")
            return
        club["board_card"] = card_id
        assert self.game is not None
        self.game["awaiting"] = [a for a in self.game["awaiting"] if a["seat"] != seat] + [
            {"seat": seat, "need": "roll", "die": "d6", "purpose": "board_meeting", "rerollable": True}]
        self._announce("board_card", seat, f"Seat {seat} drew the Board meeting card {_NAMES[card_id]}.",
                       card=card_id)
        self._say(seat, _NAMES[card_id][:20], "Press the button", "to roll the d6")

    def _board_roll(self, club: dict[str, Any], roll: int) -> None:
        votes = {d["name"]: _VOTES.get(d["id"], "yellow") if roll % 2 else
                 ("blue" if _VOTES.get(d["id"]) == "yellow" else "yellow") for d in club["directors"]}
        decision = max(("yellow", "blue"), key=lambda colour: list(votes.values()).count(colour))
        for resource, amount in _DECISIONS[decision].items():
            club["resources"][resource] = max(0, club["resources"][resource] + amount)
        club["board_done"] = True
        seat = club["seat"]
        assert self.game is not None
        self.game["awaiting"] = [a for a in self.game["awaiting"] if a["seat"] != seat]
        effects = ", ".join(f"{amount:+d} {resource}" for resource, amount in _DECISIONS[decision].items())
        self._announce("board_meeting", seat,
                       f"Seat {seat} rolled {roll}: the {decision} decision wins ({effects}).",
                       card=club["board_card"], roll=roll, votes=votes, decision=decision, effects=effects)
        self._say(seat, f"Rolled {roll}", f"{decision.title()} wins", effects[:21])
        if not self.game["awaiting"]:
            self.game["day"] = "matchday"
            self.game["stage"] = "matchday"
            self.game["awaiting"] = [{"seat": c["seat"], "need": "lineup"} for c in self.game["clubs"]]
        self._record_week()

    def _do_lineup(self, action: dict[str, Any]) -> dict[str, Any]:
        club = self._club(action["seat"])
        assert self.game is not None
        if self.game["day"] != "matchday":
            raise ValueError(NOT_MATCHDAY.format(seat=action["seat"], day=self.game["day"].title()))
        zones = []
        goals = against = 0
        for zone in ("def_left", "def_centre", "def_right", "mid_left", "mid_centre", "mid_right",
                     "fwd_left", "fwd_centre", "fwd_right"):
            ours = [p for p in action["placements"] if p["zone"] == zone]
            attack = sum(1 for p in ours if p["style"] == "attack")
            scored = max(0, attack - 1)
            goals += scored
            zones.append({"zone": zone, "ours": len(ours), "theirs": 1, "scored": scored, "conceded": 0,
                          "text": f"{len(ours)} of ours against 1 of theirs: "
                                  + ("we score." if scored else "nobody scores.")})
        result = "win" if goals > against else "draw" if goals == against else "loss"
        club["points"] += {"win": 3, "draw": 1, "loss": 0}[result]
        club["resources"]["fitness"] = max(0, club["resources"]["fitness"]
                                           - sum(1 for p in action["placements"] if p.get("card")))
        self._announce("match", club["seat"], f"{club['name']} {goals}–{against} Downtown United: a {result}.",
                       opponent="Downtown United", score=[goals, against], result=result, zones=zones)
        self.game["awaiting"] = [a for a in self.game["awaiting"] if a["seat"] != club["seat"]]
        self._say(club["seat"], f"{goals}-{against} {result.upper()}", "Downtown United")
        self._record_week()
        return {"score": [goals, against], "result": result, "zones": zones}

    def _do_correction(self, action: dict[str, Any]) -> dict[str, Any]:
        club = self._club(action["seat"] or 1)
        group, _, name = action["field"].partition(".")
        holder = club.get(group) if name else club
        key = name or group
        if not isinstance(holder, dict) or not isinstance(holder.get(key), int):
            raise ValueError(UNKNOWN_FIELD.format(field=action["field"]))
        old = holder[key]
        holder[key] = action["value"]
        self._announce("correction", club["seat"],
                       f"Corrected {action['field']} of seat {club['seat']} from {old} to {action['value']}: "
                       f"{action['reason']}.")
        self._record_week()
        return {"was": old}

    def _do_undo(self, _: dict[str, Any]) -> dict[str, Any]:
        if not self._undo:
            raise ValueError(NO_UNDO)
        self.game, self.log, self.history, self._screens = self._undo.pop()
        for seat in self._screens_all():
            self._versions[seat] = self._versions.get(seat, 0) + 1
        return {"undone": True}

    def _do_enrol_start(self, _: dict[str, Any]) -> dict[str, Any]:
        self.enrolment = {"state": "waiting"}
        for seat in self._screens_all():
            self._versions[seat] = self._versions.get(seat, 0) + 1
        return {}

    def _do_enrol_cancel(self, _: dict[str, Any]) -> dict[str, Any]:
        self.enrolment = None
        for seat in self._screens_all():
            self._versions[seat] = self._versions.get(seat, 0) + 1
        return {}

    def _do_enrol(self, action: dict[str, Any]) -> dict[str, Any]:
        if self.enrolment is None:
            raise ValueError(NOT_WAITING)
        if self.enrolment.get("uid") != action["uid"]:
            raise ValueError(NO_TAP)
        if action["card"] not in _NAMES:
            raise ValueError(f"There is no card {action['card']!r} in the deck.")
        self.enrolled[action["uid"]] = action["card"]
        self.enrolment = None
        for seat in self._screens_all():
            self._versions[seat] = self._versions.get(seat, 0) + 1
        return {"uid": action["uid"], "card": action["card"]}


class ServedApp:
    """The web app served by uvicorn on a free loopback port in a thread (for browser tests and benchmarks)."""

    def __init__(self, table: StandInTable, startup_seconds: float = 10.0) -> None:
        """Serve the app around ``table``; use as a context manager (or call ``start``/``stop``)."""
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.table = table
        self.url = f"http://127.0.0.1:{self.port}"
        self._startup = startup_seconds
        self.server = uvicorn.Server(uvicorn.Config(create_app(table), host="127.0.0.1", port=self.port,
                                                    log_level="warning", timeout_graceful_shutdown=2))
        self._thread = threading.Thread(target=self.server.run, name="touchline-web", daemon=True)

    def start(self) -> ServedApp:
        """Start serving; return once the server accepts connections."""
        self._thread.start()
        deadline = time.monotonic() + self._startup
        while not self.server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError(f"the web app did not start on {self.url}")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        """End the live streams, ask the server to stop and wait for it."""
        close_live(self.server.config.app)
        self.server.should_exit = True
        self._thread.join(timeout=10)

    def __enter__(self) -> ServedApp:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()
