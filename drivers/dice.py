"""Dice: a fair source of rolls from the operating system's randomness, or a scripted one for simulation.

A die is data (a name and its faces), so custom dice such as Soccer Manager Express's nine coloured
d6s need no code.  The engine never rolls: the device rolls here and hands the face to the engine.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from drivers.base import default_backend
from drivers.errors import DiceScriptExhausted, DriverConfigError

log = logging.getLogger(__name__)

SCRIPT_EXHAUSTED = (
    "The scripted dice ran out after {used} roll(s) while rolling a {die}: "
    "add more results to the script (ScriptedDice([...]))."
)
SCRIPTED_FACE_MISSING = (
    "The scripted result {value} is not a face of the {die} (faces {faces}): fix the script."
)
DIE_WITHOUT_FACES = "The die {name!r} has no faces: give it at least two."
DIE_NAME_EMPTY = "A die needs a name, e.g. 'd6' or 'blue'."
DIE_FACES_NOT_NUMBERS = "The die {name!r} has faces {faces}; every face must be a whole number, e.g. (1, 1, 2, 2, 3, 3)."


@dataclass(frozen=True, slots=True)
class Die:
    """A die: a name and the values printed on its faces, each face equally likely."""

    name: str
    faces: tuple[int, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise DriverConfigError(DIE_NAME_EMPTY)
        if isinstance(self.faces, (str, bytes)) or len(self.faces) < 2:
            raise DriverConfigError(DIE_WITHOUT_FACES.format(name=self.name))
        # Accept any iterable of whole numbers from data files, but store a tuple so the die stays hashable.
        faces = tuple(self.faces)
        if not all(isinstance(f, int) and not isinstance(f, bool) or isinstance(f, str) and f.strip().isdigit()
                   for f in faces):
            raise DriverConfigError(DIE_FACES_NOT_NUMBERS.format(name=self.name, faces=list(faces)))
        object.__setattr__(self, "faces", tuple(int(f) for f in faces))


def standard_die(sides: int) -> Die:
    """Return the ordinary die with faces 1..sides, named ``d<sides>``."""
    if sides < 2:
        raise DriverConfigError(DIE_WITHOUT_FACES.format(name=f"d{sides}"))
    return Die(f"d{sides}", tuple(range(1, sides + 1)))


D6 = standard_die(6)
D8 = standard_die(8)
D10 = standard_die(10)
D12 = standard_die(12)

# Soccer Manager Express rulebook 0.9, "the following dice must be created": nine coloured d6s.
SME_DICE: dict[str, Die] = {
    die.name: die
    for die in (
        Die("blue", (1, 1, 2, 2, 3, 3)),
        Die("purple", (1, 1, 2, 3, 4, 4)),
        Die("black", (1, 1, 2, 3, 4, 5)),
        Die("red", (1, 2, 3, 4, 5, 6)),
        Die("green", (1, 2, 3, 4, 5, 8)),
        Die("orange", (2, 2, 2, 3, 3, 3)),
        Die("pink", (2, 2, 3, 3, 4, 4)),
        Die("white", (2, 2, 3, 3, 4, 5)),
        Die("yellow", (2, 3, 4, 4, 5, 6)),
    )
}


class Dice(Protocol):
    """Anything that rolls dice: the real source or a scripted one."""

    def roll(self, die: Die) -> int:
        """Roll one die and return the value of the face that came up."""
        ...

    def roll_many(self, dice: Iterable[Die]) -> list[int]:
        """Roll several dice, in order, and return their faces."""
        ...


class SystemDice:
    """Rolls drawn from the operating system's randomness (``secrets.SystemRandom``)."""

    def __init__(self) -> None:
        self._random = secrets.SystemRandom()

    def roll(self, die: Die) -> int:
        """Roll one die and return the value of the face that came up."""
        return die.faces[self._random.randrange(len(die.faces))]

    def roll_many(self, dice: Iterable[Die]) -> list[int]:
        """Roll several dice, in order, and return their faces."""
        return [self.roll(die) for die in dice]


class ScriptedDice:
    """Rolls that come from a script, in order, for simulation and tests."""

    def __init__(self, script: Iterable[int]) -> None:
        self._script = list(script)
        self._used = 0
        self._lock = threading.Lock()

    @property
    def remaining(self) -> int:
        """How many scripted results have not been rolled yet."""
        return len(self._script) - self._used

    def extend(self, results: Iterable[int]) -> None:
        """Append more results to the end of the script."""
        with self._lock:
            self._script.extend(results)

    def roll(self, die: Die) -> int:
        """Return the next scripted result; it must be a face of ``die``."""
        with self._lock:
            return self._take([die])[0]

    def roll_many(self, dice: Iterable[Die]) -> list[int]:
        """Roll several dice, in order, and return their scripted faces (all or none are consumed)."""
        with self._lock:
            return self._take(list(dice))

    def _take(self, dice: list[Die]) -> list[int]:
        # Check every die before consuming anything, so a bad script changes nothing.
        values = self._script[self._used : self._used + len(dice)]
        if len(values) < len(dice):
            missing = dice[len(values)]
            raise DiceScriptExhausted(
                SCRIPT_EXHAUSTED.format(used=self._used + len(values), die=missing.name)
            )
        for die, value in zip(dice, values, strict=True):
            if value not in die.faces:
                raise DriverConfigError(
                    SCRIPTED_FACE_MISSING.format(value=value, die=die.name, faces=list(die.faces))
                )
        self._used += len(dice)
        return values


def open_dice(backend: str | None = None, script: Iterable[int] | None = None) -> SystemDice | ScriptedDice:
    """Return the dice for the backend: the system's randomness, or a script in simulation when one is given."""
    if default_backend(backend) == "sim" and script is not None:
        return ScriptedDice(script)
    # A simulated table without a script still rolls fairly, so a demo game stays playable.
    return SystemDice()
