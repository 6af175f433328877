"""A log holding several whole games played by the shipped scenarios, as a group's evenings of one league would.

Each scenario is played once per test run (``tests.played``); its events, as the table wrote them, are copied into
one log as a game of its own, in the order asked.  Every scenario names its clubs "Club 1" to "Club 4", so they meet
again from game to game.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from device.store import open_store
from tests.played import played

EVENINGS = ("full-game.toml", "betting-game.toml", "modules-game.toml")
"""Three finished games: four clubs, then three (Club 4 sits out), then four again."""


def evenings(into: Path, scenarios: Sequence[str] = EVENINGS, *, begun: bool = False,
             ) -> tuple[Path, list[list[dict[str, Any]]]]:
    """A log at ``into/touchline.db`` with one finished game per scenario (games 1, 2, ...), and the engine's final
    scoring rows of each as its replay printed them; ``begun``: then one more game, just dealt and not over."""
    target = into / "touchline.db"
    finals = []
    store = open_store(target)
    try:
        for number, scenario in enumerate(scenarios):
            db, final = played(scenario, into / f"played-{number}")
            source = open_store(db)
            try:
                game = source.games()[-1]
                copied = store.start_game(source.events(game.id), seats=game.seats, profile_source=game.profile_source)
            finally:
                source.close()
            assert final["status"] == "finished", scenario
            store.finish(copied.id)
            finals.append(final["view"]["final"])
        if begun:
            store.start_game(store.events(1)[:3])
    finally:
        store.close()
    return target, finals
