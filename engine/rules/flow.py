"""The week's stage flow: Monday (Production, Board meeting), the turns, Matchday's start, the League results,
the End of the round, and the move to the Final scoring."""

from __future__ import annotations

from collections import Counter

from engine import errors as E
from engine.cards import STATS, BoardMeeting
from engine.rules.common import Tx, field, seat_of, stage_name, suspend_other, turn_order, with_res
from engine.rules.effects import Ctx, apply_abilities, apply_effects, conditions_hold
from engine.state import Club, Pending, evolve

TURN_DAYS = ("tuesday", "wednesday", "thursday")


def _round_mods(club: Club) -> Club:
    return evolve(club, mods=tuple(m for m in club.mods if not m[0].endswith(":round")))


def start_week(tx: Tx, week: int) -> None:
    """Monday of a week: reset the week's markers, Production for every club, then the Board meetings."""
    clubs = tuple(
        evolve(
            _round_mods(c),
            acted=False,
            free_used=0,
            board_card=None,
            board_done=False,
            lineup=None,
            stands=0,
            tactic_played=None,
            goals=0,
            conceded=0,
            result=None,
            consequence_done=False,
            opp_mods=(),
        )
        for c in tx.state.clubs
    )
    tx.state = evolve(tx.state, stage="monday", week=week, turn=0, clubs=clubs)
    tx.say("week", None, f"Week {week} begins: Monday, Production and the Board meetings.", week=week, first_seat=tx.state.first_seat)
    board = tx.profile.board
    for club in tx.state.clubs:
        gained = tuple(board.produce(stat, club.stats[i]) for i, stat in enumerate(STATS))
        club = tx.put(evolve(club, res=(club.res[0] + gained[0], club.res[1] + gained[1], club.res[2] + gained[2], club.res[3] + gained[3])))
        words = ", ".join(f"{n} {STATS[i].capitalize()}" for i, n in enumerate(gained))
        tx.say("production", club.seat, f"Seat {club.seat} produces {words}.", gained=dict(zip(STATS, gained)))
        for source, abilities in card_abilities(tx, club):
            apply_abilities(tx, abilities, "monday", Ctx(seat=club.seat, source=source, label=tx.name(source)))


def card_abilities(tx: Tx, club: Club) -> list[tuple[str, tuple]]:
    """Abilities of a club's Directors, Staff, Sponsors and Infrastructure (not footballers), by source id."""
    out: list[tuple[str, tuple]] = []
    cards = tx.profile.cards
    for d in club.directors:
        if not club.suspension_on(d):
            out.append((d, cards[d].abilities))
    for h in club.staff:
        if not h.unavailable:
            out.append((h.id, cards[h.id].abilities))
    if club.shirt:
        out.append((club.shirt, cards[club.shirt].shirt))
    for a in club.adboards:
        if not club.mod(f"adboard_bonus:{a}"):  # the bonus was taken instead of the adboard's effects
            out.append((a, cards[a].adboard))
    suspended = {k for k, _ in club.suspended}
    for kind in club.infrastructure:
        if kind in suspended:
            suspended.discard(kind)  # the suspended one of two tokens of a kind; the other still works
            continue
        out.append((kind, tx.profile.board.infrastructure_kind(kind).abilities))
    return out


# ---------------------------------------------------------------------------------------------------------------
# Monday: Board meeting.


def on_board_meeting(tx: Tx) -> None:
    """A club's Board meeting card is revealed; the engine then awaits its d6."""
    ev = tx.event
    seat = seat_of(ev)
    if tx.state.stage != "monday":
        raise E.WrongStage(E.WRONG_STAGE.format(seat=seat, what="hold a Board meeting", stage=stage_name(tx.state), expected="and Board meetings happen on Monday"))
    club = tx.club(seat)
    card: BoardMeeting = tx.card(field(ev, "card", str, "the id of the Board meeting card drawn"), "board_meeting")
    if club.board_card is not None:
        raise E.NotAllowed(E.ALREADY_BOARD_CARD.format(seat=seat, name=tx.name(club.board_card)))
    from engine.rules.common import owner_of

    owner = owner_of(tx.state, card.id)
    if owner is not None:
        raise E.NotAllowed(E.CARD_TAKEN.format(name=card.name, seat=owner.seat))
    tx.put(evolve(club, board_card=card.id))
    tx.state = evolve(tx.state, pending=tx.state.pending + (Pending("roll", seat, "board_meeting", "d6", True),))
    tx.say("board_meeting_card", seat, f"Seat {seat}'s Board meeting: {card.name}. Roll the d6.", card=card.id)


