"""Events the rules accept now: candidates built from `State.awaiting`, each checked by applying it.

Used by property tests, the golden playthrough generator and the page's hints.  The list is a useful sample,
not every possible event (a lineup is proposed by `engine.lineup.auto_lineup`, not in all its arrangements).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine import host
from engine.cards import STATS, Profile
from engine.errors import EngineError
from engine.lineup import auto_lineup
from engine.reducer import apply, check_game, replay
from engine.rules.context import owner_of
from engine.state import Game, State
from engine.views import may_use


def faces(die: str) -> int:
    """How many faces a die has: a "dN" has N (the d10 of injuries, the Referee's d12); the Opponent dice have 6."""
    return int(die[1:]) if die[:1] == "d" and die[1:].isdigit() else 6


def _free(profile: Profile, state: State, kind: str) -> list[str]:
    taken: set[str] = set(state.discarded)
    for c in state.clubs:
        taken.update(c.megaphones)
    return [c.id for c in profile.cards_of(kind) if c.id not in taken and owner_of(state, c.id) is None]


def _used_board_cards(state: State) -> set[str]:
    return {c.board_card for c in state.clubs if c.board_card}


def candidates(profile: Profile, state: State) -> list[dict[str, Any]]:
    """Events worth trying now (some may still be refused)."""
    out: list[dict[str, Any]] = []
    board = profile.board
    offered_to: set[int] = set()
    for need in state.awaiting:
        seat, what = need["seat"], need["need"]
        if what == "keep_or_reroll":
            out.append({"type": "keep", "seat": seat})
            out.extend({"type": "reroll", "seat": seat, "value": v} for v in (1, 4, 6))
        elif what == "roll":
            top = faces(need["die"])
            ev: dict[str, Any] = {"type": "roll", "seat": seat}
            if need.get("team"):
                ev["team"] = need["team"]
            out.extend({**ev, "value": v} for v in range(1, top + 1))
        elif what == "card" and need["kinds"] == ["board_meeting"]:
            used = _used_board_cards(state)
            out.extend({"type": "board_meeting", "seat": seat, "card": c.id} for c in profile.cards_of("board_meeting") if c.id not in used)
        elif what == "action":
            out.extend(_actions(profile, state, seat))
        elif what == "lineup":
            club = state.club(seat)
            assert club is not None
            lineup = auto_lineup(profile, club, state)
            out.append(lineup)
            if club.res[1] > 0:
                out.append({**lineup, "stands": 1})
        elif what == "kickoff":
            out.append({"type": "kickoff", "seat": seat})
            club = state.club(seat)
            if club is not None and club.tactic_played is None:
                out.extend({"type": "tactic_played", "seat": seat, "card": t} for t in club.tactics)
        elif what == "suspensions":
            club = state.club(seat)
            assert club is not None
            ids = [h.id for h in club.staff + club.players]
            out.append({"type": "suspensions", "seat": seat, "cards": [ids[i % len(ids)] for i in range(need["count"])]})
        elif what == "objective_result":
            out.extend({"type": "objective_result", "seat": seat, "result": r} for r in ("missed", "fulfilled", "perfect"))
        elif what == "first_player":
            out.extend({"type": "first_player", "seat": c.seat} for c in state.clubs)
        elif what == "abilities":
            out.append({"type": "pass", "seat": seat})
        if isinstance(seat, int) and what != "action" and seat not in offered_to:
            offered_to.add(seat)
            out.extend(_offers(profile, state, seat))
        out.extend(host.rules_for(state.game).candidates(profile, state, need))  # type: ignore[attr-defined]
    _ = board
    return out


def _actions(profile: Profile, state: State, seat: int) -> list[dict[str, Any]]:
    club = state.club(seat)
    assert club is not None
    out: list[dict[str, Any]] = [{"type": "pass", "seat": seat}]
    # a card's chosen footballer: the first untrained one (a coach trains him, a trainer strengthens him)
    pick = next((h.id for h in club.players if not h.trained and not h.unavailable), club.players[0].id if club.players else None)
    for card_id in list(club.directors) + [h.id for h in club.staff] + list(club.infrastructure):
        out.append({"type": "use_card", "seat": seat, "card": card_id, **({"targets": [pick]} if pick else {})})
    if not club.acted:
        out.extend({"type": "hire_player", "seat": seat, "card": c} for c in _free(profile, state, "player")[:3])
        out.extend({"type": "hire_youngster", "seat": seat, "card": c} for c in _free(profile, state, "youngster")[:1])
        out.extend({"type": "hire_staff", "seat": seat, "card": c} for c in _free(profile, state, "staff")[:3])
        out.extend({"type": "sell", "seat": seat, "card": h.id} for h in club.players if h.trained)
        for c in _free(profile, state, "sponsor")[:2]:
            out.extend({"type": "sponsor", "seat": seat, "card": c, "contract": k} for k in ("megaphone", "adboard", "shirt"))
        board = host.rules_for(state.game).board(profile, state, seat, profile.board)  # type: ignore[attr-defined]
        out.extend({"type": "build", "seat": seat, "kind": k.id} for k in board.infrastructure)
        out.append({"type": "office", "seat": seat})
        out.extend({"type": "potential", "seat": seat, "stat": s} for s in STATS)
    return out


def _offers(profile: Profile, state: State, seat: int) -> list[dict[str, Any]]:
    """A ``use_card`` for each optional ability the club may use now (a choice aimed at its first footballer)."""
    club = state.club(seat)
    pick = [club.players[0].id] if club is not None and club.players else []
    return [{"type": "use_card", "seat": seat, "card": m["card"], "targets": pick} for m in may_use(profile, state, seat)]


def legal_events(profile: Profile, state: State) -> list[dict[str, Any]]:
    """The candidate events that the rules accept now."""
    ok = []
    for ev in candidates(profile, state):
        try:
            apply(profile, state, ev, quiet=True)
        except EngineError:
            continue
        ok.append(ev)
    return ok


def deck(profile: Profile, game: Game, kind: str) -> list[Any]:
    """The cards of a kind a game deals from, as its modules say (a Division's Opponent cards), in deck order."""
    rules = host.rules_for(game)
    return list(rules.deck(profile, game, kind, profile.cards_of(kind)))  # type: ignore[attr-defined]


def setup_events(profile: Profile, seats: Sequence[int], picks: Sequence[int] = (),
                 game: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """A complete setup for the given seats; ``picks`` (indexes, e.g. from a test's shuffled deck) vary the cards.

    With ``game`` (a ``game`` event) the setup begins with it, and each club is dealt the Opponent cards that game
    needs (its ``weeks``, as its modules count them); without, it is the base game of the deck's length.
    """
    pick = list(picks)
    weeks = profile.board.setup.opponents_per_club
    chosen = Game()
    table = {t.id for t in profile.board.teams}
    if game is not None:
        options = dict(game.get("options") or {})
        weeks = int(options.get("weeks", weeks))
        named = Game(str(game.get("pack", "eleven")), tuple(game.get("modules") or ()), tuple(sorted(options.items())))
        try:
            rules = host.rules_for(named)
        except KeyError:
            pass  # a pack or module the engine does not have: the game event itself is refused with a sentence
        else:
            chosen = named
            # the game as it will be once its clubs have joined: its modules count the cards they need
            probe = State(game=chosen)
            try:
                probe = apply(profile, probe, dict(game), quiet=True).state
                for seat in seats:
                    probe = apply(profile, probe, {"type": "club", "seat": seat}, quiet=True).state
            except EngineError:
                pass  # the game event itself is refused with a sentence when it is played
            weeks = rules.opponents_needed(probe, weeks, weeks)  # type: ignore[attr-defined]
            # only the teams on this game's League table are dealt (a module may add some)
            table = {t.id for t in rules.board(profile, probe, None, profile.board).teams}  # type: ignore[attr-defined]
    opponents = [c for c in deck(profile, chosen, "opponent") if c.team in table]
    rules = host.rules_for(chosen)
    decks = rules.opponent_decks(chosen, weeks, ((weeks, None),))  # type: ignore[attr-defined]
    kept = rules.objectives_kept(chosen, 1)  # type: ignore[attr-defined]

    def choose(pool: list[Any]) -> Any:
        i = pick.pop(0) % len(pool) if pick else 0
        return pool.pop(i)

    directors = deck(profile, chosen, "director")
    veterans = deck(profile, chosen, "veteran")
    youngsters = deck(profile, chosen, "youngster")
    objectives = deck(profile, chosen, "objective")
    tactics = deck(profile, chosen, "tactic")
    events: list[dict[str, Any]] = [dict(game)] if game is not None else []
    for seat in seats:
        events.append({"type": "club", "seat": seat, "name": f"Club {seat}"})
    for seat in seats:
        events.append({"type": "directors", "seat": seat, "cards": [choose(directors).id for _ in range(profile.board.setup.directors_kept)]})
        vet = choose(veterans)
        young = choose(youngsters)
        while young.untrained.jersey == vet.untrained.jersey:
            youngsters.append(young)
            young = youngsters.pop(0)
        events.append({"type": "starting_players", "seat": seat, "veteran": vet.id, "youngster": young.id})
        # each deck the game deals (one, or the Epic League's lower then higher Division), one card per team in it;
        # the order the cards come in (from the picks, else by seat) decides who meets whom each week
        k = pick.pop(0) if pick else seats.index(seat)
        cards: list[str] = []
        for size, division in decks:
            dealt: list[str] = []
            teams: set[str] = set()
            for card in list(opponents):
                if len(dealt) == size:
                    break
                if card.team not in teams and (division is None or division in (card.divisions or (card.division,))):
                    teams.add(card.team)
                    dealt.append(card.id)
                    opponents.remove(card)
            shift = k % max(len(dealt), 1)
            cards += dealt[shift:] + dealt[:shift]
        events.append({"type": "opponents", "seat": seat, "cards": cards})
        for _ in range(kept):
            events.append({"type": "objective", "seat": seat, "card": choose(objectives).id})
        events.append({"type": "tactic", "seat": seat, "card": choose(tactics).id})
    if game is not None:
        events += table_setup(profile, events)
    events.append({"type": "first_player", "seat": seats[0]})
    return events


def table_setup(profile: Profile, events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """What the table still deals at setup once every club has its cards: for each need of the table's own (a
    module's, e.g. the Opponent cards under the remaining Betting tokens), the first legal event the game's modules
    offer, in deck order.  Empty when the setup is refused before that (the refusal is the setup's own).  A need
    marked ``page`` is what the people at the table did with their own hands (where the Market deck was cut): they
    say it on the Play page, and the deal never decides it for them."""
    try:
        state = replay(profile, events)
    except EngineError:
        return []
    rules = host.rules_for(state.game)
    out: list[dict[str, Any]] = []
    for _ in range(8):  # a bound: each need is answered once
        need = next((n for n in state.awaiting if n["seat"] is None and not n.get("page")
                     and n["need"] not in ("club", "first_player")), None)
        if need is None:
            break
        for event in rules.candidates(profile, state, need):  # type: ignore[attr-defined]
            try:
                state = apply(profile, state, event, quiet=True).state
            except EngineError:
                continue
            out.append(event)
            break
        else:
            break
    return out


def deal_opponents(profile: Profile, game: Mapping[str, Any], shuffled: Sequence[str],
                   taken: Iterable[str] = ()) -> list[str]:
    """A club's Opponent cards as the table deals them, in playing order: through the deck in the order the table
    shuffled it (``shuffled``, card ids: the engine never shuffles), the cards of the game's deck only (its
    Division's, with the Division module), none another club was ``taken``, one card per team, as many as the
    game's weeks need.  A game the engine refuses raises its `EngineError`."""
    chosen = check_game({"type": "game", **game}, profile)
    rules = host.rules_for(chosen)
    weeks = int(chosen.option("weeks", profile.board.setup.opponents_per_club))
    count = rules.opponents_needed(State(), weeks, weeks)  # type: ignore[attr-defined]
    allowed = {c.id: c for c in deck(profile, chosen, "opponent")}
    skip = set(taken)
    teams: set[str] = set()
    out: list[str] = []
    for card_id in shuffled:
        card = allowed.get(card_id)
        if card is None or card_id in skip or card.team in teams or card_id in out:
            continue
        teams.add(card.team)
        out.append(card_id)
        if len(out) == count:
            break
    return out
