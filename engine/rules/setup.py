"""Setup (rulebook, Setup: player boards): clubs take seats, Directors, starting footballers, Opponent cards,
Objective, Tactic, and the First player, who starts week 1."""

from __future__ import annotations

from typing import Any

from engine import errors as E
from engine.cards import STYLES, Director
from engine.rules.context import card_marker, field, flip_markers, holder_of, move_stat, seat_of
from engine.rules.effects import Ctx, apply_abilities
from engine.state import Club, Held, State, Team, evolve
from engine.tx import Tx


def _setup_only(tx: Tx, seat: int | None, what: str) -> None:
    if tx.state.stage != "setup":
        raise E.WrongStage(
            E.WRONG_STAGE.format(seat=seat, what=what, stage=tx.stage_name(), expected="and this belongs to the setup")
        )


def _free_card(tx: Tx, card_id: Any, kind: str) -> Any:
    card = tx.card(card_id, kind)
    # the game deals from part of the deck only: a module's cards when it is played, a Division's Opponent cards
    why = tx.rules.not_dealt(tx.profile, tx.state.game, card)  # type: ignore[attr-defined]
    if why is not None:
        raise E.NotAllowed(why)
    owner = holder_of(tx.state.clubs, card.id, kind)
    if owner is not None:
        raise E.NotAllowed(E.CARD_TAKEN.format(name=card.name, seat=owner.seat))
    return card



def on_club(tx: Tx) -> None:
    """A club takes a seat: Stat markers on the second space, a First trainer below its Club board."""
    ev = tx.event
    seat = seat_of(ev)
    name = field(ev, "name", str, "the club's name", default=f"Club {seat}")
    _setup_only(tx, seat, "join the game")
    setup = tx.profile.board.setup
    if not 1 <= seat <= setup.max_clubs:
        raise E.UnknownSeat(E.UNKNOWN_SEAT.format(seat=seat))
    taken = tx.state.club(seat)
    if taken is not None:
        raise E.NotAllowed(E.SEAT_TAKEN.format(seat=seat, name=taken.name))
    if len(tx.state.clubs) >= setup.max_clubs:
        raise E.NotAllowed(E.TOO_MANY_CLUBS.format(count=len(tx.state.clubs), max=setup.max_clubs))
    tx.rules.club_check(tx, seat)  # type: ignore[attr-defined]
    trainers = setup.first_trainers
    trainer = trainers[len(tx.state.clubs) % len(trainers)] if trainers else None
    start = tx.board(seat).stat_start
    club = Club(seat=seat, name=name, stats=(start, start, start, start), staff=(Held(trainer),) if trainer else ())
    clubs = tuple(sorted(tx.state.clubs + (club,), key=lambda c: c.seat))
    tx.state = evolve(tx.state, clubs=clubs)
    tx.say("club_joined", seat, f"{name} takes Seat {seat} with a First trainer.", name=name, first_trainer=trainer)


def on_directors(tx: Tx) -> None:
    """The three Directors a club kept: their Stat changes (after all three are revealed), then their bonuses."""
    ev = tx.event
    seat = seat_of(ev)
    _setup_only(tx, seat, "take Directors")
    club = tx.club(seat)
    cards = field(ev, "cards", list, "the ids of the Director cards kept")
    count = tx.profile.board.setup.directors_kept
    if club.directors:
        raise E.NotAllowed(E.SETUP_ALREADY.format(seat=seat, what="its Directors"))
    if len(cards) != count or len(set(cards)) != count:
        raise E.NotAllowed(E.SETUP_DIRECTORS.format(seat=seat, count=count))
    directors: list[Director] = [_free_card(tx, c, "director") for c in cards]
    club = tx.put(evolve(club, directors=tuple(d.id for d in directors)))
    tx.say("directors", seat, f"Seat {seat} keeps {', '.join(d.name for d in directors)}.", cards=list(cards))
    for d in directors:
        for stat, steps in d.stat_changes:
            club = tx.put(move_stat(tx, tx.club(seat), stat, steps))
    for d in directors:
        apply_abilities(tx, d.abilities, "immediate", Ctx(seat=seat, source=d.id, label=d.name))


def _placed_markers(tx: Tx, seat: int, placed: dict[Any, Any], cards: dict[int, str], names: dict[int, str]) -> dict[int, str]:
    """The sides the table placed the numbered jersey markers on: each once, half attack and half defence, the
    starting cards' markers showing their cards' symbols."""
    jerseys = tx.profile.board.pitch.jerseys
    try:
        sides = {int(k): v for k, v in placed.items()}
    except (TypeError, ValueError):
        sides = {}
    if sorted(sides) != sorted(jerseys) or any(v not in STYLES for v in sides.values()):
        raise E.NotAllowed(E.SETUP_MARKERS.format(seat=seat, known=", ".join(map(str, jerseys))))
    attack, defence = setup_styles(tx)
    shown = sum(1 for v in sides.values() if v == "attack")
    if shown != attack:
        raise E.NotAllowed(E.SETUP_MARKERS_HALF.format(seat=seat, attack=attack, defence=defence, placed_attack=shown, placed_defence=len(sides) - shown))
    for jersey, style in cards.items():
        if sides[jersey] != style:
            raise E.NotAllowed(E.SETUP_MARKERS_CARD.format(jersey=jersey, style=style, name=names[jersey]))
    return sides


