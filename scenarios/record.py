"""Write the shipped scenarios by playing a game on the simulated table and recording every step.

    python -m scenarios.record            # rewrites scenarios/full-week.toml, full-game.toml and modules-game.toml

The game is the demo deck with four clubs.  Each Monday every seat taps a Board meeting card and rolls a
result its Directors agree on; on Tuesday of each week one seat hires (or sells, or signs a Sponsor) and
the others pass; on Matchday the page sets the lineups and the Opponent cards are tapped on the shared
slot; Match consequences roll faces without effect, except a first-week injury at seat 1.  Every die the
table rolls is recorded as the step's forced ``dice``, so replaying the file gives the same game.
"""

from __future__ import annotations

import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from device.sim import SimulatedTable
from tests.e2e.table import (
    DIRECTORS,
    SEATS,
    STARTERS,
    club,
    decisive_rolls,
    lineup_action,
    new_game_action,
    no_consequence,
    opponents,
)

HERE = Path(__file__).parent
WAIT = 5  # seconds: longer than the reroll window, so a held roll is kept


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_toml_value(v)}" for k, v in value.items() if v is not None) + " }"
    raise TypeError(f"cannot write {value!r} as TOML")


def _key(key: str) -> str:
    return key if key.replace("_", "").isalnum() else _toml_value(key)


