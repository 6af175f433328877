"""The steps only the page can give: what the table cannot sense, offered as the choices the rules allow now.

Built from the game view and the board profile, so it works with any table behind ``web.interface.Table``.
Each ask answers one thing the engine waits for (``awaiting``); each of its options is a complete engine event
(plus ``fields`` a person picks first) and, when the rules refuse it now, ``why_not`` says why in the engine's own
sentence: every option is tried on the game's state (``engine.why_not``), and a field offers only the choices the
engine takes.  Nothing here decides a rule; the engine still checks every event it receives.
"""

from __future__ import annotations

from typing import Any

import engine
from engine.cards import STATS, Ability, PlayerCard, Profile, Sponsor, Staff

CONTRACTS = ("megaphone", "adboard", "shirt")
RESULTS = (("fulfilled", "Fulfilled"), ("perfect", "Fulfilled perfectly"), ("missed", "Missed"))
PAD_HINT = ("Hiring a Player, Youngster or Staff, taking a Sponsor, or using a card you hold: tap the card on "
            "your pad (on the Virtual table: pick it under your seat's pad and press Place), or choose it here.")
NONE_LEFT = "no {kind} card is left to hire"
NO_SPONSOR = "no Sponsor card is left"
HALVES = {1: "first half", 2: "second half"}
MOMENTS = {"after_reveal": "after the reveal", "before_match": "before the match"}
FORMATION_HINT = ("Your formation is public: the other club sees it before arranging its jersey markers. A seat's "
                  "button steps through them too (press: next, hold: declare).")
ABILITY_HINT = "Tap a card on your pad (or use it here), or pass: once one club passes, the other may use as many as it wants."
HALF_HINT = "Use your abilities during the match (tap the card, or here), then say you are ready; the half is played when both are."
ARRANGE_HINT = "Arrange your jersey markers in secret on the Lineup page: the other club sees them only when both have arranged."


def _refusal(profile: Profile, state: Any, event: dict[str, Any]) -> str | None:
    """The engine's sentence refusing ``event`` now, clubs named as people call them; None when it takes it (or when
    no state was given: then nothing is said)."""
    if state is None:
        return None
    why = engine.why_not(profile, state, event)
    return None if why is None else engine.club_words(state, why)


def _first_taken(profile: Profile, state: Any, events: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], str | None]:
    """The events of ``events`` the engine takes now, and the sentence refusing the first when it takes none."""
    taken, first = [], None
    for event in events:
        why = _refusal(profile, state, event)
        if why is None:
            taken.append(event)
        elif first is None:
            first = why
    return taken, (None if taken else first)


def _option(label: str, event: dict[str, Any], why_not: str | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"label": label, "event": event, **extra}
    if why_not:
        out["why_not"] = why_not
    return out


def _names(items: list[dict[str, Any]]) -> list[dict[str, str]]:
    return [{"value": str(i["id"]), "label": str(i.get("name") or i["id"])} for i in items]


def _owned(game: dict[str, Any]) -> set[str]:
    """Every card some club holds or that was sold and discarded (the rest are still in the decks or the Transfer area)."""
    out: set[str] = set(game.get("discarded", []))
    for c in game.get("clubs", []):
        out.update(p["id"] for p in c.get("players", []))
        out.update(s["id"] for s in c.get("staff", []))
        out.update(d["id"] for d in c.get("directors", []))
        sponsors = c.get("sponsors", {})
        out.update(x for x in [sponsors.get("shirt"), *sponsors.get("adboards", []), *sponsors.get("megaphones", [])] if x)
    return out


def _targets(ability: Ability, club: dict[str, Any]) -> list[dict[str, Any]]:
    """The pick a card's action needs: a footballer or a Staff card of the club."""
    wanted = {e.get("target") for e in ability.effects} | {e.get("to") for e in ability.effects}
    if wanted & {"chosen_player", "chosen_youngster"}:
        pool = club.get("players", [])
    elif "chosen_staff" in wanted:
        pool = club.get("staff", [])
    elif "chosen_card" in wanted:
        pool = club.get("players", []) + club.get("staff", [])
    else:
        return []
    return [{"name": "targets", "label": "On which card", "list": True, "choices": _names(pool)}]