def _tally(tx: Tx, club: Club, card: BoardMeeting, face: int) -> tuple[dict[str, str], list[str]]:
    """Each Director's vote on a face, and the decisions with the most votes among those the card shows (a vote
    for a colour the card does not show counts for no decision)."""
    votes = {d: tx.profile.cards[d].vote(face) for d in club.directors}
    shown = [d.colour for d in card.decisions]
    tally = Counter(c for c in votes.values() if c in shown)
    top = max(tally.values(), default=0)
    # no valid vote at all: every decision ties at none
    leaders = [c for c in shown if tally[c] == top]
    return votes, leaders


def board_meeting_roll(tx: Tx, seat: int, value: int, targets: list[str] | None = None) -> None:
    """Each Director votes for the rolled result; the majority decision's effects apply; a tie is rerolled free."""
    club = tx.club(seat)
    card: BoardMeeting = tx.profile.cards[club.board_card]  # type: ignore[index,assignment]
    votes, leaders = _tally(tx, club, card, value)
    names = {d: tx.name(d) for d in club.directors}
    if len(leaders) > 1 and not _always_tied(tx, club, card):
        tx.state = evolve(tx.state, pending=tx.state.pending + (Pending("roll", seat, "board_meeting", "d6", True),))
        tx.say(
            "board_meeting_tie", seat, f"Seat {seat} rolled {value}: the Directors' votes are tied ({', '.join(leaders)}). Reroll the d6 for free.",
            roll=value, votes=votes, decision=None,
        )
        return
    # when no face of the die can break the tie, the first Director kept among those tied decides
    colour = leaders[0] if len(leaders) == 1 else next((votes[d] for d in club.directors if votes[d] in leaders), None)
    decision = card.decision(colour) if colour else None
    title = decision.title if decision else "no decision"
    vote_words = ", ".join(f"{names[d]} votes {c}" for d, c in votes.items())
    won = f"the {colour} decision wins — {title}" if decision else "no decision gets a vote, so nothing happens"
    tx.say(
        "board_meeting", seat, f"Seat {seat} rolled {value} at the Board meeting ({vote_words}): {won}.",
        roll=value, votes=votes, decision=colour if decision else None, title=title, card=card.id,
    )
    tx.put(evolve(tx.club(seat), board_done=True))
    if decision is not None:
        apply_effects(tx, decision.effects, Ctx(seat=seat, source=card.id, label=card.name, targets=list(targets or [])))


def _always_tied(tx: Tx, club: Club, card: BoardMeeting) -> bool:
    """True when the club's Directors tie on every face of the d6, so rerolling could never end."""
    return all(len(_tally(tx, club, card, face)[1]) > 1 for face in range(1, 7))


# ---------------------------------------------------------------------------------------------------------------
# Advancing the stages.


def advance(tx: Tx) -> None:
    """Move on to the next stage (or turn) as soon as nothing more is awaited in this one."""
    for _ in range(64):  # each pass moves at most one step; a bound keeps a data mistake from looping forever
        if not _step(tx):
            return