class SeededDice:
    """Fair-looking rolls from a seeded generator, so recording twice writes the same file."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def roll(self, die: Any) -> int:
        """A face of ``die``."""
        return int(die.faces[self._random.randrange(len(die.faces))])


class Recorder:
    """Plays on a simulated table and keeps each step (with the dice it rolled) for the scenario file."""

    def __init__(self, table: SimulatedTable) -> None:
        self.table = table
        self.steps: list[tuple[str | None, dict[str, Any]]] = []
        # Rolls nobody forces (Opponent dice, tied Board meetings) come from a seeded die, and are recorded.
        table.dice.strict = False
        table.dice.fallback = SeededDice(11)

    def _do(self, comment: str | None, step: dict[str, Any], act: Callable[[], Any], forced: list[int] | None = None) -> None:
        before = len(self.table.dice.rolled)
        if forced:
            self.table.force_dice(forced)
        act()
        rolled = [value for _, value in self.table.dice.rolled[before:]]
        if rolled:
            step["dice"] = rolled
        self.steps.append((comment, step))

    def page(self, action: dict[str, Any], comment: str | None = None) -> None:
        """A page action."""
        body = {k: v for k, v in action.items() if k != "type"}
        self._do(comment, {"page": action["type"], **body}, lambda: self.table.page(dict(action)))

    def tap(self, pad: str, card: str, comment: str | None = None) -> None:
        """A card put on a pad and lifted again."""
        self._do(comment, {"tap": pad, "card": card}, lambda: self.table.tap(pad, card))

    def press(self, button: str, forced: list[int] | None = None, comment: str | None = None) -> None:
        """A short press (with the dice it rolls, when forced)."""
        self._do(comment, {"press": button}, lambda: self.table.press(button), forced)

    def hold(self, button: str, comment: str | None = None) -> None:
        """A long press."""
        self._do(comment, {"hold": button}, lambda: self.table.hold(button))

    def wait(self, forced: list[int] | None = None, comment: str | None = None) -> None:
        """Time passes: reroll windows close (and any dice that follows are forced)."""
        self._do(comment, {"wait": WAIT}, lambda: self.table.wait(WAIT), forced)

    def check(self, comment: str, screen: dict[str, str] | None = None, view: dict[str, Any] | None = None) -> None:
        """A check of the screens and the view, right here."""
        step: dict[str, Any] = {"check": True}
        if screen:
            step["screen"] = screen
        if view:
            step["view"] = view
        self.steps.append((comment, step))

    def write(self, path: Path, title: str, about: str) -> None:
        """Write the scenario file."""
        lines = [f"# {about}", "# Written by `python -m scenarios.record`; see docs/SCENARIOS.md for the format.", "",
                 f"title = {_toml_value(title)}", ""]
        for comment, step in self.steps:
            if comment:
                lines.append(f"# {comment}")
            lines.append("[[step]]")
            for key, value in step.items():
                lines.append(f"{_key(key)} = {_toml_value(value)}")
            lines.append("")
        path.write_text("\n".join(lines), encoding="utf-8")


def play_setup(rec: Recorder) -> None:
    """The page starts the game; each seat taps its Directors and starting Veteran and Youngster."""
    rec.page(new_game_action(), "The page starts a game for four clubs with their Opponents, Objective and Tactic; each seat taps the rest.")
    for seat in SEATS:
        for index, card in enumerate((*DIRECTORS[seat], *STARTERS[seat])):
            rec.tap(f"seat{seat}.tap", card, f"Seat {seat} taps its three Directors, then its Veteran and Youngster." if index == 0 else None)
    rec.check("Week 1 begins.", screen={"seat1.screen": "Wk 1/8 Mon"}, view={"stage": "monday", "week": 1})


def board_meetings(rec: Recorder, week: int, seats: tuple[int, ...] = SEATS,
                   kept: str = "The reroll windows close: the rolls are kept.") -> None:
    """Monday: each seat taps its Board meeting card and rolls a die that decides; the rolls are kept."""
    profile = rec.table.session.profile
    for seat in seats:
        card = f"bm_{(week - 1) * 4 + seat:02d}"
        rec.tap(f"seat{seat}.tap", card, f"Week {week}, Monday: Seat {seat}'s Board meeting card, then its roll." if seat == seats[0] else None)
        rec.press(f"seat{seat}.roll", [decisive_rolls(profile, seat)[0]])
    rec.wait(comment=kept)
    settle(rec, leave=("monday",))


def play_week(rec: Recorder, week: int) -> None:
    """One week: Board meetings, one action on Tuesday, passes, Matchday, consequences."""
    table = rec.table
    board_meetings(rec, week, kept="The reroll windows close: the rolls are kept and the Directors' decisions apply.")
    # Tuesday: the seat whose turn it is does one thing, by week
    turn = table.view()["turn"]
    pad, button = f"seat{turn}.tap", f"seat{turn}.roll"
    display = _display(table)
    if week % 2 == 1 and display:
        rec.tap(pad, display, f"Tuesday: Seat {turn} hires a Player; the button confirms.")
        rec.press(button)
    elif display:
        staff = _staff(table)
        rec.tap(pad, staff, f"Tuesday: Seat {turn} hires a Staff card; the button confirms.")
        rec.press(button)
    while table.view()["stage"] in ("tuesday", "wednesday", "thursday"):
        rec.hold(f"seat{table.view()['turn']}.roll", None)
    for seat in SEATS:
        rec.page(lineup_action(seat, club(table, seat)["markers"]), f"Week {week}, Matchday: lineups from the page." if seat == 1 else None)
    for seat in SEATS:
        rec.tap("shared.opponent", opponents(seat)[week - 1], "The Opponent cards are turned over on the shared slot." if seat == 1 else None)
    for seat in SEATS:
        result = club(table, seat)["match"]["result"]
        forced = [no_consequence(result)]
        rec.press(f"seat{seat}.roll", forced, f"Match consequences (faces without effect)." if seat == 1 else None)
        rec.wait()
    settle(rec, leave=("matchday", "results", "end_of_round"))


def settle(rec: Recorder, leave: tuple[str, ...]) -> None:
    """Answer whatever the table still asks (rolls a card's effect wants, held rolls, Suspensions) until the stage moves on."""
    table = rec.table
    while table.view()["stage"] in leave:
        awaiting = table.view()["awaiting"]
        entry = next((a for a in awaiting if a.get("seat")), None)
        if entry is None:
            rec.wait()
            continue
        seat = entry["seat"]
        if entry["need"] == "suspensions":
            held = club(table, seat)["staff"][0]["id"]
            rec.tap(f"seat{seat}.tap", held, f"Seat {seat} is short of money and names a card for the Suspension tokens.")
        elif entry["need"] == "roll":
            rec.press(f"seat{seat}.roll", [1 if entry.get("purpose") == "injury" else 3],
                      f"Seat {seat} rolls for {str(entry.get('purpose', 'an effect')).replace('_', ' ')}.")
            rec.wait()
        elif entry["need"] == "keep_or_reroll":
            rec.wait()
        else:
            raise RuntimeError(f"the recording does not know how to answer {entry}")


def _display(table: SimulatedTable) -> str | None:
    """A Player card nobody holds yet that the club can pay for."""
    held = {p["id"] for c in table.view()["clubs"] for p in c["players"]}
    turn = table.view()["turn"]
    money = club(table, turn)["resources"]["budget"]
    for card in table.session.profile.cards_of("player"):
        if card.id not in held and card.untrained.cost <= money:
            return str(card.id)
    return None


def _staff(table: SimulatedTable) -> str:
    held = {s["id"] for c in table.view()["clubs"] for s in c["staff"]}
    turn = table.view()["turn"]
    money = club(table, turn)["resources"]["budget"]
    return next(str(c.id) for c in table.session.profile.cards_of("staff") if c.id not in held and c.cost <= money and c.profession != "First trainer")


def play_end(rec: Recorder) -> None:
    """Final scoring: each seat tells, on its button, how its Objective went."""
    table = rec.table
    for seat in SEATS:
        if table.view()["stage"] != "final_scoring":
            break
        rec.press(f"seat{seat}.roll", comment=f"Seat {seat} steps to 'fulfilled' and confirms with a hold." if seat == 1 else None)
        rec.press(f"seat{seat}.roll")
        rec.hold(f"seat{seat}.roll")
    rec.check("The game is over.", screen={"seat1.screen": "Game over"}, view={"stage": "over"})


MODULES_WEEKS = 4
REFEREE_DICE = {1: (4, 1), 2: (1, 7), 3: (5, 8), 4: (6, 3)}
"""Each seat's referee (d6) and the d12 face it rolls, by seat: Friendly, Unjust, Goal eager and Perfectionist."""
UNJUST_CHOICE = (2, 3, 1)
"""(seat, week, d12 face): in the modules game the seat hires a footballer the week before who shows a tag of the
face's group, as its Veteran does, so that in that week its Unjust referee suspends one of the two: the seat taps
which."""


def referee_rolls(rec: Recorder, seat: int, week: int = 0) -> None:
    """Before the match the seat rolls its referee's d6, then the d12 of the tags he watches (`REFEREE_DICE`, or
    `UNJUST_CHOICE`'s face in its week)."""
    d6, d12 = REFEREE_DICE[seat]
    if (seat, week) == UNJUST_CHOICE[:2]:
        d12 = UNJUST_CHOICE[2]
    rec.press(f"seat{seat}.roll", [d6], f"Seat {seat} rolls its referee's d6, then the d12 for the tags he watches." if seat == 1 else None)
    rec.wait()
    rec.press(f"seat{seat}.roll", [d12])
    rec.wait()


def play_modules_game(rec: Recorder) -> None:
    """A whole game with the Division and Referee modules: four clubs in Division 3 for four weeks; before each
    match the seat rolls its referee's d6 and d12 on its button; lineups field the clubs' footballers."""
    from engine.legal import auto_lineup

    table = rec.table
    profile = table.session.profile
    action = new_game_action()
    action["clubs"] = [{**{k: v for k, v in c.items() if k != "opponents"}, "directors": list(DIRECTORS[c["seat"]]),
                        "veteran": STARTERS[c["seat"]][0], "youngster": STARTERS[c["seat"]][1]} for c in action["clubs"]]
    action.update(modules=["division", "referee"], options={"division": 3, "weeks": MODULES_WEEKS}, deal=True)
    rec.page(action, "The page starts a game in Division 3 with the Referee rules, naming each club's cards but its "
                     "Opponents: the table deals each club four Division 3 Opponent cards.")
    rec.check("Week 1 begins; the game says its rules.", view={"stage": "monday", "week": 1, "weeks": MODULES_WEEKS,
                                                              "game.text": "Eleven with Division and Referee; Division 3, Weeks 4."})
    chooser, choice_week, face = UNJUST_CHOICE
    for week in range(1, MODULES_WEEKS + 1):
        board_meetings(rec, week)
        while table.view()["stage"] in ("tuesday", "wednesday", "thursday"):
            turn = table.view()["turn"]
            if week == choice_week - 1 and turn == chooser and len(club(table, turn)["players"]) == 2:
                hired = _sharing_a_tag(table, turn, face)
                rec.tap(f"seat{turn}.tap", hired, f"Tuesday: Seat {turn} hires a footballer showing a tag its Veteran "
                                                  "shows; the button confirms.")
                rec.press(f"seat{turn}.roll")
                if len(club(table, turn)["players"]) == 2:
                    raise RuntimeError(f"the hire of {hired} was not taken: {table.screen_texts()[f'seat{turn}.screen']}")
                continue
            rec.hold(f"seat{turn}.roll", "Every other turn is passed." if table.view()["stage"] == "tuesday" else None)
        for seat in SEATS:
            state = table.session.state.club(seat)
            lineup = {k: v for k, v in auto_lineup(profile, state).items() if k not in ("seat", "type")}
            rec.page({"type": "lineup", "seat": seat, **lineup},
                     f"Week {week}, Matchday: Seat {seat} fields its footballers from the page." if seat == 1 else None)
            referee_rolls(rec, seat, week)
        rec.check(f"Week {week}: Seat 1's referee is Friendly.", view={"modules.referee.1.referee": "Friendly"})
        _matches(rec, week)
    play_end(rec)


def _sharing_a_tag(table: SimulatedTable, seat: int, face: int) -> str:
    """A Player card nobody holds, that the seat can pay for, showing a tag of the d12 face's group that one of the
    seat's footballers shows too."""
    from engine.modules import referee

    profile = table.session.profile
    group = set(referee.table_of(profile).groups[face - 1])
    mine = {t for p in club(table, seat)["players"] for t in profile.cards[p["id"]].untrained.tags}
    assert group & mine, "a footballer of the seat shows a tag of the face's group"
    held = {p["id"] for c in table.view()["clubs"] for p in c["players"]}
    money = club(table, seat)["resources"]["budget"]
    return next(str(c.id) for c in profile.cards_of("player")
                if c.id not in held and c.untrained.cost <= money and group & set(c.untrained.tags))


def settle_seat(rec: Recorder, seat: int) -> None:
    """The seat's rolls after its match (a foul die, the Match consequence, an injury d10), each with a face that
    changes nothing much, once it has chosen the footballer its referee suspends (the seat's button asks for that
    tap first)."""
    table = rec.table
    _referee_choice(rec, seat)
    while True:
        entry = next((a for a in table.view()["awaiting"] if a.get("seat") == seat and a["need"] in ("roll", "keep_or_reroll")), None)
        if entry is None:
            return
        if entry["need"] == "keep_or_reroll":
            rec.wait()
            continue
        if entry.get("purpose") == "match_consequence":
            face = no_consequence(club(table, seat)["match"]["result"])
        else:
            face = 1 if entry.get("purpose") == "injury" else 3
        rec.press(f"seat{seat}.roll", [face], f"Seat {seat} rolls for {str(entry.get('purpose')).replace('_', ' ')}.")
        rec.wait()


def _referee_choice(rec: Recorder, seat: int) -> None:
    """When the seat's Unjust referee suspends one of several footballers, the seat's screen asks which: the seat
    taps the last of them, and the token lies on that one."""
    table = rec.table
    entry = next((a for a in table.view()["awaiting"] if a.get("seat") == seat and a["need"] == "referee_suspend"), None)
    if entry is None:
        return
    profile = table.session.profile
    names = [profile.cards[c].name for c in entry["cards"]]
    rec.check(f"Seat {seat}'s referee suspends one of {', '.join(names)}: its screen asks which.",
              screen={f"seat{seat}.screen": "Referee suspends"})
    chosen = str(entry["cards"][-1])
    rec.tap(f"seat{seat}.tap", chosen, f"Seat {seat} taps {profile.cards[chosen].name}.")
    players = club(table, seat)["players"]
    index = next(i for i, p in enumerate(players) if p["id"] == chosen)
    rec.check(f"{profile.cards[chosen].name} has the Suspension token; the others have none.",
              view={f"clubs.{seat - 1}.players.{i}.suspension": int(i == index) for i in range(len(players))})


def _record(out: Path, file: str, play: Callable[[Recorder], None], title: str, about: str) -> None:
    """Play ``play`` on a fresh simulated table and write what it did as ``out``/``file``."""
    with tempfile.TemporaryDirectory() as tmp:
        with SimulatedTable.open(Path(tmp) / "game.db", strict_dice=True) as table:
            rec = Recorder(table)
            play(rec)
            rec.write(out / file, title, about)


def record_modules(out: Path) -> None:
    """Record scenarios/modules-game.toml."""
    _record(out, "modules-game.toml", play_modules_game, "A whole game in Division 3 with the Referee rules",
            "A whole four-club game with the Division and Referee modules, on the simulated table.")


BETTING_WEEKS = 3
BETTING_SEATS = (1, 2, 3)
BETTING_OBJECTIVES = {1: "obj_21", 2: "obj_17", 3: "obj_02"}
"""Well-oiled Machine and Green Them Down (New Objective cards) for seats 1 and 2, Title challengers for seat 3."""


def play_betting_game(rec: Recorder) -> None:
    """A whole game with Betting and the New Objective cards in Division 3: three clubs, so the fourth Betting token
    lies on an Opponent card the table deals; each week seat 1 bets on a border and seat 2 on a space from the page,
    seat 3 holds its button to bet nothing; the bets are settled at the End of each week."""
    from engine.legal import auto_lineup

    table = rec.table
    profile = table.session.profile
    action = {"type": "new_game", "deal": True, "modules": ["division", "betting", "new_objectives"],
              "options": {"division": 3, "weeks": BETTING_WEEKS},
              "clubs": [{"seat": s, "name": f"Club {s}", "directors": list(DIRECTORS[s]), "veteran": STARTERS[s][0],
                         "youngster": STARTERS[s][1], "objective": BETTING_OBJECTIVES[s]} for s in BETTING_SEATS]}
    rec.page(action, "The page starts a three-club game in Division 3 with Betting and the New Objective cards: the "
                     "table deals the Opponent cards, and the fourth Betting token lies on an Opponent card nobody "
                     "was dealt.")
    rec.check("Week 1 begins; a Betting token lies on one Opponent card.",
              view={"stage": "monday", "week": 1, "weeks": BETTING_WEEKS,
                    "game.text": "Eleven with Division, Betting and New Objective cards; Division 3, Weeks 3."})
    for week in range(1, BETTING_WEEKS + 1):
        board_meetings(rec, week, BETTING_SEATS)
        while table.view()["stage"] in ("tuesday", "wednesday", "thursday"):
            rec.hold(f"seat{table.view()['turn']}.roll", "Every seat passes its turns." if table.view()["stage"] == "tuesday" else None)
        rec.check(f"Week {week}: after Thursday, the Betting.", view={"stage": "betting"})
        stake = min(1, club(table, 1)["resources"]["budget"])
        rec.page({"type": "bet", "seat": 1, "on": "3/1/0/0|3/0/0/0", "stake": stake},
                 "Seat 1 bets on the border of 3/1/0/0 and 3/0/0/0 from the Play page; seat 2 on 1/1/0/0; seat 3 "
                 "holds its button: no bet.")
        rec.page({"type": "bet", "seat": 2, "on": "1/1/0/0", "stake": 0})
        rec.hold("seat3.roll")
        rec.check(f"Week {week}: every club has answered, the bets are shown.",
                  view={"stage": "matchday", "modules.betting.revealed": True})
        for seat in BETTING_SEATS:
            state = table.session.state.club(seat)
            lineup = {k: v for k, v in auto_lineup(profile, state).items() if k not in ("seat", "type")}
            rec.page({"type": "lineup", "seat": seat, **lineup},
                     f"Week {week}, Matchday: Seat {seat} fields its footballers from the page." if seat == 1 else None)
        for seat in BETTING_SEATS:
            dealt = table.session.state.club(seat).opponents[week - 1]
            rec.tap("shared.opponent", dealt, "The Opponent cards are turned over on the shared slot." if seat == 1 else None)
            settle_seat(rec, seat)
        settle(rec, leave=("matchday", "results", "end_of_round"))
        rec.check(f"Week {week}'s bets are settled.", view={"modules.betting.settled.week": week})
    rec.check("The game is over: every Objective was checked by the table.", screen={"seat1.screen": "Game over"},
              view={"stage": "over"})


def record_betting(out: Path) -> None:
    """Record scenarios/betting-game.toml."""
    _record(out, "betting-game.toml", play_betting_game, "A whole three-club game with Betting and the New Objective cards",
            "A whole three-club game in Division 3 with the Betting and New Objective cards modules, on the simulated table.")


CARDS_WEEKS = 4
CARDS_TOP = "tr_5"
"""The Transfer card the table cuts to the top: Experience counts, whose Veterans' bonus the first sale takes."""
UNIQUE_CARDS = {1: ("us_1", "us_8"), 2: ("us_4", "us_2"), 3: ("us_7", "us_3"), 4: ("us_5", "us_6")}
"""Each seat's Unique Setup cards, green side up then red: every card of the demo lies on one club's boards."""
BUILDS = {1: "training_camp", 2: "youth_academy", 3: "tunnel", 4: "kids_fan_zone"}
"""What the seat on turn builds on Tuesday of each week (a new token from week 2)."""


def _clubs_with_their_starters(objectives: dict[int, str] | None = None) -> list[dict[str, Any]]:
    """The four clubs of the page's new game with their Directors and starting pair named, their Opponents left to
    the table's deal (and the Objective cards given, else the usual ones)."""
    return [{**{k: v for k, v in c.items() if k != "opponents"}, "directors": list(DIRECTORS[c["seat"]]),
             "veteran": STARTERS[c["seat"]][0], "youngster": STARTERS[c["seat"]][1],
             **({"objective": objectives[c["seat"]]} if objectives else {})} for c in new_game_action()["clubs"]]


def _cards_setup(rec: Recorder) -> None:
    """The steps of the setup the table cannot sense: the Market deck's cut and each club's Unique Setup cards."""
    rec.check("The setup waits for the Market deck and each club's Unique Setup cards.", view={"stage": "setup"})
    rec.page({"type": "market_top", "card": CARDS_TOP}, "The Transfer cards are laid in ascending order and cut: "
                                                        "the page says which card lies on top.")
    for seat, (green, red) in UNIQUE_CARDS.items():
        rec.page({"type": "unique_setup", "seat": seat, "green": green, "red": red},
                 "Each club draws two Unique Setup cards and places one green side up, the other red." if seat == 1 else None)
    rec.check("Week 1 begins with each club's own board tables.", view={
        "stage": "monday", "week": 1, "modules.market.top": CARDS_TOP, "clubs.0.board.stands": [1, 2],
        "clubs.0.board.office.0.cost": 4, "clubs.1.stadium.spaces.improvement.spaces": 5})


def _lineup_on_own_stands(rec: Recorder, week: int, seat: int) -> None:
    """A seat's lineup from the page, with as much Fanbase as the club's own Stands take."""
    from engine.legal import auto_lineup

    table = rec.table
    state = table.session.state.club(seat)
    lineup = {k: v for k, v in auto_lineup(table.session.profile, state).items() if k not in ("seat", "type")}
    room = sum(club(table, seat)["board"]["stands"]) + sum(
        1 for i in club(table, seat)["infrastructure"] if i["kind"] == "stands")
    lineup["stands"] = min(room, state.res[1])
    rec.page({"type": "lineup", "seat": seat, **lineup},
             f"Week {week}, Matchday: lineups from the page, Fanbase on the clubs' own Stands." if seat == 1 else None)


def _matches(rec: Recorder, week: int) -> None:
    """The Opponent cards turned over on the shared slot, each seat's rolls after its match, the End of the week."""
    table = rec.table
    for seat in SEATS:
        dealt = table.session.state.club(seat).opponents[week - 1]
        rec.tap("shared.opponent", dealt, "The Opponent cards are turned over on the shared slot." if seat == 1 else None)
        settle_seat(rec, seat)
    settle(rec, leave=("matchday", "results", "end_of_round"))


def play_cards_game(rec: Recorder) -> None:
    """A whole game with the Market transfer cards, the Unique Setup cards and the new Stadium Infrastructure: the
    page lays the Market deck and each club's cards; each Tuesday the seat on turn builds on its own Stadium board;
    in week 1 Seat 1 trains its Veteran in its new training camp and sells him on Thursday with a tap and a press,
    taking the top Transfer card's bonus; Seat 1 fills the Stands its green card enlarged."""
    action = {**new_game_action(), "clubs": _clubs_with_their_starters(), "deal": True,
              "modules": ["market", "unique_setup", "new_infrastructure"], "options": {"weeks": CARDS_WEEKS}}
    rec.page(action, "The page starts a four-week game with the Market transfer cards, the Unique Setup cards and the "
                     "new Stadium Infrastructure; the table deals each club's Opponents.")
    _cards_setup(rec)
    for week in range(1, CARDS_WEEKS + 1):
        board_meetings(rec, week)
        _cards_turns(rec, week)
        for seat in SEATS:
            _lineup_on_own_stands(rec, week, seat)
        _matches(rec, week)
    play_end(rec)


def _cards_turns(rec: Recorder, week: int) -> None:
    """Tuesday to Thursday: the seat on turn builds on Tuesday; in week 1 it trains its Veteran on Wednesday and
    sells him on Thursday with a tap on its pad and a press; every other turn is passed."""
    table = rec.table
    builder = table.view()["turn"]
    while table.view()["stage"] in ("tuesday", "wednesday", "thursday"):
        view = table.view()
        seat, day = view["turn"], view["stage"]
        veteran = STARTERS[builder][0]
        if seat == builder and day == "tuesday":
            kind = BUILDS[week] if week > 1 else "training_camp"
            rec.page({"type": "build", "seat": seat, "kind": kind}, f"Week {week}, Tuesday: Seat {seat} builds on its Stadium board from the page.")
        elif seat == builder and week == 1 and day == "wednesday":
            rec.page({"type": "use_card", "seat": seat, "card": "training_camp", "targets": [veteran]},
                     f"Wednesday: Seat {seat} trains its Veteran in the training camp.")
        elif seat == builder and week == 1 and day == "thursday":
            rec.tap(f"seat{seat}.tap", veteran, f"Thursday: Seat {seat} taps its trained Veteran to sell him; the press "
                                                "confirms and the top Transfer card's bonus is paid.")
            rec.press(f"seat{seat}.roll")
            rec.check("The Veteran is sold with the Veterans' bonus; the next Transfer card lies on top.",
                      screen={f"seat{seat}.screen": "Market +€2"}, view={"modules.market.top": "tr_6"})
        if table.view()["turn"] == seat and table.view()["stage"] == day:
            rec.hold(f"seat{seat}.roll", "The other turns are passed." if day == "tuesday" and seat != builder and week == 1 else None)


def record_cards(out: Path) -> None:
    """Record scenarios/module-cards-game.toml."""
    _record(out, "module-cards-game.toml", play_cards_game,
            "A whole game with Market transfer cards, Unique Setup cards and the new Stadium Infrastructure",
            "A whole four-club game with the Market transfer cards, Unique Setup cards and New Stadium Infrastructure "
            "modules, on the simulated table.")


EVERY_MODULE = ["division", "referee", "betting", "new_objectives", "market", "unique_setup", "new_infrastructure"]
EVERY_WEEKS = 3
EVERY_OBJECTIVES = {1: "obj_21", 2: "obj_17", 3: "obj_18", 4: "obj_20"}
"""New Objective cards for every club (Well-oiled Machine, Green Them Down, Out of the Blue, Hat Trick): the table
checks each from the clubs' results."""


def play_every_module_game(rec: Recorder) -> None:
    """A whole game with every module of one club's play at once, in Division 3: the Market deck and the Unique Setup
    cards at the setup; each Tuesday the seat on turn builds on its own Stadium board (in week 1 a Veteran trained and
    sold for the Transfer card's bonus); after Thursday seats 1 and 2 bet from the page and seats 3 and 4 hold their
    buttons; before each match the seat rolls its referee's d6 and d12; the bets are settled at the End of each week
    and the New Objective cards at the end of the game."""
    action = {**new_game_action(), "clubs": _clubs_with_their_starters(EVERY_OBJECTIVES), "deal": True,
              "modules": EVERY_MODULE, "options": {"division": 3, "weeks": EVERY_WEEKS}}
    rec.page(action, "The page starts a three-week game in Division 3 with every module of one club's play; the "
                     "table deals each club three Division 3 Opponent cards.")
    _cards_setup(rec)
    table = rec.table
    for week in range(1, EVERY_WEEKS + 1):
        board_meetings(rec, week)
        _cards_turns(rec, week)
        rec.check(f"Week {week}: after Thursday, the Betting.", view={"stage": "betting"})
        rec.page({"type": "bet", "seat": 1, "on": "3/1/0/0|3/0/0/0", "stake": min(1, club(table, 1)["resources"]["budget"])},
                 "Seat 1 bets on a border from the Play page, seat 2 on a space; seats 3 and 4 hold their buttons: no bet.")
        rec.page({"type": "bet", "seat": 2, "on": "1/1/0/0", "stake": 0})
        rec.hold("seat3.roll")
        rec.hold("seat4.roll")
        rec.check(f"Week {week}: every club has answered, the bets are shown.",
                  view={"stage": "matchday", "modules.betting.revealed": True})
        for seat in SEATS:
            _lineup_on_own_stands(rec, week, seat)
            referee_rolls(rec, seat)
        rec.check(f"Week {week}: Seat 1's referee is Friendly.", view={"modules.referee.1.referee": "Friendly"})
        _matches(rec, week)
        rec.check(f"Week {week}'s bets are settled.", view={"modules.betting.settled.week": week})
    rec.check("The game is over: every Objective was checked by the table.", screen={"seat1.screen": "Game over"},
              view={"stage": "over"})


def record_every_module(out: Path) -> None:
    """Record scenarios/every-module-game.toml."""
    _record(out, "every-module-game.toml", play_every_module_game, "A whole game with every module of one club's play",
            "A whole four-club game in Division 3 with the Referee, Betting, New Objective cards, Market transfer "
            "cards, Unique Setup cards and New Stadium Infrastructure modules at once, on the simulated table.")


CLUB_MATCH_WEEKS = 4
"""Four clubs over four weeks: one against an Opponent card, then the three weeks of matches between clubs (003 l.126)."""


def _arrangement(table: SimulatedTable, seat: int, half: int) -> dict[str, Any]:
    """The seat's secret arrangement: its strongest footballers in the first half, the same markers in the second."""
    from engine.legal import auto_lineup

    club_state = table.session.state.club(seat)
    if half == 1:
        lineup = auto_lineup(table.session.profile, club_state)
        return {"type": "arrange", "seat": seat, "players": lineup["players"], "stands": 0}
    return {"type": "arrange", "seat": seat, "players": [{"zone": p.zone, "jersey": p.jersey, "card": p.card, "style": p.style}
                                                         for p in club_state.lineup or ()]}


def _shape(players: list[dict[str, Any]]) -> str:
    return "-".join(str(sum(1 for p in players if p["zone"].startswith(s + "_"))) for s in ("def", "mid", "fwd"))


def play_club_match(rec: Recorder) -> None:
    """This week's matches between clubs at the table: the declaring seat steps through the formations on its button
    and holds to declare; each seat arranges in secret (the page); the clubs pass their turns with abilities and say
    they are ready for each half by holding their buttons; a level match is settled by the tie-break dice."""
    table = rec.table
    while table.view()["stage"] == "club_match":
        awaiting = [a for a in table.view()["awaiting"] if a.get("seat")]
        if not awaiting:
            rec.wait()
            continue
        entry = awaiting[0]
        seat, need = entry["seat"], entry["need"]
        if need == "formation":
            shape = _shape(_arrangement(table, seat, entry["half"])["players"])
            steps = entry["shapes"].index(shape) + 1
            for n in range(steps):
                rec.press(f"seat{seat}.roll", comment=f"Seat {seat} steps its button to a {shape} for the "
                                                      f"{'first' if entry['half'] == 1 else 'second'} half." if n == 0 else None)
            rec.hold(f"seat{seat}.roll", f"Seat {seat} declares its formation with a hold.")
        elif need == "arrange":
            rec.page(_arrangement(table, seat, entry["half"]), f"Seat {seat} arranges its jersey markers in secret.")
        elif need in ("abilities", "half"):
            rec.hold(f"seat{seat}.roll", f"Seat {seat} passes ({need}).")
        elif need == "roll":
            if entry.get("purpose") == "club_tiebreak":  # the Host rolls high, the Visitor low: one round settles it
                hosts = {f["host"] for f in table.view()["modules"]["club_matches"]["fixtures"]}
                face = 6 if seat in hosts else 1
            else:
                face = no_consequence(club(table, seat)["match"]["result"]) if entry.get("purpose") == "match_consequence" else 3
            rec.press(f"seat{seat}.roll", [face], f"Seat {seat} rolls for {str(entry.get('purpose')).replace('_', ' ')}.")
            rec.wait()
        elif need == "keep_or_reroll":
            rec.wait()
        else:
            raise RuntimeError(f"the recording does not know how to answer {entry}")


def play_club_matches_game(rec: Recorder) -> None:
    """A whole four-club game with League matches between clubs: week 1 against the Opponent cards dealt (one each),
    weeks 2–4 every club plays the others as the printed schedule says, then the final scoring."""
    from engine.legal import auto_lineup

    table = rec.table
    profile = table.session.profile
    action = new_game_action()
    action["clubs"] = [{**{k: v for k, v in c.items() if k != "opponents"}, "directors": list(DIRECTORS[c["seat"]]),
                        "veteran": STARTERS[c["seat"]][0], "youngster": STARTERS[c["seat"]][1]} for c in action["clubs"]]
    action.update(modules=["club_matches"], options={"weeks": CLUB_MATCH_WEEKS}, deal=True)
    rec.page(action, "The page starts a game of League matches between clubs: each club is dealt one Opponent card, for "
                     "the week it meets no club.")
    rec.check("Week 1 begins.", view={"stage": "monday", "week": 1, "weeks": CLUB_MATCH_WEEKS,
                                      "modules.club_matches.schedule.0.pairs": [[1, 2], [3, 4]]})
    for week in range(1, CLUB_MATCH_WEEKS + 1):
        for seat in SEATS:
            card = f"bm_{(week - 1) * 4 + seat:02d}"
            rec.tap(f"seat{seat}.tap", card, f"Week {week}, Monday: Seat {seat}'s Board meeting card, then its roll." if seat == 1 else None)
            rec.press(f"seat{seat}.roll", [decisive_rolls(profile, seat)[0]])
        rec.wait(comment="The reroll windows close: the rolls are kept.")
        settle(rec, leave=("monday",))
        while table.view()["stage"] in ("tuesday", "wednesday", "thursday"):
            rec.hold(f"seat{table.view()['turn']}.roll", "Every seat passes its turns." if table.view()["stage"] == "tuesday" else None)
        if table.view()["stage"] == "club_match":
            rec.check(f"Week {week}: the matches between clubs.", view={"stage": "club_match", "modules.club_matches.fixtures.0.step": "formation"})
            play_club_match(rec)
        else:
            for seat in SEATS:
                lineup = {k: v for k, v in auto_lineup(profile, table.session.state.club(seat)).items() if k not in ("seat", "type")}
                rec.page({"type": "lineup", "seat": seat, **lineup},
                         f"Week {week}, Matchday: Seat {seat} fields its footballers from the page." if seat == 1 else None)
            for seat in SEATS:
                rec.tap("shared.opponent", table.session.state.club(seat).opponents[0],
                        "The Opponent cards are turned over on the shared slot." if seat == 1 else None)
                settle_seat(rec, seat)
        settle(rec, leave=("matchday", "results", "end_of_round"))
    play_end(rec)


def record_club_matches(out: Path) -> None:
    """Record scenarios/club-matches-game.toml."""
    with tempfile.TemporaryDirectory() as tmp:
        with SimulatedTable.open(Path(tmp) / "club-matches.db", strict_dice=True) as table:
            rec = Recorder(table)
            play_club_matches_game(rec)
            rec.write(out / "club-matches-game.toml", "A whole game of League matches between clubs",
                      "A whole four-club game whose last three weeks are matches between the clubs, on the simulated table.")


EPIC_SEATS_RESULTS = {1: 1, 2: 0, 3: 2, 4: 0}
"""How each seat steps its Objective at the Winter Break: presses after the tap (0 fulfilled, 1 perfect, 2 missed)."""
EPIC_REVEALS = (("strength", "attacker", "cheaper", "tough", "jersey_12"),
                ("cheaper", "defender", "first_goal", "attacker", "jersey_1"),
                ("any_section", "strength", "swap_resource", "swap_resource", "first_goal"))
"""The Winter Break tokens the table reveals in the three rounds of Winter Training."""


def _epic_week(rec: Recorder, week: int) -> None:
    """One week of the Epic League: Board meetings, passes, lineups from the page, Opponent cards on the slot."""
    from engine.legal import auto_lineup

    table = rec.table
    profile = table.session.profile
    for seat in SEATS:
        card = f"bm_{((week - 1) * 4 + seat - 1) % 38 + 1:02d}"
        rec.tap(f"seat{seat}.tap", card, f"Week {week}, Monday: Seat {seat}'s Board meeting card, then its roll." if seat == 1 else None)
        rec.press(f"seat{seat}.roll", [decisive_rolls(profile, seat)[0]])
    rec.wait(comment="The reroll windows close: the rolls are kept.")
    settle(rec, leave=("monday",))
    while table.view()["stage"] in ("tuesday", "wednesday", "thursday"):
        rec.hold(f"seat{table.view()['turn']}.roll", "Every seat passes its turns." if table.view()["stage"] == "tuesday" else None)
    for seat in SEATS:
        state = table.session.state
        lineup = {k: v for k, v in auto_lineup(profile, state.club(seat), state).items() if k not in ("seat", "type")}
        rec.page({"type": "lineup", "seat": seat, **lineup},
                 f"Week {week}, Matchday: Seat {seat} fields its footballers from the page." if seat == 1 else None)
    for seat in SEATS:
        dealt = table.session.state.club(seat).opponents[week - 1]
        rec.tap("shared.opponent", dealt, "The Opponent cards are turned over on the shared slot." if seat == 1 else None)
        settle_seat(rec, seat)
    settle(rec, leave=("matchday", "results", "end_of_round"))


def _winter_break(rec: Recorder) -> None:
    """The Winter Break at the table: Objectives tapped and stepped on the buttons, the Transfer Window's turns (a hire
    tapped and confirmed, passes held), then Winter Training on the page."""
    table = rec.table
    state = table.session.state
    epic = state.slice("epic_league")
    for seat in SEATS:
        card = epic.second_of(seat) if seat % 2 else state.club(seat).objective
        rec.tap(f"seat{seat}.tap", card, f"Seat {seat} taps the Objective it fulfilled before the break (or the one it "
                                         "discards) and steps how it went on its button; a hold confirms.")
        for _ in range(EPIC_SEATS_RESULTS[seat]):
            rec.press(f"seat{seat}.roll")
        rec.hold(f"seat{seat}.roll")
    rec.check("Season Maintenance is done and the Transfer Window is open.",
              view={"modules.epic_league.step": "transfer", "modules.epic_league.round": 1})
    first = table.view()["turn"]
    display = _display(table)
    if display:
        rec.tap(f"seat{first}.tap", display, f"Transfer Window, round 1: Seat {first} hires a Player; the button confirms.")
        rec.press(f"seat{first}.roll")
    if "transfers" in table.session.state.game.modules:
        _window_auction(rec)
    while table.view()["modules"]["epic_league"]["step"] == "transfer":
        rec.hold(f"seat{table.view()['turn']}.roll", "Every other turn of the three rounds is passed with a hold.")
    for tokens in EPIC_REVEALS:
        rec.page({"type": "winter_tokens", "tokens": list(tokens)}, "Winter Training: the table reveals five tokens.")
        while table.view()["modules"]["epic_league"]["step"] == "draft":
            need = table.view()["awaiting"][0]
            rec.page({"type": "winter_pick", "seat": need["seat"], "token": need["tokens"][0]},
                     f"Seat {need['seat']} takes a token on the Play page.")
    while table.view()["stage"] == "winter_break":
        need = next(a for a in table.view()["awaiting"] if a["need"] == "winter_place")
        seat = need["seat"]
        placed = {p["card"] for p in table.view()["modules"]["epic_league"]["placed"] if p["seat"] == seat}
        card = next(p["id"] for p in club(table, seat)["players"] if p["id"] not in placed)
        rec.page({"type": "winter_place", "seat": seat, "token": need["tokens"][0], "card": card},
                 f"Seat {seat} puts a token on one of its Player cards.")


def _window_auction(rec: Recorder) -> None:
    """In the Transfer Window the next seat auctions its Veteran from the page at 1 €: the two clubs after it raise on
    their buttons, the third passes, then the first bidder passes and the second has him."""
    table = rec.table
    seller = table.view()["turn"]
    bidders = [s for s in SEATS if s > seller] + [s for s in SEATS if s < seller]
    rec.page({"type": "auction", "seat": seller, "card": STARTERS[seller][0], "ask": 1},
             f"Transfer Window, round 1: Seat {seller} auctions its Veteran from the Play page, asking 1 €; two clubs "
             "raise on their buttons, the others pass with holds.")
    rec.press(f"seat{bidders[0]}.roll")
    rec.press(f"seat{bidders[1]}.roll")
    rec.check("Every screen shows the highest bid and whose turn it is.", screen={f"seat{s}.screen": "€2" for s in SEATS})
    rec.hold(f"seat{bidders[2]}.roll")
    rec.hold(f"seat{bidders[0]}.roll")
    rec.check("The second bidder has the Veteran.", view={"modules.transfers.last.buyer": bidders[1],
                                                          "modules.transfers.last.amount": 2})


def play_epic_game(rec: Recorder) -> None:
    """A whole Epic League of four clubs with Transferring Players: ten weeks, the Winter Break after week 5 (an
    auction in its Transfer Window), the final scoring."""
    action = new_game_action()
    action["clubs"] = [{**{k: v for k, v in c.items() if k not in ("opponents", "objective")}, "directors": list(DIRECTORS[c["seat"]]),
                        "veteran": STARTERS[c["seat"]][0], "youngster": STARTERS[c["seat"]][1]} for c in action["clubs"]]
    action.update(modules=["epic_league", "transfers"], options={"lower_division": 3}, deal=True)
    rec.page(action, "The page starts an Epic League of four clubs with Transferring Players: the table deals each club "
                     "five Division 3 and five Division 2 Opponent cards and two of the mode's Objective cards.")
    rec.check("Week 1 begins: ten weeks, twelve teams on the table.",
              view={"stage": "monday", "week": 1, "weeks": 10,
                    "game.text": "Eleven with Epic League and Transferring Players; Lower Division 3."})
    for week in range(1, 11):
        _epic_week(rec, week)
        if week == 5:
            rec.check("After the End of the round of week 5: the Winter Break.",
                      view={"stage": "winter_break", "modules.epic_league.step": "objectives"})
            _winter_break(rec)
            rec.check("The Winter Break is over: week 6 begins.", view={"stage": "monday", "week": 6})
    play_end(rec)


def record_epic(out: Path) -> None:
    """Record scenarios/epic-league-game.toml."""
    with tempfile.TemporaryDirectory() as tmp:
        with SimulatedTable.open(Path(tmp) / "epic.db", strict_dice=True) as table:
            rec = Recorder(table)
            play_epic_game(rec)
            rec.write(out / "epic-league-game.toml", "A whole Epic League of four clubs",
                      "A whole four-club Epic League with Transferring Players: ten weeks, the Winter Break after week 5 with an "
                      "auction in its Transfer Window, the final scoring, on the simulated table.")


TRANSFER_WEEKS = 3


def _transfer_turns(rec: Recorder, week: int) -> None:
    """Tuesday to Thursday with Transferring Players: in week 1 an offer from the page is declined with a hold, the
    next accepted with a press; in week 2 the seller taps its Youngster, steps its button to an auction and nobody
    bids; in week 3 an auction from the page at 1 € is raised on three clubs' buttons until all but one pass."""
    table = rec.table
    seller = table.view()["turn"]
    bidders = [s for s in SEATS if s > seller] + [s for s in SEATS if s < seller]
    if week == 1:
        owner = bidders[0]
        wanted = STARTERS[owner][0]
        rec.page({"type": "offer", "seat": seller, "card": wanted, "amount": 1},
                 f"Week 1, Tuesday: Seat {seller} offers 1 € for Seat {owner}'s Veteran from the Play page; Seat "
                 f"{owner} declines with a hold.")
        rec.hold(f"seat{owner}.roll")
        rec.check("The offer is declined: one of three.", view={f"modules.transfers.declined.{seller}": 1})
        rec.page({"type": "offer", "seat": seller, "card": wanted, "amount": 3},
                 f"Seat {seller} offers 3 €; Seat {owner} accepts with a press.")
        rec.press(f"seat{owner}.roll")
        rec.check("The Veteran has changed clubs: the hire was the seller's action.",
                  view={"modules.transfers.last.kind": "offer", "modules.transfers.last.buyer": seller})
    elif week == 2:
        youngster = STARTERS[seller][1]
        name = table.session.profile.cards[youngster].name
        rec.tap(f"seat{seller}.tap", youngster, f"Week 2, Tuesday: Seat {seller} taps its Youngster. Untrained, he cannot "
                                                "be sold to the supply (000 l.468) but may be auctioned (003 l.41): the "
                                                f"screen asks 'Auction {name}?' and a press opens the auction at his "
                                                "Strength + 2.")
        rec.press(f"seat{seller}.roll")
        ask = table.view()["modules"]["transfers"]["auction"]["ask"]
        rec.check("Every screen shows the card, the asking price and whose turn it is to bid.",
                  screen={f"seat{s}.screen": f"Ask €{ask}" for s in SEATS})
        for seat in bidders:
            rec.hold(f"seat{seat}.roll", "Nobody bids: each club holds its button." if seat == bidders[0] else None)
        rec.check("Nobody bid: the Youngster is sold to the supply for his Strength.",
                  view={"modules.transfers.last.buyer": 0, "modules.transfers.last.seller": seller})
    elif week == 3:
        veteran = STARTERS[seller][0]
        rec.page({"type": "auction", "seat": seller, "card": veteran, "ask": 1},
                 f"Week 3, Tuesday: Seat {seller} auctions its Veteran from the Play page, asking 1 €.")
        for n, seat in enumerate(bidders):
            rec.press(f"seat{seat}.roll", comment="Three clubs raise one step each on their buttons." if n == 0 else None)
        rec.check("Every screen shows the highest bid and whose turn it is.",
                  screen={f"seat{s}.screen": "€3" for s in SEATS})
        rec.hold(f"seat{bidders[0]}.roll", "The first passes with a hold, for good; the second raises; the third passes: sold.")
        rec.press(f"seat{bidders[1]}.roll")
        rec.hold(f"seat{bidders[2]}.roll")
        rec.check("The last bidder has the Veteran with his tokens; the seller has the bid and 1 € from the supply.",
                  view={"modules.transfers.last.buyer": bidders[1], "modules.transfers.last.amount": 4})
    while table.view()["stage"] in ("tuesday", "wednesday", "thursday"):
        before = (table.view()["stage"], table.view()["turn"], table.session.state.events)
        rec.hold(f"seat{table.view()['turn']}.roll", "The other turns are passed." if week == 1 and table.view()["stage"] == "tuesday" else None)
        if (table.view()["stage"], table.view()["turn"], table.session.state.events) == before:
            raise RuntimeError(f"a hold changed nothing: {table.view()['awaiting']}")


def play_transfers_game(rec: Recorder) -> None:
    """A whole four-club game of three weeks with Transferring Players (003 l.13–58): an offer declined and one
    accepted, an auction opened on the button that nobody bids in, an auction raised on three clubs' buttons."""
    from engine.legal import auto_lineup

    table = rec.table
    profile = table.session.profile
    action = {**new_game_action(), "clubs": _clubs_with_their_starters(), "deal": True, "modules": ["transfers"],
              "options": {"weeks": TRANSFER_WEEKS}}
    rec.page(action, "The page starts a three-week game with Transferring Players; the table deals each club's Opponents.")
    rec.check("Week 1 begins.", view={"stage": "monday", "week": 1, "game.text": "Eleven with Transferring Players; Weeks 3."})
    for week in range(1, TRANSFER_WEEKS + 1):
        board_meetings(rec, week)
        _transfer_turns(rec, week)
        for seat in SEATS:
            state = table.session.state
            lineup = {k: v for k, v in auto_lineup(profile, state.club(seat), state).items() if k not in ("seat", "type")}
            rec.page({"type": "lineup", "seat": seat, **lineup},
                     f"Week {week}, Matchday: Seat {seat} fields its footballers from the page." if seat == 1 else None)
        _matches(rec, week)
    play_end(rec)


def record_transfers(out: Path) -> None:
    """Record scenarios/transfers-game.toml."""
    _record(out, "transfers-game.toml", play_transfers_game, "A whole game with Transferring Players",
            "A whole four-club game with the Transferring Players module: auctions on the buttons and offers between "
            "clubs, on the simulated table.")


def main(argv: list[str] | None = None) -> int:
    """Record every shipped scenario (into the folder given as the first argument, else next to this file)."""
    out = Path(argv[0]) if argv else HERE
    with tempfile.TemporaryDirectory() as tmp:
        with SimulatedTable.open(Path(tmp) / "week.db", strict_dice=True) as table:
            rec = Recorder(table)
            play_setup(rec)
            play_week(rec, 1)
            rec.check("Week 2 begins.", screen={"seat1.screen": "Wk 2/8 Mon"}, view={"week": 2, "stage": "monday"})
            rec.write(out / "full-week.toml", "A whole week of a four-club game",
                      "Setup and the first week of a four-club game on the simulated table: taps, presses, holds and page actions.")
        with SimulatedTable.open(Path(tmp) / "game.db", strict_dice=True) as table:
            rec = Recorder(table)
            play_setup(rec)
            for week in range(1, 9):
                play_week(rec, week)
            play_end(rec)
            rec.write(out / "full-game.toml", "A whole four-club game",
                      "A whole game of four clubs, eight weeks and the final scoring, on the simulated table.")
    record_modules(out)
    record_betting(out)
    record_cards(out)
    record_every_module(out)
    record_club_matches(out)
    record_epic(out)
    record_transfers(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
