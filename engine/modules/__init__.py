"""The rule modules shipped with Touchline (the advanced rules, ``../shared/rules/003_aec5c853de079e9f.txt``).

Each module is a file here that builds an `engine.host.Module` and registers it (``host.register(...)``); this
package imports them all, so ``import engine`` makes every shipped module available to games.  How to write one:
engine/RULES.md, "Writing a module".
"""

from __future__ import annotations

from engine.modules import (  # noqa: F401  (each module registers itself)
    betting,
    club_matches,
    division,
    epic_league,
    market,
    new_infrastructure,
    new_objectives,
    referee,
    transfers,
    unique_setup,
)
