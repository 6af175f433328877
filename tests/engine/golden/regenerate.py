"""Write the golden four-club playthrough: ``.venv/bin/python -m tests.engine.golden.regenerate``.

The events are chosen among the legal ones by a seeded random generator that prefers doing something over
passing, so the game uses most rules.  ``four_clubs.jsonl`` is the event log (one event per line);
``four_clubs.txt`` is the readable transcript: every event, what the engine announced, and the final scores.
The game is played with a frozen copy of the demo deck in ``deck/`` (refreshed by this command), so that
editing the shipped demo deck does not change the recorded game.
Review the diff of the transcript before committing a regenerated file: it is the record of the rules' behaviour.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import engine
from engine.legal import setup_events

HERE = Path(__file__).parent
EVENTS = HERE / "four_clubs.jsonl"
TRANSCRIPT = HERE / "four_clubs.txt"
DECK = HERE / "deck"
SEED = 20261121
PREFERENCE = {"pass": 1, "keep": 6, "reroll": 1, "use_card": 3}


def choose(rng: random.Random, options: list[dict[str, Any]]) -> dict[str, Any]:
    """A weighted random pick: actions over passing, keeping a roll more often than rerolling it."""
    weights = [PREFERENCE.get(ev["type"], 4) for ev in options]
    return rng.choices(options, weights=weights)[0]


def play(seed: int = SEED) -> list[dict[str, Any]]:
    """A whole four-club game, setup to Final scoring, as an event log."""
    profile = engine.load_profile(DECK)
    rng = random.Random(seed)
    events = setup_events(profile, [1, 2, 3, 4], [rng.randrange(1000) for _ in range(40)])
    state = engine.replay(profile, events)
    while state.stage != "over":
        event = choose(rng, engine.legal_events(profile, state))
        state = engine.apply(profile, state, event).state
        events.append(event)
    return events


def transcript(events: list[dict[str, Any]]) -> str:
    """The readable record: each event, its announcements, then the final scores."""
    profile = engine.load_profile(DECK)
    state = engine.initial_state(profile)
    lines = [f"# Golden playthrough: {len(events)} events, four clubs, demo deck. Regenerate: python -m tests.engine.golden.regenerate"]
    for n, event in enumerate(events, 1):
        step = engine.apply(profile, state, event)
        state = step.state
        lines.append(f"{n:4d} {json.dumps(event, sort_keys=True)}")
        lines.extend(f"       {a['text']}" for a in step.announcements)
    lines.append("")
    lines.append("FINAL SCORES (seat, name, League position: league + VP tokens + Staff sets + Infrastructure + Objective + Office + Budget = total)")
    for row in engine.view(profile, state)["final"]:
        lines.append(
            f"  rank {row['rank']}: Seat {row['seat']} {row['name']}, position {row['position']}: "
            f"{row['league']} + {row['vp_tokens']} + {row['staff_sets']} + {row['infrastructure']} + {row['objective']} + "
            f"{row['office']} + {row['budget']} = {row['total']}{'  WINNER' if row['winner'] else ''}"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    """Copy the demo deck, play the game and write both files."""
    demo = Path(engine.__file__).parent / "data" / "demo"
    shutil.rmtree(DECK, ignore_errors=True)
    shutil.copytree(demo, DECK)
    events = play()
    EVENTS.write_text("".join(json.dumps(e, sort_keys=True) + "\n" for e in events))
    TRANSCRIPT.write_text(transcript(events))
    print(f"wrote {EVENTS} ({len(events)} events) and {TRANSCRIPT}")


if __name__ == "__main__":
    main()
