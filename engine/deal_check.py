"""Whether a deck can deal a whole game for a number of clubs: checked when a table loads its deck, so a deck that
passes the loader but lacks cards is refused with a sentence at start instead of failing at New game."""

from __future__ import annotations

from engine.cards import Profile
from engine.legal import setup_events

CANNOT_DEAL = (
    "The deck {deck} cannot deal a game for {clubs} clubs: {problem}. Add the missing cards to the deck "
    "(engine/DATA.md says how), or give the table file fewer seats."
)
TOO_FEW = "it has {have} {kind} card(s), and a game for {clubs} clubs deals {need} ({file})"
NO_YOUNGSTER = "no Youngster wears another jersey number than every Veteran ({file}): a club's two starters differ"
TOO_FEW_TEAMS = ("its Opponent cards cannot give each of {clubs} clubs {weeks} cards of different teams "
                 "(a game lasts {weeks} weeks; {file})")


def deal_problems(profile: Profile, clubs: int) -> list[str]:
    """What the deck lacks to deal a game for ``clubs`` clubs, each as a phrase (empty when it can)."""
    setup = profile.board.setup
    problems = []
    needs = (("director", "Director", setup.directors_kept, "directors.toml"),
             ("veteran", "Veteran", 1, "veterans.toml"),
             ("youngster", "Youngster", 1, "youngsters.toml"),
             ("objective", "Objective", setup.objectives_kept, "objectives.toml"),
             ("tactic", "Tactic", 1, "tactics.toml"))
    for kind, name, each, file in needs:
        have = len(profile.cards_of(kind))
        if have < each * clubs:
            problems.append(TOO_FEW.format(have=have, kind=name, clubs=clubs, need=each * clubs, file=file))
    veterans, youngsters = profile.cards_of("veteran"), profile.cards_of("youngster")
    if veterans and youngsters and all(y.untrained.jersey == v.untrained.jersey for y in youngsters for v in veterans):
        problems.append(NO_YOUNGSTER.format(file="youngsters.toml"))
    if not problems:
        # The opponents come from the engine's own deal: each club takes cards of teams it has not got yet.
        weeks = setup.opponents_per_club
        dealt = [e for e in setup_events(profile, list(range(1, clubs + 1))) if e["type"] == "opponents"]
        if any(len(e["cards"]) < weeks for e in dealt):
            problems.append(TOO_FEW_TEAMS.format(clubs=clubs, weeks=weeks, file="opponents.toml"))
    return problems


def check_deal(profile: Profile, clubs: int, deck: str) -> str | None:
    """The sentence refusing a deck that cannot deal a game for ``clubs`` clubs, or None when it can."""
    problems = deal_problems(profile, clubs)
    if not problems:
        return None
    return CANNOT_DEAL.format(deck=deck, clubs=clubs, problem="; ".join(problems))