def setup_styles(tx: Tx) -> tuple[int, int]:
    """How many numbered jersey markers show attack and defence at the beginning of the game (5 and 5)."""
    styles = dict(tx.profile.board.pitch.start_styles)
    return styles.get("attack", 0), styles.get("defence", 0)


def on_starting_players(tx: Tx) -> None:
    """The starting Veteran and Youngster; equal jersey numbers mean the Youngster is discarded and redrawn."""
    ev = tx.event
    seat = seat_of(ev)
    _setup_only(tx, seat, "take starting footballers")
    club = tx.club(seat)
    if club.players:
        raise E.NotAllowed(E.SETUP_ALREADY.format(seat=seat, what="its starting Veteran and Youngster"))
    vet = _free_card(tx, field(ev, "veteran", str, "the id of the Veteran card drawn"), "veteran")
    young = _free_card(tx, field(ev, "youngster", str, "the id of the Youngster card drawn"), "youngster")
    if vet.untrained.jersey == young.untrained.jersey:
        raise E.NotAllowed(E.SETUP_SAME_JERSEY.format(veteran=vet.name, youngster=young.name, jersey=vet.untrained.jersey))
    # their markers lie on the pitch showing the cards' symbols ("all jersey markers on the side corresponding to
    # the Player cards"); the others are known once the table states them, or as the lineups show them
    sides = {**card_marker(tx.profile, vet.id), **card_marker(tx.profile, young.id)}
    placed = field(ev, "markers", dict, "{jersey number: side} of every numbered jersey marker", default=None)
    if placed is not None:
        names = {vet.untrained.jersey: vet.name, young.untrained.jersey: young.name}
        sides = _placed_markers(tx, seat, placed, sides, names)
    club = flip_markers(evolve(club, players=(Held(vet.id), Held(young.id))), sides)
    tx.put(evolve(club, markers_setup=tuple(sorted(sides.items()))))
    tx.say("starting_players", seat, f"Seat {seat} starts with {vet.name} and {young.name}.", veteran=vet.id, youngster=young.id)


def on_opponents(tx: Tx) -> None:
    """The Opponent cards dealt to a club, in the order they will be played (their number is the game length)."""
    ev = tx.event
    seat = seat_of(ev)
    _setup_only(tx, seat, "take Opponent cards")
    club = tx.club(seat)
    if club.opponents:
        raise E.NotAllowed(E.SETUP_ALREADY.format(seat=seat, what="its Opponent cards"))
    cards = [_free_card(tx, c, "opponent") for c in field(ev, "cards", list, "the ids of the Opponent cards dealt")]
    if not cards or len({c.id for c in cards}) != len(cards):
        raise E.BadEvent(E.BAD_FIELD.format(type="opponents", field="cards", why="list each dealt Opponent card once"))
    table = {t.id: t for t in tx.board(None).teams}
    # one card per team within each deck the game deals (one deck in the base game; the Epic League's lower then
    # higher Division deck, each of its own Division)
    decks = tx.rules.opponent_decks(tx.state.game, len(cards), ((len(cards), None),))  # type: ignore[attr-defined]
    start = 0
    for size, division in decks:
        teams: set[str] = set()
        for c in cards[start:start + size]:
            if c.team not in table:
                raise E.NotAllowed(E.SETUP_OPPONENT_OFF_TABLE.format(name=c.name, card=c.id, known=", ".join(t.name for t in table.values())))
            if c.team in teams:
                raise E.NotAllowed(E.SETUP_OPPONENT_EMBLEM.format(seat=seat, team=table[c.team].name))
            if division is not None and division not in (c.divisions or (c.division,)):
                raise E.NotAllowed(E.SETUP_OPPONENT_DECK.format(seat=seat, name=c.name, card=c.id, first=start + 1,
                                                                last=start + size, division=division))
            teams.add(c.team)
        start += size
    weeks = tx.state.game.option("weeks")
    if weeks is not None:
        needed = tx.rules.opponents_needed(tx.state, weeks, weeks)  # type: ignore[attr-defined]
        if len(cards) != needed:
            raise E.NotAllowed(E.SETUP_OPPONENT_WEEKS.format(seat=seat, count=len(cards), weeks=weeks, needed=needed))
    others = {len(c.opponents) for c in tx.state.clubs if c.opponents}
    if others and len(cards) not in others:
        raise E.NotAllowed(E.SETUP_OPPONENT_COUNT.format(seat=seat, count=len(cards), others=others.pop()))
    tx.put(evolve(club, opponents=tuple(c.id for c in cards)))
    tx.say("opponents", seat, f"Seat {seat} is dealt {len(cards)} Opponent cards: the game lasts {len(cards)} weeks.", cards=[c.id for c in cards], secret=True,
           face_down=True)  # the stack is face down: not even its own seat sees the cards until each Matchday


