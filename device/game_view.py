"""What the table's input interpreter needs to know about the game, read from the engine's state.

:class:`device.inputs.Interpreter` decides what a tap or a press means; it asks this view which cards a club
holds, what a card costs, which uses the engine takes for a card and which cards an effect asks it to choose.  Every answer
is read from the engine's state and the loaded profile, or asked of the engine (`engine.uses`, `engine.why_not`):
nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine
from device.inputs import Pick
from engine.errors import EngineError
from engine.uses import Use
from engine.uses import use as engine_use

_PICK_WORDS = {"chosen_player": "footballer", "chosen_youngster": "Youngster", "chosen_staff": "Staff card",
               "chosen_card": "card", "hire_player": "Player to hire", "hire_youngster": "Youngster to hire",
               "hire_staff": "Staff to hire"}
"""What the engine says an effect asks the club to choose → what the seat's screen asks it to tap."""
_TAKEN = frozenset({"hire_player", "hire_youngster", "hire_staff"})
"""The choices of a card taken from the Transfer area (or the Youngster deck), not one of the club's own."""


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
        """Whether the seat's club holds the card (a footballer, a Staff card or a Director of its own)."""
        club = self.state.club(seat)
        return club is not None and (club.held(card) is not None or card in club.directors)

    def fanbase(self, seat: int) -> int:
        """The Fanbase markers the seat's club holds."""
        club = self.state.club(seat)
        return club.res[1] if club is not None else 0

    def picks(self, event: Mapping[str, Any]) -> tuple[Pick, ...]:
        """The cards the club is asked to tap for the effects of a card's use (a hire, a contract, a card's action or
        match ability) or of a roll's result (a ``roll``, ``keep`` or ``reroll``), as the engine says: what each is,
        in words, the cards that fit and the engine's sentence for those of a hire's row it would not take; nothing
        when the engine refuses the event now."""
        return tuple(Pick(_PICK_WORDS.get(c.what, "card"), c.cards, c.refused, c.what not in _TAKEN)
                     for c in engine_use(self.profile, self.state, event).choices)

    def uses(self, seat: int, card: str) -> tuple[Use, ...]:
        """Each use the card offers the seat's club now, as the engine tries it (its action, a hire, a sale, each
        Sponsor contract on the club's own board, an auction when the game plays Transferring Players)."""
        return tuple(engine.card_uses(self.profile, self.state, seat, card))

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
