"""``make soak``: an accelerated 8-hour day of a shop's demo table, against the real ``touchline run --sim``.

All day long, at once:

- 50 phones keep the live page open (each from its own address, reconnecting after every pulled plug);
- a player on the owner's unlocked browser plays game after game from the page (any move the rules allow, chosen
  at random), and a visitor taps random cards on random pads and presses random buttons on the virtual table;
- a stranger guesses PINs and sends large bodies, without pause;
- the owner unlocks a fresh browser with the PIN every few seconds;
- the plug is pulled (SIGKILL) 100 times at random moments, and the table is started again on the same log.

After every restart the page must show the game the log holds (the log folded by the engine), every change the
page acknowledged must be in the log, and the owner must never be refused.  The table's memory is sampled all day;
the busiest moment of the last hour may be at most 10 MB above that of the first.  The figures are printed, and the
exit code says whether every promise held.

``SOAK_HOUR_SECONDS`` sets how long an hour lasts (default 120 s, about 20 minutes in all with the restarts).
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

import engine
from engine.legal import legal_events
from engine.views import TABLE
from tests.e2e.touchline_run import TouchlineRun, client

HOURS = 8
KILLS = int(os.environ.get("SOAK_KILLS", "100"))
PHONES = 50
MEMORY_LIMIT_MB = 10.0
HOUR_SECONDS = float(os.environ.get("SOAK_HOUR_SECONDS", "120"))
NEW_GAME = {"clubs": [{"seat": s, "name": name} for s, name in
                      ((1, "Red Lions"), (2, "Blue Birds"), (3, "Green Town"), (4, "Gold Harbour"))]}


@dataclass
class Day:
    """What happened, counted by the hour where it matters."""

    hour: int = 0
    up: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)
    counts: Counter[tuple[int, str]] = field(default_factory=Counter)
    peak_rss: dict[int, float] = field(default_factory=dict)
    acked: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """(game id, event) of every change the page acknowledged (200), in order."""
    problems: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, what: str, n: int = 1) -> None:
        """Count something in the current hour."""
        with self.lock:
            self.counts[(self.hour, what)] += n

    def total(self, what: str) -> int:
        """A count over the whole day."""
        return sum(n for (_, name), n in self.counts.items() if name == what)

    def problem(self, text: str) -> None:
        """A broken promise, kept for the verdict."""
        with self.lock:
            self.problems.append(text)
        print(f"  PROBLEM: {text}", flush=True)


def _events(db: Path, game: int) -> list[dict[str, Any]]:
    """A game's events as the log holds them (read-only, beside the running table)."""
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True, timeout=10)
    try:
        return [json.loads(j) for (j,) in conn.execute("SELECT json FROM events WHERE game_id = ? ORDER BY seq",
                                                       (game,))]
    finally:
        conn.close()


def _games(db: Path) -> list[tuple[int, str]]:
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True, timeout=10)
    try:
        return [(int(i), str(s)) for i, s in conn.execute("SELECT id, status FROM games ORDER BY id")]
    finally:
        conn.close()


# -- the people at the table ----------------------------------------------------------------------------------------


def phone(table: TouchlineRun, day: Day, address: str) -> None:
    """A phone with the live page open all day: it reconnects whenever the stream breaks."""
    with client(address, timeout=httpx.Timeout(10, read=30)) as http:
        while not day.stop.is_set():
            if not day.up.wait(0.5):
                continue
            try:
                with http.stream("GET", table.url + "/api/live") as stream:
                    for line in stream.iter_lines():
                        if line.startswith("event: snapshot"):
                            day.count("live snapshots")
                        if day.stop.is_set():
                            return
            except httpx.HTTPError:
                time.sleep(0.5 + random.random())