def on_objective(tx: Tx) -> None:
    """The Objective card a club keeps (secret to the others; the page shows it only to its owner)."""
    ev = tx.event
    seat = seat_of(ev)
    _setup_only(tx, seat, "keep an Objective")
    club = tx.club(seat)
    card_id = field(ev, "card", str, "the id of the Objective card kept")
    if club.objective:
        # a module may keep more than one (the Epic League's two Objectives)
        if tx.rules.objective_kept(tx, seat, _free_card(tx, card_id, "objective").id):  # type: ignore[attr-defined]
            tx.say("objective", seat, f"Seat {seat} keeps another Objective card.", card=card_id, secret=True)
            return
        raise E.NotAllowed(E.SETUP_ALREADY.format(seat=seat, what="kept an Objective"))
    card = _free_card(tx, card_id, "objective")
    tx.put(evolve(club, objective=card.id))
    tx.say("objective", seat, f"Seat {seat} keeps an Objective card.", card=card.id, secret=True)  # shown to its seat only


def on_tactic(tx: Tx) -> None:
    """A Tactic card drawn (at setup, or later by an effect)."""
    ev = tx.event
    seat = seat_of(ev)
    club = tx.club(seat)
    card = _free_card(tx, field(ev, "card", str, "the id of the Tactic card drawn"), "tactic")
    tx.put(evolve(club, tactics=club.tactics + (card.id,)))
    tx.say("tactic", seat, f"Seat {seat} takes the Tactic card {card.name}.", card=card.id)


def missing(state: State, profile: Any) -> list[tuple[int, str, list[str]]]:
    """What each club still lacks before the game can start: (seat, need words, card kinds)."""
    out: list[tuple[int, str, list[str]]] = []
    for c in state.clubs:
        if not c.directors:
            out.append((c.seat, "its Directors", ["director"]))
        if not c.players:
            out.append((c.seat, "its starting Veteran and Youngster", ["veteran", "youngster"]))
        if not c.opponents:
            out.append((c.seat, "its Opponent cards", ["opponent"]))
        if not c.objective:
            out.append((c.seat, "an Objective", ["objective"]))
        if not c.tactics:
            out.append((c.seat, "a Tactic card", ["tactic"]))
    return out


def on_first_player(tx: Tx) -> None:
    """The First player takes the Stage marker; week 1 begins with Monday (the setup's phase is then over)."""
    ev = tx.event
    seat = seat_of(ev)
    _setup_only(tx, seat, "become the First player")
    tx.club(seat)
    gaps = missing(tx.state, tx.profile)
    if gaps:
        words = "; ".join(f"Seat {s} needs {w}" for s, w, _ in gaps)
        raise E.NotAllowed(E.SETUP_INCOMPLETE.format(missing=words))
    tx.rules.setup_check(tx)  # type: ignore[attr-defined]
    weeks = tx.state.game.option("weeks") or _weeks_for(tx, len(tx.state.clubs[0].opponents))
    teams = tuple(Team(t.id) for t in tx.board(None).teams)
    tx.state = evolve(tx.state, first_seat=seat, weeks=weeks, teams=teams)
    tx.say("first_player", seat, f"Seat {seat} is the First player and takes the Stage marker. The game lasts {weeks} weeks.", weeks=weeks)


def _weeks_for(tx: Tx, dealt: int) -> int:
    """The game's length when the game event names none: the weeks the dealt Opponent cards last (the game's
    modules may play some weeks without an Opponent card, e.g. matches between clubs)."""
    for weeks in range(dealt, 21):
        if tx.rules.opponents_needed(tx.state, weeks, weeks) == dealt:  # type: ignore[attr-defined]
            return weeks
    return dealt


def setup_over(tx: Tx) -> bool:
    """The setup is over once the First player is named."""
    return tx.state.first_seat != 0


def setup_awaiting(state: State) -> list[dict[str, Any]]:
    """A club to seat first; then what each club still lacks; then the First player."""
    if not state.clubs:
        return [{"seat": None, "need": "club"}]
    gaps = missing(state, None)
    out: list[dict[str, Any]] = [{"seat": seat, "need": "card", "kinds": kinds, "what": words} for seat, words, kinds in gaps]
    if not gaps and not state.first_seat:
        out.append({"seat": None, "need": "first_player"})
    return out