def _step(tx: Tx) -> bool:
    s = tx.state
    if s.stage == "monday":
        if not s.pending and all(c.board_done for c in s.clubs):
            _start_day(tx, "tuesday")
            return True
    elif s.stage in TURN_DAYS:
        if s.turn and not any(p.seat == s.turn for p in s.pending) and _turn_over(tx, tx.club(s.turn)):
            _next_turn(tx)
            return True
    elif s.stage == "matchday":
        if not s.pending and all(c.consequence_done for c in s.clubs):
            _league_results(tx)
            return True
    elif s.stage == "results":
        if not s.pending:
            _end_of_round(tx)
            return True
    elif s.stage == "end_of_round":
        if not s.pending:
            _next_week(tx)
            return True
    elif s.stage == "final_scoring":
        if all(c.objective_result is not None for c in s.clubs):
            tx.state = evolve(tx.state, stage="over")
            from engine.views import final_scores

            scores = final_scores(tx.profile, tx.state)
            winners = [r["seat"] for r in scores if r["winner"]]
            tx.say("game_over", None, f"The game is over. Winner: {', '.join(f'Seat {w}' for w in winners)}.", scores=scores, winners=winners)
            return False
    return False


def _turn_over(tx: Tx, club: Club) -> bool:
    from engine.rules.actions import can_take_free_action

    return club.acted and (club.free_used > 0 or not can_take_free_action(tx, club))


def _start_day(tx: Tx, day: str) -> None:
    clubs = tuple(evolve(c, acted=False, free_used=0) for c in tx.state.clubs)
    first = turn_order(tx.state)[0]
    tx.state = evolve(tx.state, stage=day, turn=first, clubs=clubs)
    tx.say("day", None, f"{day.capitalize()}: Seat {first} plays first.", day=day, turn=first)


def end_turn(tx: Tx, seat: int) -> None:
    """Mark the club's turn as over (a pass)."""
    tx.put(evolve(tx.club(seat), acted=True, free_used=1))


def _next_turn(tx: Tx) -> None:
    order = turn_order(tx.state)
    i = order.index(tx.state.turn)
    if i + 1 < len(order):
        seat = order[i + 1]
        tx.state = evolve(tx.state, turn=seat)
        tx.say("turn", seat, f"Seat {seat}'s turn ({stage_name(tx.state)}).", turn=seat)
        return
    day = tx.state.stage
    if day != "thursday":
        _start_day(tx, TURN_DAYS[TURN_DAYS.index(day) + 1])
    else:
        _start_matchday(tx)


def _start_matchday(tx: Tx) -> None:
    """Matchday: every club sets its lineup (injured and suspended cards shed a token after it, at step 4)."""
    tx.state = evolve(tx.state, stage="matchday", turn=0)
    tx.say("day", None, "Matchday: set your lineups.", day="matchday")


def _league_results(tx: Tx) -> None:
    """After every club's match: Opponents played twice flip inactive; the others roll their die or flip back."""
    played = Counter(tx.profile.cards[c.opponents[tx.state.week - 1]].team for c in tx.state.clubs)
    teams = []
    pending = list(tx.state.pending)
    for t in tx.state.teams:
        if played[t.id] >= 2:
            t = evolve(t, inactive=True)
            tx.say("opponent_inactive", None, f"{tx.profile.board.team(t.id).name} played {played[t.id]} clubs and flips to its inactive side.", team=t.id)
        elif played[t.id] == 0:
            if t.inactive:
                t = evolve(t, inactive=False)
                tx.say("opponent_active", None, f"Nobody played {tx.profile.board.team(t.id).name}: its marker flips back instead of rolling.", team=t.id)
            else:
                die = tx.profile.board.team(t.id).die
                pending.append(Pending("roll", None, "opponent_die", die, False, team=t.id))
        teams.append(t)
    tx.state = evolve(tx.state, stage="results", teams=tuple(teams), pending=tuple(pending))
    if pending:
        tx.say("await_opponent_dice", None, "Roll the Opponent dice for the teams nobody played.", teams=[p.team for p in pending])


def opponent_die(tx: Tx, team_id: str, value: int) -> None:
    """An Opponent die moves its team on the League table."""
    team = tx.profile.board.team(team_id)
    moves = tx.profile.board.opponent_move(team.die, value)
    tx.state = evolve(tx.state, teams=tuple(evolve(t, points=t.points + moves) if t.id == team_id else t for t in tx.state.teams))
    tx.say("opponent_die", None, f"{team.name} rolls {value} on the {team.die} die and moves {moves} space(s).", team=team_id, roll=value, moves=moves)


