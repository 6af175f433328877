"""``touchline enroll``: teach the table which tag is which card.

Two ways, as an owner does it with a new deck: go through the deck card by card and tap each one when it
is named ("in turn"), or tap any card and pick it from the deck list by typing part of its name or id.
A tag already enrolled says which card it is.  Optionally the card's id is also written onto MIFARE
Classic tags, so that another table recognises them without its own mapping.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from device.errors import TagAlreadyEnrolled
from device.table_file import TableConfig

ENROLLED = "{uid} is now {name} ({card})."
ALREADY = "{uid} is already {name} ({card})."
TAKEN = "{uid} is already enrolled as {name} ({card}): lift it and tap the right card, or forget that tag first."
NO_MATCH = "No card of the deck matches {query!r}: type part of a name or an id, e.g. 'pl_07' or 'Dunmore'."
MANY_MATCHES = "{count} cards match {query!r}: {some}… type more of the name or the id."
SKIPPED = "Skipped {name} ({card})."
TAP_NEXT = "Tap {name} ({card}) on any pad — Enter skips it, q stops."
TAP_NEXT_ON_READERS = "Tap {name} ({card}) on any pad — Ctrl-C stops."
TAP_ANY = "Tap a card on any pad (q stops)."
PICK = "Which card is {uid}? Type part of its name or id (Enter skips): "
WRITTEN = "Wrote {card} onto tag {uid}."
DONE = "{count} card(s) enrolled."


@dataclass(frozen=True, slots=True)
class Result:
    """What one tap did: a sentence for the person enrolling, and whether a mapping was added."""

    message: str
    enrolled: bool


class Enrolment:
    """Mapping tags to the cards of a deck, in the game log's store."""

    def __init__(self, store: Any, profile: Any, *, deck: str = "demo", writer: Callable[[str, str], None] | None = None) -> None:
        self.store = store
        self.profile = profile
        self.deck = deck
        self.writer = writer
        self.count = 0

    def cards(self, kinds: Iterable[str] | None = None) -> list[Any]:
        """The deck's cards (of these kinds), in the deck's order, for enrolling in turn."""
        wanted = set(kinds) if kinds else None
        return [c for c in self.profile.cards.values() if wanted is None or c.kind in wanted]

    def known(self, uid: str) -> str | None:
        """The card a tag is enrolled as, or None."""
        return self.store.card_for(uid, deck=self.deck)

    def offer(self, uid: str, card_id: str) -> Result:
        """Enrol ``uid`` as ``card_id``; a tag already mapped says to which card and nothing changes."""
        card = self.profile.cards[card_id]
        mapped = self.known(uid)
        if mapped == card_id:
            return Result(ALREADY.format(uid=uid, name=card.name, card=card_id), False)
        if mapped is not None:
            return Result(TAKEN.format(uid=uid, name=self._name(mapped), card=mapped), False)
        try:
            self.store.enroll(uid, card_id, deck=self.deck)
        except TagAlreadyEnrolled as exc:  # another enrolment got there first
            return Result(str(exc), False)
        self.count += 1
        message = ENROLLED.format(uid=uid, name=card.name, card=card_id)
        if self.writer is not None:
            try:
                self.writer(uid, card_id)
                message += " " + WRITTEN.format(card=card_id, uid=uid)
            except (OSError, ValueError, NotImplementedError) as exc:
                message += f" Writing the tag failed ({exc}); the mapping is kept on this table."
        return Result(message, True)

    def search(self, query: str) -> list[Any]:
        """Cards whose id or name contains every word of ``query`` (an exact id wins)."""
        query = query.strip()
        if query in self.profile.cards:
            return [self.profile.cards[query]]
        words = query.lower().split()
        return [c for c in self.profile.cards.values() if words and all(w in f"{c.id} {c.name}".lower() for w in words)]

    def pick(self, uid: str, query: str) -> Result:
        """Enrol ``uid`` as the one card ``query`` names; say so when it names none or several."""
        found = self.search(query)
        if not found:
            return Result(NO_MATCH.format(query=query), False)
        if len(found) > 1:
            some = ", ".join(f"{c.name} ({c.id})" for c in found[:4])
            return Result(MANY_MATCHES.format(count=len(found), query=query, some=some), False)
        return self.offer(uid, found[0].id)

    def _name(self, card_id: str) -> str:
        card = self.profile.cards.get(card_id)
        return card.name if card is not None else card_id


def in_turn(enrolment: Enrolment, cards: Iterable[Any], next_tag: Callable[[str], str | None], say: Callable[[str], None],
            prompt: str = TAP_NEXT) -> int:
    """Name each card in turn and enrol the next tag tapped; ``next_tag`` returns None to skip, "q" to stop."""
    for card in cards:
        tag = next_tag(prompt.format(name=card.name, card=card.id))
        if tag == "q":
            break
        if not tag:
            say(SKIPPED.format(name=card.name, card=card.id))
            continue
        say(enrolment.offer(tag, card.id).message)
    say(DONE.format(count=enrolment.count))
    return enrolment.count