def _unlocked(table: TouchlineRun, day: Day, address: str, turn: Any) -> None:
    """A browser unlocked with the PIN (once: the session outlives the restarts) taking ``turn(http, headers)``
    over and over while the table is up."""
    with client(address) as http:
        headers: dict[str, str] = {}
        while not day.stop.is_set():
            if not day.up.wait(0.5):
                continue
            try:
                if not headers:
                    headers = table.unlock(http)
                if turn(http, headers) == "locked":
                    headers = {}
            except (httpx.HTTPError, sqlite3.Error, ValueError, KeyError):
                time.sleep(0.2)  # the plug was pulled under us


def player(table: TouchlineRun, day: Day, db: Path, profile: Any, rng: random.Random) -> None:
    """The owner's browser plays from the page: any move the rules allow now, game after game."""
    folded: list[Any] = [None, 0, None]  # game, events folded, state

    def turn(http: httpx.Client, headers: dict[str, str]) -> str | None:
        shown = http.get(table.url + "/api/state").json()
        game = shown.get("game_id")
        if game is None or shown["game"]["stage"] == "over":
            if http.post(table.url + "/api/actions/new-game", json=NEW_GAME, headers=headers).status_code == 200:
                day.count("games started")
            return None
        events = _events(db, game)
        if folded[0] != game or folded[1] > len(events):
            folded[:] = [game, 0, engine.initial_state(profile)]
        for event in events[folded[1]:]:
            folded[2] = engine.apply(profile, folded[2], event).state
        folded[1] = len(events)
        choices = legal_events(profile, folded[2])
        if not choices:
            time.sleep(0.05)  # the table is about to answer by itself (a die it rolls, a window closing)
            return None
        # Passing ends a turn at once; other moves first, so the games go somewhere.
        event = rng.choice([c for c in choices if c["type"] != "pass"] or choices)
        answer = http.post(table.url + "/api/actions/event", json=event, headers=headers)
        if answer.status_code == 200:
            with day.lock:
                day.acked.append((game, event))
            day.count("actions acknowledged")
        elif answer.status_code == 403:
            day.problem(f"the owner's unlocked browser was refused: {answer.text}")
            return "locked"
        return None

    _unlocked(table, day, "127.0.0.5", turn)


def visitor(table: TouchlineRun, day: Day, rng: random.Random, cards: list[str], pads: list[str],
            buttons: list[str]) -> None:
    """Someone at the virtual table taps random cards and presses random buttons (never a hold of undo)."""

    def turn(http: httpx.Client, headers: dict[str, str]) -> None:
        if rng.random() < 0.6:
            pad = rng.choice(pads)
            http.post(table.url + "/api/sim/place", json={"pad": pad, "card": rng.choice(cards)}, headers=headers)
            http.post(table.url + "/api/sim/lift", json={"pad": pad}, headers=headers)
        else:
            http.post(table.url + "/api/sim/press", json={"button": rng.choice(buttons)}, headers=headers)
        day.count("random taps")
        time.sleep(0.1)

    _unlocked(table, day, "127.0.0.4", turn)


def _large(size: int) -> Any:
    block = b"x" * (1 << 20)
    for _ in range(size >> 20):
        yield block


def stranger(table: TouchlineRun, day: Day, rng: random.Random) -> None:
    """A stranger's phone: wrong PINs without pause, and large bodies (declared, and chunked)."""
    with client("127.0.0.2", timeout=30) as http:
        while not day.stop.is_set():
            if not day.up.wait(0.5):
                continue
            try:
                answer = http.post(table.url + "/api/session", json={"pin": f"{rng.randrange(10**6):06d}"})
                if answer.status_code == 403:
                    day.count("PIN guesses refused")
                elif answer.status_code == 200:
                    day.problem("a stranger guessed the PIN")
                if rng.random() < 0.1:
                    size = 100 << 20 if rng.random() < 0.5 else 8 << 20
                    headers = {"content-type": "application/json"}
                    if size > 10 << 20:
                        headers["content-length"] = str(size)
                    try:
                        big = http.post(table.url + rng.choice(["/api/session", "/api/actions/new-game"]),
                                        content=_large(size), headers=headers)
                        if big.status_code in (403, 413):
                            day.count("large bodies refused")
                    except httpx.TransportError:
                        day.count("large bodies refused")  # cut off while still sending
            except httpx.HTTPError:
                time.sleep(0.2)