def _turn(profile: Profile, game: dict[str, Any], club: dict[str, Any], free_only: bool, state: Any) -> list[dict[str, Any]]:
    """A club's turn on Tuesday to Thursday: every action the page can give, with the engine's reason when one
    cannot be taken now (each tried on the game's state)."""
    board = profile.board
    seat = club["seat"]
    stats = club.get("stats", {})
    options: list[dict[str, Any]] = []
    free = {"free": True} if free_only else {}
    # the seat's own Stadium board and tables, as the engine works them out (modules may change them)
    for kind in club.get("stadium", {}).get("build", []):
        does = f" — {kind['text']}" if kind.get("text") else ""
        event = {"type": "build", "seat": seat, "kind": kind["kind"]}
        options.append(_option(f"Build {kind['name']} ({kind['cost']} €, {kind['vp']} VP){does}", event,
                               _refusal(profile, state, event), group="build"))
    office = int(club.get("office", 0))
    track = club.get("board", {}).get("office") or [{"cost": s.cost, "vp": s.vp} for s in board.office]
    event = {"type": "office", "seat": seat}
    label = (f"Move up the Office track to space {office + 1} ({track[office]['cost']} €)" if office < len(track)
             else "Move up the Office track")
    options.append(_option(label, event, _refusal(profile, state, event), group="office"))
    for stat in STATS:
        level = int(stats.get(stat, 0))
        event = {"type": "potential", "seat": seat, "stat": stat}
        options.append(_option(f"Raise {stat.capitalize()} (level {level}): roll more than {level} on the d6",
                               event, _refusal(profile, state, event), group="potential"))
    options += _cards_to_take(profile, game, club, state)
    kinds = {k.id: k for k in board.infrastructure}
    for token in club.get("infrastructure", []):
        kind = kinds.get(token["kind"])
        if kind is None:  # a kind a module brings: its actions are used by tapping, or with its own page step
            continue
        for ability in (a for a in kind.abilities if a.timing == "action"):
            # As the free action it also pays the board's price for one (unless a card made it free this round).
            cost = {**ability.cost_map}
            if free_only:
                for resource, n in board.free_action_cost:
                    cost[resource] = cost.get(resource, 0) + n
            words = ", ".join(f"{n} {r}" for r, n in cost.items()) or "nothing"
            event = {"type": "use_card", "seat": seat, "card": kind.id, **free}
            fields = _targets(ability, club)
            tries = [{**event, "targets": [c["value"]]} for c in fields[0]["choices"]] if fields else [event]
            _, why = _first_taken(profile, state, tries or [event])
            options.append(_option(f"Use {kind.name}{' as the free action' if free_only else ''} (pays {words}): {ability.text}",
                                   event, why, group="use", fields=fields))
    options.append(_option("End the turn" if free_only else "Pass (take no action)", {"type": "pass", "seat": seat},
                           group="pass"))
    return options


def _cards_to_take(profile: Profile, game: dict[str, Any], club: dict[str, Any], state: Any) -> list[dict[str, Any]]:
    """Hiring and Sponsor contracts from the page, for a pad that missed the card (the pad is the usual way): the
    cards the engine would take now, or its reason when it would take none."""
    seat = club["seat"]
    owned = _owned(game)
    out: list[dict[str, Any]] = []
    for kind, event_type, label in (("player", "hire_player", "Hire a Player"), ("youngster", "hire_youngster", "Hire the Youngster drawn"),
                                    ("staff", "hire_staff", "Hire a Staff card")):
        free = [c for c in profile.cards_of(kind) if c.id not in owned]
        taken, why = _first_taken(profile, state, [{"type": event_type, "seat": seat, "card": c.id} for c in free])
        ok = {e["card"] for e in taken}
        choices = [{"value": c.id, "label": f"{c.name} ({_cost(c)} €)"} for c in free if c.id in ok]
        out.append(_option(label, {"type": event_type, "seat": seat}, why or (None if free else NONE_LEFT.format(kind=kind)),
                           group="hire", fields=[{"name": "card", "label": "Which card", "choices": choices}]))
    free_sponsors = [c for c in profile.cards_of("sponsor") if c.id not in owned and isinstance(c, Sponsor)]
    tries = [{"type": "sponsor", "seat": seat, "card": c.id, "contract": k} for c in free_sponsors for k in CONTRACTS]
    taken, why = _first_taken(profile, state, tries)
    cards = {e["card"] for e in taken}
    contracts = {e["contract"] for e in taken}
    out.append(_option("Take a Sponsor", {"type": "sponsor", "seat": seat}, why or (None if free_sponsors else NO_SPONSOR),
                       group="sponsor", fields=[
        {"name": "card", "label": "Which Sponsor", "choices": _names([{"id": c.id, "name": c.name} for c in free_sponsors if c.id in cards])},
        {"name": "contract", "label": "Contract", "choices": [{"value": c, "label": c.capitalize()} for c in CONTRACTS if c in contracts]}]))
    return out


