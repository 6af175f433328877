"""Card effects and conditions from data, applied by op (`engine.cards.EFFECT_OPS`, `engine.cards.CONDITION_TESTS`).

Each op and each test is a function in `OPS` and `TESTS`; the pack hands them to the game's rules, where a
module may add its own (``Module.ops``, ``Module.tests``), so `apply_effect` finds every op in ``tx.rules.ops``.
An effect the engine cannot settle alone (a ``text`` effect, a condition in words, a choice the event did not
name) becomes an announcement asking the table to resolve it; the table records what it did with an ``adjust``
event.  Effects that need a die (``injure`` with ``roll_d10``, a ``roll`` condition) add a pending roll.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Ability, Condition, Effect
from engine.rules.context import move_stat, owner_of, replace_held, set_mod, side_of, suspend_other, with_res
from engine.rules.league import league_positions
from engine.rules.suspension_and_injury import hit_jersey, injure, suspend
from engine.state import RES_INDEX, Club, Held, Pending, evolve
from engine.tx import Tx


@dataclass(slots=True)
class Ctx:
    """Where an effect comes from and what the event chose for it."""

    seat: int
    source: str = ""  # card id carrying the effect ("" for board tables)
    label: str = ""  # words for the source, e.g. a card name or "Match consequence"
    targets: list[str] | None = None  # chosen cards, consumed in order
    roll: int | None = None  # a die result given with the event (for ``roll`` conditions)
    discount: int = 0  # € off the next ``hire`` in the same list
    table: str = ""  # a board table's row carrying the effect, e.g. "@match_consequence:loss:2" (no card)

    def take_target(self) -> str | None:
        """The next chosen card, if the event named one."""
        if self.targets:
            return self.targets.pop(0)
        return None


def ask_table(tx: Tx, ctx: Ctx, text: str, **fields: Any) -> None:
    """Announce something the table must resolve by hand (and record with an ``adjust`` event)."""
    who = f"{ctx.label}: " if ctx.label else ""
    end = "" if text.endswith((".", "?", "!")) else "."
    tx.say("table_resolves", ctx.seat, f"Please resolve by hand — {who}{text}{end}", source=ctx.source, **fields)


# ---------------------------------------------------------------------------------------------------------------
# Conditions.


def _per_count(tx: Tx, club: Club, per: str) -> int:
    if per == "fanbase_on_stands":
        return club.stands
    if per == "goals_scored":
        return club.goals
    if per == "goals_conceded":
        return club.conceded
    if per == "trained_players":
        return sum(1 for h in club.players if h.trained)
    if per == "youngsters":
        return sum(1 for h in club.players if tx.profile.cards[h.id].kind == "youngster")
    if per == "infrastructure":
        return len(club.infrastructure)
    return 0


def _roll(tx: Tx, club: Club, cond: Condition, ctx: Ctx) -> bool | None:
    if ctx.roll is None:
        return None
    low, high = cond.get("at_least", 1), cond.get("at_most", 10)
    return low <= ctx.roll <= high  # type: ignore[operator]


def _count(club_value: Callable[[Tx, Club, Condition], int]) -> Callable[[Tx, Club, Condition, Ctx], bool]:
    """A test that holds when a count of the club reaches the condition's ``at_least``."""
    return lambda tx, club, cond, ctx: club_value(tx, club, cond) >= cond["at_least"]  # type: ignore[operator]


def _sponsors(tx: Tx, club: Club, cond: Condition) -> int:
    counts = {"megaphone": len(club.megaphones), "adboard": len(club.adboards), "shirt": int(club.shirt is not None)}
    return sum(counts.values()) if cond["contract"] == "any" else counts[str(cond["contract"])]


def _has_card(tx: Tx, club: Club, cond: Condition, ctx: Ctx) -> bool:
    owner = owner_of(tx.state, str(cond["card"]))
    return owner is not None and owner.seat == club.seat


