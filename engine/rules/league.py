"""The League table (rulebook, Result of the match steps 2 and 5): points, positions, the Opponent teams' dice.

000 l.713: "Move the Team markers of both teams on the League table. For winning the match you move it by 3
spaces, for drawing - by 1 space, for losing - you don't move. If 2 or more players have played against the same
opponent in that round, flip its marker to the inactive (black) side." l.721: "Roll a corresponding die for each
Opponent team that nobody has played against ... If a Team marker is on it's inactive side, flip it instead."
"""

from __future__ import annotations

from collections import Counter

from engine import host
from engine.state import Club, Pending, State, evolve, evolve1
from engine.tx import Tx


def week_opponent(state: State, club: Club, week: int | None = None) -> str | None:
    """The Opponent card a club plays in a week (this week by default): the week's card of its stack, as the
    game's modules deal them; None when it plays none that week (a match between clubs, or the game is over)."""
    week = state.week if week is None else week
    card = club.opponents[week - 1] if 1 <= week <= len(club.opponents) else None
    rules = host.rules_for(state.game)
    if "week_opponent" not in rules.filled:  # no module changes it: the hook would hand the card back
        return card
    return rules.week_opponent(state, club, week, card)  # type: ignore[attr-defined,no-any-return]


def league_positions(state: State) -> dict[str, int]:
    """Position of every club ("seat:N") and Opponent team ("team:ID"); equal points share a position."""
    entries = [(f"seat:{c.seat}", c.points) for c in state.clubs] + [(f"team:{t.id}", t.points) for t in state.teams]
    return {key: 1 + sum(1 for _, p in entries if p > pts) for key, pts in entries}


def move_team(tx: Tx, team_id: str, points: int) -> None:
    """Move an Opponent team's marker on the League table."""
    teams = tx.state.teams
    i = 0
    for t in teams:
        if t.id == team_id:  # each team once on the table
            changed = [*teams]
            changed[i] = evolve1(t, "points", t.points + points)
            tx.state = evolve1(tx.state, "teams", tuple(changed))
            return
        i += 1


def begin_results(tx: Tx) -> None:
    """After every club's match: Opponents played twice flip inactive; the others roll their die or flip back."""
    dealt = (week_opponent(tx.state, c) for c in tx.state.clubs)
    played = Counter(tx.profile.cards[card].team for card in dealt if card is not None)  # type: ignore[attr-defined]
    teams = []
    pending = list(tx.state.pending)
    board = tx.board(None)
    for t in tx.state.teams:
        if played[t.id] >= 2:
            t = evolve(t, inactive=True)
            if not tx.quiet:
                tx.say("opponent_inactive", None, f"{board.team(t.id).name} played {played[t.id]} clubs and flips to its inactive side.", team=t.id)
        elif played[t.id] == 0:
            if t.inactive:
                t = evolve(t, inactive=False)
                if not tx.quiet:
                    tx.say("opponent_active", None, f"Nobody played {board.team(t.id).name}: its marker flips back instead of rolling.", team=t.id)
            else:
                pending.append(Pending("roll", None, "opponent_die", board.team(t.id).die, False, team=t.id))
        teams.append(t)
    tx.state = evolve(tx.state, teams=tuple(teams), pending=tuple(pending))
    if any(p.purpose == "opponent_die" for p in pending):
        if not tx.quiet:
            tx.say("await_opponent_dice", None, "Roll the Opponent dice for the teams nobody played.",
                   teams=[p.team for p in pending if p.purpose == "opponent_die"])


def opponent_die(tx: Tx, pending: Pending, value: int) -> None:
    """An Opponent die moves its team on the League table (the roll purpose ``opponent_die``)."""
    board = tx.board(None)
    team = board.team(pending.team)
    moves = board.opponent_move(team.die, value)
    move_team(tx, pending.team, moves)
    if not tx.quiet:
        tx.say("opponent_die", None, f"{team.name} rolls {value} on the {team.die} die and moves {moves} space(s).", team=pending.team, roll=value, moves=moves)