def _cost(card: Any) -> int:
    if isinstance(card, PlayerCard):
        return card.untrained.cost
    return card.cost if isinstance(card, Staff) else 0


def asks(profile: Profile, game: dict[str, Any] | None, state: Any = None) -> list[dict[str, Any]]:
    """What the table waits for that a page step answers, each with its options (see the module's description);
    with the game's ``state`` (`engine.State`) each option the engine would refuse now carries its sentence."""
    if not game:
        return []
    clubs = {c["seat"]: c for c in game.get("clubs", [])}
    out: list[dict[str, Any]] = []
    for wait in game.get("awaiting", []):
        seat, need = wait.get("seat"), wait.get("need")
        if need == "betting_cards":
            out.append(_betting_cards(game, wait))
            continue
        if need == "winter_tokens":
            out.append(_winter_tokens(game, wait))
            continue
        club = clubs.get(seat)
        if club is None:
            continue
        who = f"Seat {seat} ({club.get('name', '')})"
        if need == "action":
            free_only = bool(wait.get("free_only"))
            out.append({"seat": seat, "need": need, "title": f"{who}: your turn" + (" — the free action or end the turn" if free_only else ""),
                        "hint": PAD_HINT, "options": _turn(profile, game, club, free_only, state)})
        elif need == "suspensions":
            count = int(wait.get("count", 0))
            pool = club.get("staff", []) + club.get("players", [])
            out.append({"seat": seat, "need": need, "count": count,
                        "title": f"{who}: {count} € of Maintenance cannot be paid",
                        "hint": f"Choose {count} Staff or Player card(s): each gets 2 Suspension tokens (the same card may be chosen twice).",
                        "options": [_option("Suspend these", {"type": "suspensions", "seat": seat}, None, fields=[
                            {"name": "cards", "label": f"Card {i + 1}", "list": True, "choices": _names(pool)} for i in range(count)])]})
        elif need == "bet":
            out.append(_bet(game, wait, who))
        elif need in ("formation", "abilities", "half"):
            out.append(_club_match_ask(wait, who))
        elif need in ("winter_pick", "winter_place"):
            out.append(_winter_ask(game, club, wait, who))
        elif need == "winter_objective" and (secret := _winter_objective(profile, game, club, wait, who)) is not None:
            out.append(secret)
        elif need == "objective_result":
            card = wait.get("card") or club.get("objective")
            name = profile.cards[card].name if card in profile.cards else "its Objective"
            out.append({"seat": seat, "need": need, "title": f"{who}: how did {name} go?",
                        "hint": "The table cannot check this Objective by itself: look at the card and say.",
                        "options": [_option(label, {"type": "objective_result", "seat": seat, "result": value})
                                    for value, label in RESULTS]})
    return out + module_asks(game)


def module_asks(game: dict[str, Any]) -> list[dict[str, Any]]:
    """The steps a game's rule modules ask of the page, as their part of the view words and builds them (``asks``:
    seat, need, title, hint and options, each a complete engine event with the fields a person picks first)."""
    out: list[dict[str, Any]] = []
    for part in (game.get("modules") or {}).values():
        if isinstance(part, dict):
            out.extend(a for a in part.get("asks", []) if isinstance(a, dict) and a.get("options"))
    return out