def _open_windows(tx: Tx, timing: str) -> bool:
    """Apply a moment's mandatory abilities for every club; wait for the clubs that may use optional ones there."""
    from engine.rules.actions import offered

    for club in tx.state.clubs:
        for source, abilities in card_abilities(tx, club):
            apply_abilities(tx, abilities, timing, Ctx(seat=club.seat, source=source, label=tx.name(source)))
    opened = tuple(Pending("abilities", c.seat, timing) for c in tx.state.clubs)
    tx.state = evolve(tx.state, pending=tx.state.pending + opened)
    waiting = [c.seat for c in tx.state.clubs if offered(tx, c)]
    tx.state = evolve(tx.state, pending=tuple(p for p in tx.state.pending if p.need != "abilities" or p.seat in waiting))
    for seat in waiting:
        tx.say("abilities", seat, f"Seat {seat} may use its cards' abilities at {stage_name(tx.state)}, or pass.", timing=timing)
    return bool(waiting)


def close_window(tx: Tx, seat: int) -> None:
    """The club is done with its optional abilities at this moment; the last one to finish lets the moment go on."""
    tx.state = evolve(tx.state, pending=tuple(p for p in tx.state.pending if not (p.need == "abilities" and p.seat == seat)))
    if any(p.need == "abilities" for p in tx.state.pending):
        return
    if tx.state.stage == "end_of_round":
        _close_round(tx)
    elif tx.state.stage == "final_scoring":
        _score_objectives(tx)


def _end_of_round(tx: Tx) -> None:
    """The End of the round's abilities (the optional ones wait for their clubs), then the round closes."""
    tx.state = evolve(tx.state, stage="end_of_round")
    if not _open_windows(tx, "end_of_round"):
        _close_round(tx)


def _close_round(tx: Tx) -> None:
    """Discard resources on cards, unexhaust, reset scores; then the game ends or Maintenance is paid."""
    clubs = []
    for c in tx.state.clubs:
        clean = lambda hs: tuple(evolve(h, exhausted=False, assigned=(0, 0, 0, 0), strength_temp=0) for h in hs)  # noqa: E731
        clubs.append(evolve(c, players=clean(c.players), staff=clean(c.staff), exhausted=(), goals=0, conceded=0, used=()))
    tx.state = evolve(tx.state, clubs=tuple(clubs))
    tx.say("end_of_round", None, f"End of week {tx.state.week}: cards unexhausted, Score markers back to 0.", week=tx.state.week)
    if tx.state.week >= tx.state.weeks:
        _final_scoring(tx)
        return
    board = tx.profile.board
    pending = list(tx.state.pending)
    for club in tx.state.clubs:
        due = maintenance_due(tx, club)
        paid = min(due, club.res[0])
        club = with_res(club, "budget", -paid)
        text = f"Seat {club.seat} pays {paid} € Maintenance"
        if due > paid:
            pending.append(Pending("suspensions", club.seat, count=due - paid))
            text += f" and is {due - paid} € short: choose a Staff or Player card for 2 Suspension tokens per missing €"
        kept = board.fanbase_kept
        res = (club.res[0], min(club.res[1], kept), min(club.res[2], kept), min(club.res[3], kept))
        club = tx.put(evolve(club, res=res))
        tx.say("maintenance", club.seat, text + ".", due=due, paid=paid, missing=due - paid)
    tx.state = evolve(tx.state, pending=tuple(pending))


def maintenance_due(tx: Tx, club: Club) -> int:
    """€ due on the three Maintenance tracks (footballers, Staff, Infrastructure)."""
    board = tx.profile.board
    return (
        board.maintenance_due("players", len(club.players))
        + board.maintenance_due("staff", len(club.staff))
        + board.maintenance_due("infrastructure", len(club.infrastructure))
    )