#: Every base condition test: ``check(tx, club, condition, ctx) -> True/False, or None when the table must say``.
TESTS: dict[str, Callable[[Tx, Club, Condition, Ctx], bool | None]] = {
    "result": lambda tx, club, cond, ctx: club.result == cond["is"],
    "roll": _roll,
    "scored": _count(lambda tx, club, cond: club.goals),
    "conceded": lambda tx, club, cond, ctx: club.conceded <= cond["at_most"],  # type: ignore[operator]
    "played": lambda tx, club, cond, ctx: club.lineup is not None and any(p.card == ctx.source for p in club.lineup),
    "fanbase_on_stands": _count(lambda tx, club, cond: club.stands),
    "staff": _count(lambda tx, club, cond: sum(1 for h in club.staff if getattr(tx.profile.cards[h.id], "profession", "") == cond["profession"])),
    "staff_set": _count(lambda tx, club, cond: sum(1 for h in club.staff if getattr(tx.profile.cards[h.id], "set", "") == cond["set"])),
    "stat": _count(lambda tx, club, cond: club.stats[RES_INDEX[str(cond["stat"])]]),
    "sponsors": _count(_sponsors),
    "league_position": lambda tx, club, cond, ctx: league_positions(tx.state).get(f"seat:{club.seat}", 99) <= cond["at_most"],  # type: ignore[operator]
    "infrastructure": _count(lambda tx, club, cond: sum(1 for k in club.infrastructure if cond.get("kind") is None or k == cond.get("kind"))),
    "office": _count(lambda tx, club, cond: club.office),
    "budget": _count(lambda tx, club, cond: club.res[0]),
    "trained_players": _count(lambda tx, club, cond: sum(1 for h in club.players if h.trained)),
    "players": _count(lambda tx, club, cond: len(club.players)),
    "vp_tokens": _count(lambda tx, club, cond: club.vp_tokens + sum(h.vp for h in club.players)),
    "has_card": _has_card,
    "text": lambda tx, club, cond, ctx: None,
}


def condition_holds(tx: Tx, club: Club, cond: Condition, ctx: Ctx) -> bool | None:
    """Whether a condition holds for the club now; None when the table must say (or no part of the game knows it)."""
    check = tx.rules.tests.get(cond.test)
    return check(tx, club, cond, ctx) if check is not None else None


def conditions_hold(tx: Tx, club: Club, conds: tuple[Condition, ...], ctx: Ctx) -> bool | None:
    """All conditions hold (True), one fails (False), or the table must decide (None)."""
    unknown = False
    tests = tx.rules.tests
    for cond in conds:
        check = tests.get(cond.test)  # `condition_holds`, without a call more per condition
        ok = check(tx, club, cond, ctx) if check is not None else None
        if ok is False:
            return False
        if ok is None:
            unknown = True
    return None if unknown else True


# ---------------------------------------------------------------------------------------------------------------
# Applying abilities and effects.


#: Timings whose abilities apply by themselves whatever ``optional`` says: an immediate bonus, and Production
#: (003 l.283: "On Monday, during Production, resolve their effects").
ALWAYS = ("immediate", "production")


def apply_abilities(tx: Tx, abilities: tuple[Ability, ...], timing: str, ctx: Ctx) -> None:
    """Apply the abilities of a timing that happen by themselves: a card's immediate bonus, and at any other moment
    the mandatory ones (``optional = false``). What a card says a club *may* do is offered instead (used with
    ``use_card``), even when it costs nothing."""
    for ability in abilities:
        if ability.timing != timing or ability.cost:
            continue
        if timing in ALWAYS or not ability.optional:
            apply_effects(tx, ability.effects, ctx)


def applying(abilities: tuple[Ability, ...]) -> tuple[frozenset[str], frozenset[str]]:
    """The timings at which `apply_abilities` applies some of these abilities, and those at which one of them is
    mandatory (``optional = false``): a moment that is in neither has nothing to apply.  Kept per tuple of
    abilities (cards never change)."""
    found = _APPLYING.get(id(abilities))
    if found is not None and found[0] is abilities:
        return found[1]
    timings = frozenset(a.timing for a in abilities if not a.cost and (a.timing in ALWAYS or not a.optional))
    mandatory = frozenset(a.timing for a in abilities if not a.optional)
    if len(_APPLYING) > 4096:
        _APPLYING.clear()
    _APPLYING[id(abilities)] = (abilities, (timings, mandatory))
    return timings, mandatory