BET_HINT = ("Place your Betting token on a space, the border of two spaces or the corner of four, with 1 € from the "
            "supply and any € of your own; nobody sees it until every club has answered. A space pays ×{space}, a "
            "border ×{border}, a corner ×{corner} of every € on the token.")
TOKEN_CARDS_HINT = "Draw them at random from the Opponent cards nobody was dealt, lay a token on each, and name them here."


def _bet(game: dict[str, Any], wait: dict[str, Any], who: str) -> dict[str, Any]:
    """A club's bet after Thursday (the Betting module): where the token lies and the € of its own on it, or none."""
    seat = wait["seat"]
    betting = game.get("modules", {}).get("betting", {})
    mine = next((b for b in betting.get("bets", []) if b.get("seat") == seat), {})
    most = int(mine.get("stake_max", 0))
    places = [{"value": "|".join(p["on"]), "label": f"{p['label']} ({p['kind']}, ×{p['times']})"}
              for p in betting.get("places", [])]
    pay = betting.get("pay", {})
    return {"seat": seat, "need": "bet", "title": f"{who}: your bet this week",
            "hint": BET_HINT.format(space=pay.get("space"), border=pay.get("border"), corner=pay.get("corner")),
            "options": [
                _option("Place the bet", {"type": "bet", "seat": seat}, None, group="bet", fields=[
                    {"name": "on", "label": "Where the token lies", "choices": places},
                    {"name": "stake", "label": "€ of your own on it (besides the supply's 1 €)", "number": True,
                     "choices": [{"value": str(n), "label": str(n)} for n in range(most + 1)]}]),
                _option("No bet this week", {"type": "pass", "seat": seat}, None, group="pass")]}


def _betting_cards(game: dict[str, Any], wait: dict[str, Any]) -> dict[str, Any]:
    """The Opponent cards the table drew for the remaining Betting tokens at setup (the Betting module)."""
    betting = game.get("modules", {}).get("betting", {})
    count = int(wait.get("count", 0))
    pool = [{"value": c["card"], "label": f"{c['name']} ({c['card']})"} for c in betting.get("cards_open", [])]
    return {"seat": None, "need": "betting_cards", "count": count,
            "title": f"The table: {count} Betting token(s) on Opponent cards", "hint": TOKEN_CARDS_HINT,
            "options": [_option("These cards", {"type": "betting_cards"}, None, fields=[
                {"name": "cards", "label": f"Card {i + 1}", "list": True, "choices": pool} for i in range(count)])]}


def _club_match_ask(wait: dict[str, Any], who: str) -> dict[str, Any]:
    """A step of a match between clubs the page gives: the formation a club declares, or its abilities and pass."""
    seat, need = wait["seat"], wait["need"]
    if need == "formation":
        half = HALVES.get(wait.get("half"), "half")
        return {"seat": seat, "need": need, "title": f"{who}: declare your formation for the {half}", "hint": FORMATION_HINT,
                "options": [_option(f"Play a {shape}", {"type": "formation", "seat": seat, "shape": shape})
                            for shape in wait.get("shapes", [])]}
    uses = [_option(f"Use {m.get('name', m['card'])}: {m.get('text', '')}".rstrip(": "),
                    {"type": "use_card", "seat": seat, "card": m["card"]}) for m in wait.get("may_use", [])]
    if need == "abilities":
        moment = MOMENTS.get(str(wait.get("timing")), "now")
        return {"seat": seat, "need": need, "title": f"{who}: your turn with abilities {moment}", "hint": ABILITY_HINT,
                "options": [*uses, _option("Pass", {"type": "pass", "seat": seat}, group="pass")]}
    half = HALVES.get(wait.get("half"), "half")
    return {"seat": seat, "need": need, "title": f"{who}: the {half}", "hint": HALF_HINT,
            "options": [*uses, _option(f"Ready for the {half}", {"type": "pass", "seat": seat}, group="pass")]}


TOKENS_HINT = ("Draw them at random from the Winter Break tokens not revealed yet, lay them face up, and name them here; "
               "the clubs then choose one each.")


