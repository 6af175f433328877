"""Suspension and Injury (rulebook, Additional rules): tokens on cards, who the d10 names, shedding a token a week.

000 l.850: "Suspended players cannot play during the following weeks (according to the Suspension token). Before
the match you may exhaust their card for free to remove 1 week Suspension"; l.862: "Injured players cannot play
during the following weeks (according to the Injury token)"; Matchday step 4 (l.632) is when a token goes. The
note on l.868: a number whose every card is out is replaced by a blank jersey marker, "you must have 10 players in
each match". Directors and Infrastructure tokens take Suspension tokens too ("Other cards and tokens").
"""

from __future__ import annotations

from typing import Final

from engine.rules.context import replace_held, set_mod, side_of, suspend_other
from engine.state import Club, Held, evolve
from engine.tx import Tx


def d10_jersey(tx: Tx, face: int) -> int | None:
    """The jersey number a face of the injury d10 names: the face-th numbered jersey marker of the board (faces 1–10
    name the ten printed numbers in order, 2 to 11 on the shipped board), so every numbered marker can be hit."""
    jerseys = tx.profile.board.pitch.jerseys
    return jerseys[face - 1] if 1 <= face <= len(jerseys) else None


def hit_jersey(tx: Tx, club: Club, jersey: int) -> Held | None:
    """The footballer card wearing a number (the one that played this week first), or None."""
    wearing = [h for h in club.players if side_of(tx, h, club).jersey == jersey]
    if not wearing:
        return None
    if club.lineup is not None:
        played = {p.card for p in club.lineup}
        for h in wearing:
            if h.id in played:
                return h
    return wearing[0]


def injure(tx: Tx, club: Club, held: Held, weeks: int, label: str) -> Club:
    """Put an Injury token on a footballer, unless the club has an injury prevention left."""
    for key in ("prevent_injury:round", "prevent_injury:permanent"):
        if club.mod(key) > 0:
            tx.say("injury_prevented", club.seat, f"{tx.name(held.id)} escapes an injury ({label}).", card=held.id)
            return set_mod(club, key, -1) if key.endswith("round") else club
    weeks = gained(tx, club, held, "injury", weeks, label)
    if not weeks:
        return club
    if not tx.quiet:
        tx.say("injury", club.seat, f"{tx.name(held.id)} is injured for {weeks} week(s) ({label}).", card=held.id, weeks=weeks)
    return replace_held(club, evolve(held, injury=max(held.injury, weeks)))


#: Said when a module lets a card gain fewer tokens than it was given (the Epic League's Tough token).
TOKENS_IGNORED: Final = "{name} ignores {ignored} of the {kind} token(s) ({label}): {count} left to gain."


def gained(tx: Tx, club: Club, held: Held, kind: str, count: int, label: str) -> int:
    """The tokens the card gains of ``count`` given, as the game's modules let it (``tokens_gained``)."""
    if "tokens_gained" not in tx.rules.filled:  # type: ignore[attr-defined]
        return count
    kept = max(0, min(count, tx.rules.tokens_gained(tx, club, held, kind, count)))  # type: ignore[attr-defined]
    if kept != count:
        tx.say("tokens_ignored", club.seat, TOKENS_IGNORED.format(name=tx.name(held.id), ignored=count - kept,
                                                                  kind=kind.capitalize(), label=label, count=kept),
               card=held.id, tokens=kind, ignored=count - kept)
    return kept


def suspend(tx: Tx, club: Club, held: Held, tokens: int, label: str) -> Club:
    """Put Suspension tokens on a footballer or Staff card."""
    tokens = gained(tx, club, held, "suspension", tokens, label)
    if not tokens:
        return club
    if not tx.quiet:
        tx.say("suspension", club.seat, f"{tx.name(held.id)} gets {tokens} Suspension token(s) ({label}).", card=held.id, tokens=tokens)
    return replace_held(club, evolve(held, suspension=held.suspension + tokens))


def injury_roll(tx: Tx, seat: int, value: int, weeks: int, suspension: bool = False) -> None:
    """A d10 names the jersey number hit by an injury (or suspension); nothing happens without such a card."""
    club = tx.club(seat)
    jersey = d10_jersey(tx, value)
    held = hit_jersey(tx, club, jersey) if jersey is not None else None
    if held is None:
        tx.say("no_effect", seat, f"Seat {seat} rolled {value} on the d10 (number {jersey}) and has no card with that number: nothing happens.", roll=value, jersey=jersey)
        return
    if suspension:
        weeks = gained(tx, club, held, "suspension", weeks, f"d10 rolled {value}: number {jersey}")
        if not weeks:
            return
        tx.put(replace_held(club, evolve(held, suspension=held.suspension + weeks)))
        tx.say("suspension", seat, f"{tx.name(held.id)} (number {jersey}, d10 rolled {value}) gets {weeks} Suspension token(s).", card=held.id, tokens=weeks, roll=value, jersey=jersey)
    else:
        tx.put(injure(tx, club, held, weeks, f"d10 rolled {value}: number {jersey}"))


def resting(club: Club) -> list[str]:
    """The club's cards, Directors and Infrastructure tokens that carry Injury or Suspension tokens now."""
    # `Held.unavailable`, read without a call per card (asked at every lineup)
    out = [h.id for h in club.players if h.injury > 0 or h.suspension > 0]
    if club.staff:
        out += [h.id for h in club.staff if h.injury > 0 or h.suspension > 0]
    if club.suspended:
        out += [k for k, _ in club.suspended]
    return out


def shed_tokens(tx: Tx, seat: int, cards: list[str]) -> None:
    """Matchday step 4: each injured or suspended card (and Director or token) is exhausted and loses one token."""
    if not cards:
        return
    club = tx.club(seat)
    for card_id in cards:
        held = club.held(card_id)
        if held is not None:
            if not held.unavailable:
                continue  # healed or freed before the match
            injury = max(0, held.injury - 1)
            suspension = held.suspension if held.injury else max(0, held.suspension - 1)
            club = replace_held(club, evolve(held, exhausted=True, injury=injury, suspension=suspension))
            left = injury or suspension
            if not tx.quiet:
                tx.say(
                    "recovery", seat,
                    f"{tx.name(card_id)} is exhausted to shed a token; {left} week(s) left." if left else f"{tx.name(card_id)} is fit again from next week.",
                    card=card_id, injury=injury, suspension=suspension,
                )
            continue
        tokens = club.suspension_on(card_id)
        if not tokens:
            continue
        club = suspend_other(club, card_id, -1)
        if card_id not in club.exhausted:
            club = evolve(club, exhausted=club.exhausted + (card_id,))
        name = tx.token_name(card_id)
        if not tx.quiet:
            tx.say(
                "recovery", seat,
                f"{name} is exhausted to shed a Suspension token; {tokens - 1} left." if tokens > 1 else f"{name} works again from next week.",
                card=card_id, injury=0, suspension=tokens - 1,
            )
    tx.put(club)


def blank_markers(tx: Tx, club: Club) -> int:
    """Blank jersey markers the club may use: the printed ones, plus a proxy for every number it cannot field
    because all its cards with that number are injured or suspended (ten must always play)."""
    blocked = {side_of(tx, h, club).jersey for h in club.players if h.unavailable}
    fit = {side_of(tx, h, club).jersey for h in club.players if not h.unavailable}
    return tx.profile.board.pitch.blank_jerseys + len(blocked - fit)