_APPLYING: dict[int, tuple[tuple[Ability, ...], tuple[frozenset[str], frozenset[str]]]] = {}


def applying_any(sources: tuple[tuple[str, tuple[Any, ...]], ...]) -> frozenset[str]:
    """The moments at which some of these cards' abilities apply by themselves (kept per answer of
    `card_abilities`, which is the same object while the club's cards are)."""
    found = _ANY.get(id(sources))
    if found is not None and found[0] is sources:
        return found[1]
    timings = frozenset(t for _, abilities in sources for t in applying(abilities)[0])
    if len(_ANY) > 256:
        _ANY.clear()
    _ANY[id(sources)] = (sources, timings)
    return timings


_ANY: dict[int, tuple[Any, frozenset[str]]] = {}


def applying_at(sources: tuple[tuple[str, tuple[Any, ...]], ...]) -> dict[str, tuple[tuple[str, tuple[Any, ...]], ...]]:
    """For each moment, the cards (of `engine.rules.abilities.card_abilities`, in its order) of which `apply_abilities`
    applies something then: a moment asks only those, and most moments none.  Kept per answer of `card_abilities`,
    which is the same object while the club's cards are."""
    found = _AT.get(id(sources))
    if found is not None and found[0] is sources:
        return found[1]
    index: dict[str, list[tuple[str, tuple[Any, ...]]]] = {}
    for source in sources:
        for timing in applying(source[1])[0]:
            index.setdefault(timing, []).append(source)
    out = {timing: tuple(applying) for timing, applying in index.items()}
    if len(_AT) > 256:
        _AT.clear()
    _AT[id(sources)] = (sources, out)
    return out


_AT: dict[int, tuple[Any, dict[str, tuple[tuple[str, tuple[Any, ...]], ...]]]] = {}


def apply_effects(tx: Tx, effects: tuple[Effect, ...], ctx: Ctx) -> None:
    """Apply a list of effects for the club at ctx.seat, in order."""
    ops = tx.rules.ops
    for effect in effects:
        # `apply_effect`'s common case without its call: no condition, an op of the game's rules
        apply = None if effect.when else ops.get(effect.op)
        if apply is None:
            apply_effect(tx, effect, ctx)
        else:
            apply(tx, tx.club(ctx.seat), ctx, effect)


def apply_effect(tx: Tx, effect: Effect, ctx: Ctx) -> None:
    """Apply one effect (see `engine.cards.EFFECT_OPS` for what each op means)."""
    club = tx.club(ctx.seat)
    if effect.when:
        ok = conditions_hold(tx, club, effect.when, ctx)
        if ok is False:
            return
        if ok is None:
            roll = next((c for c in effect.when if c.test == "roll"), None)
            if roll is not None and ctx.roll is None and all(c.test != "text" for c in effect.when):
                _await_effect_roll(tx, ctx, str(roll.get("die", "d6")), effect)
                return
            words = "; ".join(str(c.get("text", c.test)) for c in effect.when)
            ask_table(tx, ctx, f"if {words}: {describe_effect(effect)}", effect=effect.to_dict())
            return
    apply = tx.rules.ops.get(effect.op)
    if apply is None:
        _text(tx, club, ctx, effect)
    else:
        apply(tx, club, ctx, effect)


# ---------------------------------------------------------------------------------------------------------------
# The ops.