def on_suspensions(tx: Tx) -> None:
    """The club names a Staff or Player card for each missing € of Maintenance: two Suspension tokens each."""
    ev = tx.event
    seat = seat_of(ev)
    need = next((p for p in tx.state.pending if p.need == "suspensions" and p.seat == seat), None)
    if need is None:
        raise E.NotAllowed(E.NOT_WAITING_ROLL.format(who=f"Seat {seat}").replace("roll", "choice of Suspensions"))
    cards = field(ev, "cards", list, "one Staff or Player card id for each missing €")
    club = tx.club(seat)
    if len(cards) != need.count or any(not isinstance(c, str) or club.held(c) is None for c in cards):
        raise E.NotAllowed(E.SUSPENSION_CHOICE.format(seat=seat, count=need.count))
    from engine.rules.common import replace_held

    for card_id in cards:
        held = club.held(card_id)
        assert held is not None
        club = replace_held(club, evolve(held, suspension=held.suspension + 2))
        tx.say("suspension", seat, f"{tx.name(card_id)} gets 2 Suspension tokens for unpaid Maintenance.", card=card_id, tokens=2)
    tx.put(club)
    tx.state = evolve(tx.state, pending=tuple(p for p in tx.state.pending if p is not need))
    advance(tx)


def _next_week(tx: Tx) -> None:
    order = turn_order(tx.state)
    nxt = order[1 % len(order)]
    tx.state = evolve(tx.state, first_seat=nxt)
    tx.say("stage_marker", nxt, f"Seat {nxt} takes the Stage marker.", first_seat=nxt)
    start_week(tx, tx.state.week + 1)


def _final_scoring(tx: Tx) -> None:
    """The Final scoring's abilities (the optional ones wait for their clubs), then the Objectives."""
    tx.state = evolve(tx.state, stage="final_scoring", turn=0)
    if not _open_windows(tx, "final_scoring"):
        _score_objectives(tx)


def _score_objectives(tx: Tx) -> None:
    """Objectives are checked where the data allows; the others wait for the table's word."""
    for club in tx.state.clubs:
        club = tx.club(club.seat)
        if club.objective_result is not None:
            continue
        obj = tx.profile.cards.get(club.objective or "")
        if obj is None:
            tx.put(evolve(club, objective_result="missed"))
            continue
        ctx = Ctx(seat=club.seat, source=obj.id, label=obj.name)
        goal = conditions_hold(tx, club, obj.goal, ctx)
        perfect = conditions_hold(tx, club, obj.perfect, ctx) if goal else False
        if goal is False:
            result = "missed"
        elif goal is True and perfect is not None:
            result = "perfect" if perfect else "fulfilled"
        else:
            tx.say("objective_ask", club.seat, f"Seat {club.seat}: tell whether {obj.name} is missed, fulfilled or fulfilled perfectly.", card=obj.id)
            continue
        tx.put(evolve(club, objective_result=result))
        tx.say("objective_result", club.seat, f"Seat {club.seat}'s Objective {obj.name} is {result}.", card=obj.id, result=result)
    tx.say("final_scoring", None, "The last week is over: Final scoring.")


def on_objective_result(tx: Tx) -> None:
    """The table says how far a club fulfilled its Objective (when the data cannot check it)."""
    ev = tx.event
    seat = seat_of(ev)
    if tx.state.stage != "final_scoring":
        raise E.WrongStage(E.WRONG_STAGE.format(seat=seat, what="score its Objective", stage=stage_name(tx.state), expected="and Objectives are scored at the end"))
    result = field(ev, "result", str, '"missed", "fulfilled" or "perfect"')
    if result not in ("missed", "fulfilled", "perfect"):
        raise E.BadEvent(E.BAD_FIELD.format(type="objective_result", field="result", why='"missed", "fulfilled" or "perfect"'))
    club = tx.club(seat)
    if club.objective_result is not None:
        raise E.NotAllowed(E.SETUP_ALREADY.format(seat=seat, what=f"its Objective scored ({club.objective_result})"))
    window = next((p for p in tx.state.pending if p.need == "abilities"), None)
    if window is not None:
        raise E.NotAllowed(E.FINISH_ABILITIES.format(seat=window.seat, moment=stage_name(tx.state)))
    tx.put(evolve(club, objective_result=result))
    tx.say("objective_result", seat, f"Seat {seat}'s Objective is {result}.", result=result)
    advance(tx)

