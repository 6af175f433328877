"""What the table's input interpreter needs to know about the game, read from the engine's state.

:class:`device.inputs.Interpreter` decides what a tap or a press means; it asks this view which cards a club
holds, what a card costs, which contracts it may take and which cards an effect asks it to choose.  Every answer
is read from the engine's state and the loaded profile: nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine
from engine.errors import EngineError

_PICK_WORDS = {"chosen_player": "footballer", "chosen_youngster": "Youngster", "chosen_staff": "Staff card",
               "chosen_card": "card"}
"""An effect's chosen target → what the seat is asked to tap (``device.inputs.PICK_KINDS``)."""
_MATCH_TIMINGS = ("before_match", "during_match", "after_match")
CONTRACTS = ("megaphone", "adboard", "shirt")
"""The Sponsor contracts a card may be taken as, in the order a seat's button steps through them."""


class GameView:
    """What :class:`device.inputs.Interpreter` needs to know about the game, read from engine state."""

    def __init__(self, profile: Any, state: Any) -> None:
        self.profile = profile
        self.state = state
        self.awaiting = tuple(state.awaiting)

    def kind(self, card: str) -> str | None:
        """The card's kind, or None when the deck has no such card."""
        found = self.profile.cards.get(card)
        return found.kind if found is not None else None

    def name(self, card: str) -> str:
        """The card's printed name (its id when unknown)."""
        found = self.profile.cards.get(card)
        return found.name if found is not None else card

    def cost(self, card: str) -> int | None:
        """What hiring the card costs, when it has a cost."""
        found = self.profile.cards.get(card)
        # Footballers show their untrained side while they are for hire; Staff print one cost.
        side = getattr(found, "untrained", None)
        cost = getattr(side if side is not None else found, "cost", None)
        return cost if isinstance(cost, int) else None

    def owns(self, seat: int, card: str) -> bool:
        """Whether the seat's club holds the card."""
        club = self.state.club(seat)
        return club is not None and club.held(card) is not None

    def fanbase(self, seat: int) -> int:
        """The Fanbase markers the seat's club holds."""
        club = self.state.club(seat)
        return club.res[1] if club is not None else 0

    def picks(self, event: Mapping[str, Any]) -> tuple[str, ...]:
        """The cards the club chooses for the effects an event's card brings (a hire, a contract, a card's action or
        match ability), one word each."""
        card = self.profile.cards.get(str(event.get("card", "")))
        if card is None:
            return ()
        kind = event.get("type")
        if kind == "hire_staff":
            abilities = [a for a in getattr(card, "abilities", ()) if a.timing == "immediate"]
        elif kind == "sponsor" and hasattr(card, "contract"):
            abilities = [a for a in card.contract(str(event.get("contract"))) if a.timing == "immediate"]
        elif kind == "use_card":
            abilities = self._usable(card, event.get("seat"))[:1]  # the engine uses the first that may be used now
        else:
            return ()
        return tuple(_PICK_WORDS[str(effect.get(key))] for ability in abilities for effect in ability.effects
                     for key in ("target", "to") if effect.get(key) in _PICK_WORDS)

    def _usable(self, card: Any, seat: Any) -> list[Any]:
        """A card's abilities a ``use_card`` may use now, in the engine's order: Tuesday-Thursday its actions;
        on Matchday its match abilities (after the result only those for after the match), a footballer's from the
        side it shows."""
        abilities = tuple(getattr(card, "abilities", ()))
        if self.state.stage != "matchday":
            return [a for a in abilities if a.timing == "action"]
        club = self.state.club(seat) if isinstance(seat, int) else None
        held = club.held(card.id) if club is not None else None
        side = getattr(card, "trained" if held is not None and held.trained else "untrained", None)
        if side is not None:
            abilities = tuple(side.abilities)
        after = club is not None and club.result is not None
        return [a for a in abilities if a.timing in _MATCH_TIMINGS and (a.timing == "after_match") == after]

    def contracts(self, seat: int, card: str) -> tuple[str, ...]:
        """The Sponsor contract kinds the seat's club may take with this card now, as the engine says (its own
        board's slots, as the game's modules make them)."""
        return tuple(kind for kind in CONTRACTS
                     if self.why_not({"type": "sponsor", "seat": seat, "card": card, "contract": kind}) is None)

    def why_not(self, event: Mapping[str, Any]) -> str | None:
        """The engine's sentence for why it would refuse ``event`` now, or None when it would take it."""
        return engine.why_not(self.profile, self.state, event)

    def preview(self, event: Mapping[str, Any]) -> tuple[Mapping[str, Any], ...]:
        """What the engine would announce for ``event`` now (the state is left as it is); () when it refuses."""
        try:
            return tuple(engine.apply(self.profile, self.state, event).announcements)
        except EngineError:
            return ()

    def board_card(self, seat: int) -> str | None:
        """The Board meeting card the seat's club holds this week."""
        club = self.state.club(seat)
        return None if club is None else club.board_card

    def opponent(self, seat: int) -> str | None:
        """The Opponent card the seat's club plays this week."""
        club = self.state.club(seat)
        if club is None or self.state.week < 1:
            return None
        return engine.week_opponent(self.state, club)