def _gain(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    a = effect.params
    amount = int(a["amount"]) * (_per_count(tx, club, str(a["per"])) if "per" in a else 1)
    tx.put(with_res(club, str(a["resource"]), amount))
    if not tx.quiet:
        tx.say("gain", ctx.seat, f"Seat {ctx.seat} gains {amount} {str(a['resource']).capitalize()}.", resource=a["resource"], amount=amount)


def _lose(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    a = effect.params
    amount = min(int(a["amount"]), club.res[RES_INDEX[str(a["resource"])]])
    tx.put(with_res(club, str(a["resource"]), -amount))
    if amount:
        if not tx.quiet:
            tx.say("lose", ctx.seat, f"Seat {ctx.seat} loses {amount} {str(a['resource']).capitalize()}.", resource=a["resource"], amount=amount)


def _stat(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    tx.put(move_stat(tx, club, str(effect["stat"]), int(effect["steps"])))


#: From this revision VP tokens a card that is no footballer puts "on this card" go to the club's supply (each counts
#: at the Final scoring, 000 l.785 counting only Player cards once); before, they lay on a Staff card and scored nothing.
VP_ON_OTHER_CARDS_REVISION = 3


def _vp(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    amount, to = int(effect["amount"]), str(effect.get("to", "club"))
    if (to == "this_card" and tx.state.game.revision >= VP_ON_OTHER_CARDS_REVISION
            and all(h.id != ctx.source for h in club.players)):
        to = "club"  # a Staff card, Director, token or Sponsor: the tokens are the club's
    if to == "club":
        tx.put(evolve(club, vp_tokens=club.vp_tokens + amount))
        if not tx.quiet:
            tx.say("vp", club.seat, f"Seat {club.seat} gains {amount} VP token(s).", amount=amount)
        return
    held = club.held(ctx.source) if to == "this_card" else club.held(ctx.take_target() or "")
    if held is None:
        ask_table(tx, ctx, f"put {amount} VP token(s) on a footballer card", amount=amount)
        return
    tx.put(replace_held(club, evolve(held, vp=held.vp + amount)))
    tx.say("vp", club.seat, f"{amount} VP token(s) go on {tx.name(held.id)}.", amount=amount, card=held.id)


def _footballer(tx: Tx, club: Club, ctx: Ctx, target: str, jersey: Any) -> Held | None | str:
    """The footballer an effect hits; "roll" when a d10 must decide; None when the table must choose."""
    if target == "roll_d10":
        return "roll"
    if target == "this_card":
        return club.held(ctx.source)
    if target == "jersey":
        return hit_jersey(tx, club, int(jersey or 0))
    chosen = ctx.take_target()
    if chosen is None:
        # no choice named: when only one card fits there is nothing to choose
        fits = choosable(tx, club, "chosen_youngster" if target == "chosen_youngster" else "chosen_player")
        return club.held(fits[0]) if len(fits) == 1 else None
    return club.held(chosen)


def _other_card(club: Club, ctx: Ctx) -> bool:
    """Whether the next chosen card is one of the club's Directors or Infrastructure tokens (not a footballer or Staff)."""
    return bool(ctx.targets) and (ctx.targets[0] in club.directors or ctx.targets[0] in club.infrastructure)


def _injure_or_suspend(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    a = effect.params
    injury = effect.op == "injure"
    count = int(a.get("weeks", 1) if injury else a.get("tokens", 1))
    target = str(a["target"])
    if not injury and target == "chosen_card" and _other_card(club, ctx):
        chosen = ctx.take_target() or ""
        tx.put(suspend_other(club, chosen, count))
        tx.say("suspension", club.seat, f"{tx.token_name(chosen)} gets {count} Suspension token(s) ({ctx.label}): its actions and features are off until they are gone.",
               card=chosen, tokens=count)
        return
    if target in ("chosen_staff", "chosen_card"):
        target = "chosen_player"
    held = _footballer(tx, club, ctx, target, a.get("jersey"))
    if held == "roll":
        purpose = "injury" if injury else "suspension"
        tx.state = evolve(tx.state, pending=tx.state.pending + (Pending("roll", club.seat, purpose, "d10", True, count=count),))
        if not tx.quiet:
            tx.say("await_roll", club.seat, f"Seat {club.seat}: roll the d10 to see which number is {'injured' if injury else 'suspended'}.", die="d10", purpose=purpose)
        return
    if not isinstance(held, Held):
        if target == "jersey":
            tx.say("no_effect", club.seat, f"Seat {club.seat} has no card with number {a.get('jersey')}: nothing happens.")
        else:
            ask_table(tx, ctx, describe_effect(effect))
        return
    tx.put(injure(tx, club, held, count, ctx.label) if injury else suspend(tx, club, held, count, ctx.label))


def _heal(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    held = _footballer(tx, club, ctx, str(effect["target"]), None)
    if not isinstance(held, Held):
        ask_table(tx, ctx, describe_effect(effect))
        return
    tx.put(replace_held(club, evolve(held, injury=0)))
    if not tx.quiet:
        tx.say("heal", ctx.seat, f"{tx.name(held.id)} is no longer injured.", card=held.id)


def _unsuspend(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    a = effect.params
    if a["target"] == "chosen_card" and _other_card(club, ctx):
        chosen = ctx.take_target() or ""
        n = min(int(a.get("tokens", 1)), club.suspension_on(chosen))
        tx.put(suspend_other(club, chosen, -n))
        tx.say("unsuspend", ctx.seat, f"{n} Suspension token(s) leave {tx.token_name(chosen)}.", card=chosen, tokens=n)
        return
    held = _footballer(tx, club, ctx, str(a["target"]), None)
    if not isinstance(held, Held):
        ask_table(tx, ctx, describe_effect(effect))
        return
    n = min(int(a.get("tokens", 1)), held.suspension)
    tx.put(replace_held(club, evolve(held, suspension=held.suspension - n)))
    tx.say("unsuspend", ctx.seat, f"{n} Suspension token(s) leave {tx.name(held.id)}.", card=held.id, tokens=n)


def _prevent_injury(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    key = f"prevent_injury:{effect.get('lasting', 'round')}"
    tx.put(set_mod(club, key, int(effect.get("count", 1))))  # type: ignore[arg-type]
    if not tx.quiet:
        tx.say("prevent_injury", ctx.seat, f"Seat {ctx.seat} will ignore the next {effect.get('count', 1)} injury(ies).")


def _train(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    held = _footballer(tx, club, ctx, str(effect["target"]), None)
    if not isinstance(held, Held):
        ask_table(tx, ctx, describe_effect(effect))
        return
    if not held.trained:
        tx.put(replace_held(club, evolve(held, trained=True)))
        if not tx.quiet:
            tx.say("train", ctx.seat, f"{tx.name(held.id)} is trained: flip the card.", card=held.id)


def _strength(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    a = effect.params
    amount, lasting, target = int(a["amount"]), str(a.get("lasting", "temporary")), str(a["target"])
    if target == "this_card":
        hit = [club.held(ctx.source)]
    elif target == "chosen_player":
        hit = [club.held(ctx.take_target() or "")]
    elif target == "section":
        hit = [h for h in club.players if a.get("section") in side_of(tx, h, club).sections]
    else:
        hit = list(club.players)
    hit_cards = [h for h in hit if h is not None and h in club.players]
    if not hit_cards:
        ask_table(tx, ctx, describe_effect(effect))
        return
    if len(hit_cards) == 1:
        h = hit_cards[0]
        if lasting == "permanent":
            club = replace_held(club, evolve(h, strength_perm=h.strength_perm + amount))
        else:
            club = replace_held(club, evolve(h, strength_temp=h.strength_temp + amount))
    else:  # every footballer hit, changed in one copy of the club's cards
        changed = {h.id: evolve(h, strength_perm=h.strength_perm + amount) if lasting == "permanent"
                   else evolve(h, strength_temp=h.strength_temp + amount) for h in hit_cards}
        club = evolve(club, players=tuple([changed.get(h.id, h) for h in club.players]))
    tx.put(club)
    if not tx.quiet:
        names = ", ".join(tx.name(h.id) for h in hit_cards)
        tx.say("strength", club.seat, f"{names}: Strength {amount:+d} ({lasting}).", cards=[h.id for h in hit_cards], amount=amount)


def _opponent_strength(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    mod = (str(effect.get("section", "all")), str(effect.get("style", "any")), int(effect["amount"]))
    tx.put(evolve(club, opp_mods=club.opp_mods + (mod,)))
    if not tx.quiet:
        tx.say("opponent_strength", ctx.seat, f"Seat {ctx.seat}'s match: {describe_effect(effect)}.", amount=effect["amount"])


def _score(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    goals, side, seat = int(effect.get("goals", 1)), effect["side"], ctx.seat  # type: ignore[arg-type]
    if side == "us":
        tx.put(evolve(club, goals=club.goals + goals))
    else:
        tx.put(evolve(club, conceded=club.conceded + goals))
    if not tx.quiet:
        whose = f"Seat {seat}" if side == "us" else f"Seat {seat}'s opponent"
        tx.say("score", seat, f"{whose} scores {goals} goal(s) before the match.", side=side, goals=goals)


def _discount(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    a = effect.params
    lasting = str(a["lasting"])
    if lasting == "action":
        ctx.discount += int(a["amount"])
    else:
        tx.put(set_mod(club, f"discount:{a['row']}:{lasting}", int(a["amount"])))
    tx.say("discount", ctx.seat, f"Seat {ctx.seat} pays {a['amount']} € less when hiring from the {a['row']} row ({lasting}).")


def _reach(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    # the engine keeps no copy of the Transfer area, so the table checks the spaces; the hire itself names the card
    a = effect.params
    rightmost = tx.profile.board.setup.reach
    reach = rightmost + int(a["extra"])
    until = {"action": "for the hire of this effect", "round": "until the End of the round", "permanent": "while this card is in play"}[str(a["lasting"])]
    tx.say(
        "reach", ctx.seat,
        f"Seat {ctx.seat} may hire from the {reach} rightmost cards of the {str(a['row']).capitalize()} row instead of "
        f"the {rightmost} rightmost, {until}: take the card and name it in the hire.",
        row=a["row"], extra=a["extra"], reach=reach, lasting=a["lasting"],
    )


def _reroll_free(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    purpose = str(effect.get("purpose", "any"))
    lasting = str(effect.get("lasting", "round"))
    count = effect.get("count", 1)
    # the lasting comes last so that the End of the round's sweep of ":round" modifiers finds it
    key = f"free_rerolls:{lasting}" if purpose == "any" else f"free_rerolls:{purpose}:{lasting}"
    tx.put(set_mod(club, key, int(count)))  # type: ignore[arg-type]
    which = "" if purpose == "any" else f" of {PURPOSE_WORDS.get(purpose, purpose)}"
    until = "this round" if lasting == "round" else "for the rest of the game"
    tx.say("reroll_free", ctx.seat, f"Seat {ctx.seat} gains {count} free reroll(s){which}, {until}.", count=count, purpose=purpose, lasting=lasting)


def _free_action(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    tx.put(set_mod(club, "free_actions:round", int(effect.get("count", 1))))  # type: ignore[arg-type]
    tx.say("free_action", ctx.seat, f"Seat {ctx.seat} gains {effect.get('count', 1)} free action(s) without paying Operation.")


def _text(tx: Tx, club: Club, ctx: Ctx, effect: Effect) -> None:
    """``text``, and an op no part of this game applies: the table resolves it and records what it did."""
    ask_table(tx, ctx, str(effect.get("text", describe_effect(effect))), effect=effect.to_dict())


#: Every base effect op but ``hire`` (the Tuesday–Thursday rules add it): ``apply(tx, club, ctx, effect)``.
OPS: dict[str, Callable[[Tx, Club, Ctx, Effect], None]] = {
    "gain": _gain,
    "lose": _lose,
    "stat": _stat,
    "vp": _vp,
    "injure": _injure_or_suspend,
    "suspend": _injure_or_suspend,
    "heal": _heal,
    "unsuspend": _unsuspend,
    "prevent_injury": _prevent_injury,
    "train": _train,
    "strength": _strength,
    "opponent_strength": _opponent_strength,
    "score": _score,
    "discount": _discount,
    "reach": _reach,
    "reroll_free": _reroll_free,
    "free_action": _free_action,
    "text": _text,
}


# ---------------------------------------------------------------------------------------------------------------
# Effects that wait for a die.


def _await_effect_roll(tx: Tx, ctx: Ctx, die: str, effect: Effect) -> None:
    # the pending roll names the effect by its index in the source card's abilities so it stays JSON-safe
    ref = effect_ref(tx, ctx.source or ctx.table, effect, ctx.seat)
    tx.state = evolve(tx.state, pending=tx.state.pending + (Pending("roll", ctx.seat, "effect", die, True, ref=ref),))
    if not tx.quiet:
        tx.say("await_roll", ctx.seat, f"Seat {ctx.seat}: roll the {die} for {ctx.label or 'the effect'}.", die=die, purpose="effect")


def consequence_ref(result: str, value: int) -> str:
    """The reference of one row of the Match consequence table (a result and a d6), for effects it carries."""
    return f"@match_consequence:{result}:{value}"


def _all_effects(tx: Tx, source: str, seat: int) -> Sequence[Effect]:
    """Every effect a card or board row carries, in the order `effect_ref` numbers them."""
    card = tx.profile.cards.get(source)
    out: list[Effect] = []
    if source.startswith("@match_consequence:"):
        _, result, value = source.split(":")
        return list(tx.board(seat).consequence(result, int(value)))
    if card is None:
        # a Stadium Infrastructure token is board data, not a card
        for kind in tx.board(seat).infrastructure:
            if kind.id == source:
                for ab in kind.abilities:
                    out.extend(ab.effects)
        return out
    kept = _CARD_EFFECTS.get(source)
    if kept is not None and kept[0] is card:
        return kept[1]
    for name in ("abilities", "bonus", "effects", "megaphone", "adboard", "shirt"):
        for item in getattr(card, name, ()) or ():
            out.extend(item.effects if isinstance(item, Ability) else [item])
    for side_name in ("untrained", "trained"):
        side = getattr(card, side_name, None)
        if side is not None:
            for ab in side.abilities:
                out.extend(ab.effects)
    for d in getattr(card, "decisions", ()) or ():
        out.extend(d.effects)
    _CARD_EFFECTS[source] = (card, tuple(out))
    return _CARD_EFFECTS[source][1]


#: A card's effects by its id, kept with the card they were read from (cards never change).
_CARD_EFFECTS: dict[str, tuple[Any, tuple[Effect, ...]]] = {}


def effect_ref(tx: Tx, source: str, effect: Effect, seat: int) -> str:
    """A JSON-safe reference to an effect of a card: "<card id>#<index among its effects>"."""
    effects = _all_effects(tx, source, seat)
    return f"{source}#{effects.index(effect)}" if effect in effects else f"{source}#-1"


def resolve_effect_roll(tx: Tx, seat: int, ref: str, value: int, targets: list[str] | None = None) -> None:
    """Apply the effect a pending ``roll`` condition was waiting for, with the rolled value."""
    source, _, index = ref.rpartition("#")
    effects = _all_effects(tx, source, seat)
    i = int(index)
    if 0 <= i < len(effects):
        if source.startswith("@"):
            ctx = Ctx(seat=seat, table=source, label="Match consequence", roll=value, targets=list(targets or []))
        else:
            ctx = Ctx(seat=seat, source=source, label=tx.kind_name(source, seat), roll=value, targets=list(targets or []))
        if conditions_hold(tx, tx.club(seat), effects[i].when, ctx) is False:
            if not tx.quiet:
                tx.say("no_effect", seat, f"{ctx.label}: Seat {seat} rolled {value}, so nothing happens.", roll=value, source=source)
            return
        apply_effect(tx, effects[i], ctx)


# ---------------------------------------------------------------------------------------------------------------
# Effects in words.

#: What each roll purpose is, for sentences.
PURPOSE_WORDS = {
    "board_meeting": "a Board meeting roll",
    "match_consequence": "a Match consequence roll",
    "potential": "a Club potential roll",
    "effect": "a card's roll",
}

_TARGETS = {
    "this_card": "this card",
    "chosen_player": "a footballer of your choice",
    "chosen_youngster": "a Youngster of your choice",
    "chosen_staff": "a Staff card of your choice",
    "chosen_card": "a card of your choice",
    "roll_d10": "the number a d10 shows",
    "all": "every footballer",
}


def describe_effect(effect: Effect) -> str:
    """An effect in words, for announcements (e.g. "train a footballer of your choice")."""
    a = effect.params
    if effect.op == "text":
        return str(a.get("text", ""))
    target = str(a.get("target", ""))
    who = f"number {a.get('jersey')}" if target == "jersey" else f"the {a.get('section')} section" if target == "section" else _TARGETS.get(target, target)
    words = {
        "gain": lambda: f"gain {a.get('amount')} {str(a.get('resource')).capitalize()}" + (f" per {str(a['per']).replace('_', ' ')}" if "per" in a else ""),
        "lose": lambda: f"lose {a.get('amount')} {str(a.get('resource')).capitalize()}",
        "stat": lambda: f"move the {str(a.get('stat')).capitalize()} Stat {int(a.get('steps', 0)):+d}",
        "vp": lambda: f"put {a.get('amount')} VP token(s) " + ("in the club's supply" if a.get("to", "club") == "club" else f"on {_TARGETS.get(str(a.get('to')), a.get('to'))}"),
        "injure": lambda: f"injure {who} for {a.get('weeks', 1)} week(s)",
        "suspend": lambda: f"put {a.get('tokens', 1)} Suspension token(s) on {who}",
        "heal": lambda: f"heal {who}",
        "unsuspend": lambda: f"remove {a.get('tokens', 1)} Suspension token(s) from {who}",
        "train": lambda: f"train {who}",
        "strength": lambda: f"give {who} {int(a.get('amount', 0)):+d} Strength ({a.get('lasting', 'temporary')})",
        "opponent_strength": lambda: f"the Opponent's {a.get('section', 'all')} footballers get {int(a.get('amount', 0)):+d} Strength",
        "score": lambda: f"{'score' if a.get('side') == 'us' else 'concede'} {a.get('goals', 1)} goal(s) before the match",
        "hire": lambda: f"hire a card from the {a.get('row')} row",
        "reach": lambda: f"take a card up to {a.get('extra')} space(s) further left in the {a.get('row')} row",
        "discount": lambda: f"pay {a.get('amount')} € less in the {a.get('row')} row",
        "reroll_free": lambda: f"reroll {a.get('count', 1)} die for free" + ("" if a.get("purpose", "any") == "any" else f" ({PURPOSE_WORDS.get(str(a.get('purpose')), a.get('purpose'))})"),
        "free_action": lambda: f"take {a.get('count', 1)} free action(s) without Operation",
        "prevent_injury": lambda: f"ignore the next {a.get('count', 1)} injury(ies)",
    }.get(effect.op)
    return words() if words else effect.op.replace("_", " ")


#: What an effect's ``target`` (or a VP effect's ``to``) names when the club chooses the card ("of your choice"):
#: an event's ``targets`` name those cards, in the order the effects come.
CHOICES = ("chosen_player", "chosen_youngster", "chosen_staff", "chosen_card")


def choices_of(effects: Iterable[Effect]) -> list[str]:
    """What these effects ask the club to choose (`CHOICES`), in the order an event's ``targets`` name the cards."""
    return [str(e.get(key)) for e in effects for key in ("target", "to") if e.get(key) in CHOICES]


def choosable(tx: Tx, club: Club, choice: str) -> list[str]:
    """The club's cards a choice may name: its footballers (only its Youngsters for a Youngster), its Staff cards,
    or any card of its own (footballers, Staff, Directors, Infrastructure tokens) for a card."""
    players = [h.id for h in club.players]
    if choice == "chosen_player":
        return players
    if choice == "chosen_youngster":
        return [c for c in players if tx.profile.cards[c].kind == "youngster"]
    staff = [h.id for h in club.staff]
    if choice == "chosen_staff":
        return staff
    return list(dict.fromkeys([*players, *staff, *club.directors, *club.infrastructure]))