def owner(table: TouchlineRun, day: Day) -> None:
    """The owner unlocks a fresh browser with the PIN every few seconds: it must always be let in."""
    while not day.stop.is_set():
        if not day.up.wait(0.5):
            continue
        with client("127.0.0.3") as http:
            try:
                answer = http.post(table.url + "/api/session", json={"pin": table.pin})
            except httpx.HTTPError:
                continue  # the plug was pulled: not a lockout
            if answer.status_code == 200:
                day.count("owner unlocks")
            else:
                day.count("owner refused")
                day.problem(f"the owner was refused: {answer.status_code} {answer.text}")
        day.stop.wait(2.0)


def memory(table: TouchlineRun, day: Day) -> None:
    """Sample the table's resident memory; keep the highest of each hour."""
    while not day.stop.is_set():
        if day.up.is_set():
            try:
                rss = table.rss_mb()
            except (OSError, AttributeError, AssertionError):
                rss = 0.0
            with day.lock:
                day.peak_rss[day.hour] = max(day.peak_rss.get(day.hour, 0.0), rss)
        time.sleep(0.25)


# -- checks after each pulled plug ----------------------------------------------------------------------------------


def check_log(day: Day, db: Path) -> None:
    """Every acknowledged change is in its game's log, in order."""
    with day.lock:
        acked = list(day.acked)
    by_game: dict[int, list[dict[str, Any]]] = {}
    for game, event in acked:
        by_game.setdefault(game, []).append(event)
    for game, wanted in by_game.items():
        log = iter(_events(db, game))
        for event in wanted:
            if not any(all(logged.get(k) == v for k, v in event.items()) for logged in log):
                day.problem(f"game {game}: the acknowledged {event} is not in the log")
                break


def check_state(table: TouchlineRun, day: Day, db: Path, profile: Any) -> bool:
    """The page shows the log folded by the engine (asked again while the table is still answering by itself)."""
    for _ in range(20):
        with client() as http:
            shown = http.get(table.url + "/api/state").json()
        game = shown["game_id"]
        if game is None:
            return True
        log = _events(db, game)
        if shown["game"]["events"] != len(log):
            time.sleep(0.1)
            continue
        folded = json.loads(json.dumps(engine.view(profile, engine.replay(profile, log), TABLE)))
        if folded == shown["game"]:
            return True
        time.sleep(0.1)
    day.problem(f"after a restart the page does not show what the log of game {game} holds")
    return False