def by_pick(enrolment: Enrolment, next_tag: Callable[[str], str | None], ask: Callable[[str], str], say: Callable[[str], None]) -> int:
    """Enrol whatever is tapped by picking its card from the deck list."""
    while True:
        tag = next_tag(TAP_ANY)
        if tag in (None, "", "q"):
            break
        mapped = enrolment.known(tag)
        if mapped is not None:
            say(ALREADY.format(uid=tag, name=enrolment._name(mapped), card=mapped))
            continue
        while True:
            query = ask(PICK.format(uid=tag))
            if not query.strip():
                break
            result = enrolment.pick(tag, query)
            say(result.message)
            if result.enrolled:
                break
    say(DONE.format(count=enrolment.count))
    return enrolment.count


def _typed_tags(stdin: TextIO, stdout: TextIO) -> Callable[[str], str | None]:
    """Tags typed as UIDs (simulation: there is no reader to tap on)."""

    def next_tag(prompt: str) -> str | None:
        stdout.write(prompt + " UID: ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            return "q"
        return line.strip().upper() or None

    return next_tag


def enroll(
    config: TableConfig,
    db_path: Path,
    *,
    sim: bool = False,
    mode: str = "pick",
    kinds: Iterable[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    next_tag: Callable[[str], str | None] | None = None,
    write_tags: bool = False,
    hardware: Any = None,
    idle_stop: float | None = None,
) -> int:
    """Run an enrolment session; returns the exit code (0 when it ran, even if nothing was enrolled).

    Tags come from the table's readers (``hardware``, else the table file's real ones), or, on the simulated
    table, as UIDs typed on ``stdin``.  ``write_tags`` also writes each card's id onto its MIFARE Classic tag.
    With readers, the session ends with Ctrl-C, or after ``idle_stop`` seconds without a tap.
    """
    import engine
    from device.store import deck_key, open_store

    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout

    def say(line: str) -> None:
        print(line, file=stdout, flush=True)

    def ask(prompt: str) -> str:
        stdout.write(prompt)
        stdout.flush()
        return stdin.readline().strip()

    writer: Callable[[str, str], None] | None = None
    own_hardware = None
    prompt = TAP_NEXT  # typed UIDs can be skipped with Enter; a reader waits for a tap until Ctrl-C
    if next_tag is None and (hardware is not None or (not sim and config.backend != "sim")):
        if hardware is None:
            from device.hardware import TableHardware

            hardware = own_hardware = TableHardware(config, backend="real")
        next_tag, writer = _reader_tags(hardware, say, idle_stop)
        prompt = TAP_NEXT_ON_READERS
    elif next_tag is None:
        say("Simulated table: type each tag's UID (e.g. 04-A1-B2-C3-D4-E5-F6) instead of tapping it.")
        next_tag = _typed_tags(stdin, stdout)
    store = open_store(db_path)
    try:
        enrolment = Enrolment(store, engine.load_profile(config.deck), deck=deck_key(config),
                              writer=writer if write_tags else None)
        if mode == "in_turn":
            in_turn(enrolment, enrolment.cards(kinds), next_tag, say, prompt)
        else:
            by_pick(enrolment, next_tag, ask, say)
    except KeyboardInterrupt:
        say(DONE.format(count=enrolment.count))
    finally:
        store.close()
        if own_hardware is not None:
            own_hardware.stop()
    return 0


def _reader_tags(hardware: Any, say: Callable[[str], None], idle_stop: float | None = None
                 ) -> tuple[Callable[[str], str | None], Callable[[str, str], None]]:
    """Tags tapped on the table's readers, one at a time, and a writer for the pad the last one lay on."""
    import queue

    taps: queue.Queue[tuple[str, str]] = queue.Queue()
    last_pad: list[str] = []

    def emit(reading: Any) -> None:
        if getattr(reading, "kind", None) == "tap":
            taps.put((reading.reader, reading.uid))

    hardware.start(emit)

    def next_tag(prompt: str) -> str | None:
        say(prompt)
        try:
            pad, uid = taps.get(timeout=idle_stop)
        except queue.Empty:
            return "q"
        last_pad[:] = [pad]
        return uid

    def writer(uid: str, card_id: str) -> None:
        hardware.write_card_id(last_pad[0], card_id)

    return next_tag, writer


def tags(items: Iterable[str | None]) -> Callable[[str], str | None]:
    """A ``next_tag`` that hands out the given tags in order (for scripts and tests), then stops."""
    it: Iterator[str | None] = iter(items)
    return lambda prompt: next(it, "q")