def _epic(game: dict[str, Any]) -> dict[str, Any]:
    found = game.get("modules", {}).get("epic_league", {})
    return found if isinstance(found, dict) else {}


def _token_names(game: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["id"]: t for t in _epic(game).get("tokens", [])}


def _winter_tokens(game: dict[str, Any], wait: dict[str, Any]) -> dict[str, Any]:
    """The Winter Break tokens the table reveals for a round of Winter Training (the Epic League)."""
    count = int(wait.get("count", 0))
    names = _token_names(game)
    supply = _epic(game).get("supply", {})
    pool = [{"value": k, "label": f"{names[k]['name']} ({n} left): {names[k]['does']}"} for k, n in supply.items() if n and k in names]
    return {"seat": None, "need": "winter_tokens", "count": count,
            "title": f"The table: {count} Winter Break tokens for round {wait.get('round')} of Winter Training",
            "hint": TOKENS_HINT, "options": [_option("These tokens", {"type": "winter_tokens"}, None, fields=[
                {"name": "tokens", "label": f"Token {i + 1}", "list": True, "choices": pool} for i in range(count)])]}


WINTER_OBJECTIVE_HINT = ("Before the Winter Break: the Objective you fulfilled scores now; if you fulfilled neither, "
                         "say which one you discard. The other stays face down for the rest of the season.")
WINTER_RESULTS = (("fulfilled", "Fulfilled: {name}"), ("perfect", "Fulfilled perfectly: {name}"),
                  ("missed", "Fulfilled neither: discard {name}"))


def _winter_objective(profile: Profile, game: dict[str, Any], club: dict[str, Any], wait: dict[str, Any],
                      who: str) -> dict[str, Any] | None:
    """Which of its two Objectives a club fulfilled before the Winter Break, or discards (the Epic League): only in
    the club's own view, which holds both cards (None elsewhere: nobody else may see them)."""
    seat = wait["seat"]
    held = [c for c in (club.get("objective"), _epic(game).get("second", {}).get(str(seat))) if c]
    if not held:
        return None
    name = lambda c: profile.cards[c].name if c in profile.cards else c  # noqa: E731
    return {"seat": seat, "need": "winter_objective", "title": f"{who}: your Objectives before the Winter Break",
            "hint": WINTER_OBJECTIVE_HINT,
            "options": [_option(label.format(name=name(card)), {"type": "winter_objective", "seat": seat, "card": card,
                                                                "result": result}, group="" if result != "missed" else "pass")
                        for card in held for result, label in WINTER_RESULTS]}


def _winter_ask(game: dict[str, Any], club: dict[str, Any], wait: dict[str, Any], who: str) -> dict[str, Any]:
    """A club's pick among the Winter Break tokens revealed, or where it puts a token it took (the Epic League)."""
    seat = wait["seat"]
    names = _token_names(game)
    label = lambda k: f"{names.get(k, {}).get('name', k)}: {names.get(k, {}).get('does', '')}"  # noqa: E731
    if wait["need"] == "winter_pick":
        return {"seat": seat, "need": "winter_pick", "title": f"{who}: choose a Winter Break token",
                "hint": "The token goes on one of your Player cards once the three rounds are drafted.",
                "options": [_option(f"Take {label(k)}", {"type": "winter_pick", "seat": seat, "token": k})
                            for k in dict.fromkeys(wait.get("tokens", []))]}
    taken = {p["card"] for p in _epic(game).get("placed", []) if p["seat"] == seat}
    cards = [{"value": p["id"], "label": p.get("name") or p["id"]} for p in club.get("players", []) if p["id"] not in taken]
    return {"seat": seat, "need": "winter_place", "title": f"{who}: put your Winter Break tokens on your Player cards",
            "hint": "One token a card, for the rest of the game.",
            "options": [_option(f"Put {label(k)}", {"type": "winter_place", "seat": seat, "token": k}, None,
                                fields=[{"name": "card", "label": "On which card", "choices": cards}])
                        for k in dict.fromkeys(wait.get("tokens", []))]}