def main() -> int:
    """Play the day; print the figures; 0 when every promise held."""
    rng = random.Random(int(os.environ.get("SOAK_SEED", "20261123")))
    profile = engine.load_profile()
    folder = Path(tempfile.mkdtemp(prefix="touchline-soak-"))
    db = folder / "touchline.db"
    table = TouchlineRun(db)
    day = Day()
    per_hour = [KILLS // HOURS + (1 if h < KILLS % HOURS else 0) for h in range(HOURS)]
    print(f"Soak: an 8-hour shop day, {HOUR_SECONDS:.0f} s an hour, {KILLS} pulled plugs, {PHONES} phones on the "
          f"live page; the log is {db}", flush=True)
    started = time.monotonic()
    table.start()
    cards = [c["id"] for c in httpx.get(table.url + "/api/deck").json()]
    layout = httpx.get(table.url + "/api/sim/layout").json()
    pads = [p["id"] for p in layout["pads"]]
    buttons = [b["id"] for b in layout["buttons"] if b["role"] != "undo"]
    day.up.set()
    people = [threading.Thread(target=phone, args=(table, day, f"127.0.1.{i + 1}"), daemon=True)
              for i in range(PHONES)]
    people += [threading.Thread(target=player, args=(table, day, db, profile, random.Random(rng.random())),
                                daemon=True),
               threading.Thread(target=visitor, args=(table, day, random.Random(rng.random()), cards, pads, buttons),
                                daemon=True),
               threading.Thread(target=stranger, args=(table, day, random.Random(rng.random())), daemon=True),
               threading.Thread(target=owner, args=(table, day), daemon=True),
               threading.Thread(target=memory, args=(table, day), daemon=True)]
    for person in people:
        person.start()
    restarts_ok = 0
    try:
        for hour in range(HOURS):
            day.hour = hour
            hour_ends = time.monotonic() + HOUR_SECONDS
            for kill in range(per_hour[hour]):
                segment = (hour_ends - time.monotonic()) / (per_hour[hour] - kill)
                time.sleep(max(0.5, segment * (0.5 + rng.random())) if kill < per_hour[hour] - 1
                           else max(0.5, hour_ends - time.monotonic()))
                day.up.clear()
                table.kill()
                day.count("pulled plugs")
                check_log(day, db)
                table.start()
                day.up.set()
                restarts_ok += check_state(table, day, db, profile)
            with day.lock:
                print(f"  hour {hour + 1}: {day.counts[(hour, 'actions acknowledged')]} actions acknowledged, "
                      f"{day.counts[(hour, 'random taps')]} random taps, {day.counts[(hour, 'live snapshots')]} live "
                      f"snapshots, peak memory {day.peak_rss.get(hour, 0):.1f} MB", flush=True)
    finally:
        day.stop.set()
        day.up.set()
        for person in people:
            person.join(timeout=40)
        code = table.stop() if table.process and table.process.poll() is None else 0
    check_log(day, db)
    minutes = (time.monotonic() - started) / 60
    games = _games(db)
    first, last = day.peak_rss.get(0, 0.0), day.peak_rss.get(HOURS - 1, 0.0)
    print()
    print(f"Soak figures ({minutes:.1f} min of real time, 2 shared cores; the table's process measured):")
    print(f"  pulled plugs (SIGKILL):              {day.total('pulled plugs')}")
    print(f"  state equal to the log after restart: {restarts_ok} of {day.total('pulled plugs')}")
    print(f"  actions acknowledged by the page:     {len(day.acked)} (lost: "
          f"{sum(1 for p in day.problems if 'not in the log' in p)})")
    print(f"  games: {len(games)} ({Counter(s for _, s in games)})")
    print(f"  random taps and presses:              {day.total('random taps')}")
    print(f"  live snapshots received by {PHONES} phones: {day.total('live snapshots')}")
    print(f"  stranger: PIN guesses refused {day.total('PIN guesses refused')}, large bodies refused "
          f"{day.total('large bodies refused')}")
    print(f"  owner: unlocked {day.total('owner unlocks')} times, refused {day.total('owner refused')} times")
    print("  peak memory per hour (MB): " + ", ".join(f"{day.peak_rss.get(h, 0):.1f}" for h in range(HOURS)))
    print(f"  memory, first hour to last: {first:.1f} -> {last:.1f} MB ({last - first:+.1f} MB; limit "
          f"+{MEMORY_LIMIT_MB:.0f})")
    print(f"  clean stop at the end: exit code {code}")
    if last - first > MEMORY_LIMIT_MB:
        day.problem(f"memory grew by {last - first:.1f} MB from the first hour to the last")
    if restarts_ok != day.total("pulled plugs"):
        day.problem("the state did not equal the log after every restart")
    if not day.total("owner unlocks"):
        day.problem("the owner never unlocked")
    print("PASS: every promise held" if not day.problems else f"FAIL: {len(day.problems)} problem(s)")
    return 0 if not day.problems else 1


if __name__ == "__main__":
    sys.exit(main())
