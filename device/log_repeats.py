"""A log line said again and again is written once, then once more with how many times it came.

A stranger's flood (thousands of half-sent requests, a refused connection a millisecond) must not fill the card
with the same line: the journal would grow by megabytes a minute and push out what an owner needs to read.  The
first time a message comes it is written; while it keeps coming within :data:`WINDOW_SECONDS`, it is counted
instead; when the window ends it is written once more with the count.  A message is "the same" when its logger,
level and text are (a traceback counts by its exception's type), so each of several devices or readers still gets
its own line.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

WINDOW_SECONDS = 60.0
KEYS_KEPT = 512
"""Different messages followed at once; the least recent is summed up and forgotten first."""
REPEATED = "%s (said %d more time(s) in the last %d s)"


@dataclass
class _Seen:
    record: logging.LogRecord
    since: float
    repeats: int = 0


class CollapsingHandler(logging.Handler):
    """Hands records to ``target``, collapsing repeats of the same message (see the module's docstring)."""

    def __init__(self, target: logging.Handler, *, window: float = WINDOW_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """Write through ``target``; repeats within ``window`` seconds are counted, not written."""
        super().__init__(target.level)
        self.target = target
        self.window = window
        self._clock = clock
        self._seen: OrderedDict[tuple[str, int, str, str], _Seen] = OrderedDict()
        self._guard = threading.RLock()

    def setFormatter(self, fmt: logging.Formatter | None) -> None:  # noqa: N802 - logging's own name
        """Format with ``fmt`` (on the target, which writes)."""
        self.target.setFormatter(fmt)

    def emit(self, record: logging.LogRecord) -> None:
        """Write the record, or count it when the same message was written less than a window ago."""
        now = self._clock()
        try:
            text = record.getMessage()[:300]
        except Exception:  # a record whose arguments do not fit its message: logging reports it itself
            text = str(record.msg)
        key = (record.name, record.levelno, text, record.exc_info[0].__name__ if record.exc_info
               and record.exc_info[0] else "")
        with self._guard:
            due = self._due(now)
            seen = self._seen.get(key)
            if seen is not None:
                seen.repeats += 1
                seen.record = record
                self._seen.move_to_end(key)
                write = False
            else:
                self._seen[key] = _Seen(record, now)
                write = True
            while len(self._seen) > KEYS_KEPT:
                _, oldest = self._seen.popitem(last=False)
                due.append(oldest)
        for ended in due:
            self._summary(ended, now)
        if write:
            self.target.handle(record)

    def _due(self, now: float) -> list[_Seen]:
        """Forget the messages whose window is over; return them (those with repeats get their summary)."""
        ended = [key for key, seen in self._seen.items() if now - seen.since >= self.window]
        return [self._seen.pop(key) for key in ended]

    def _summary(self, seen: _Seen, now: float) -> None:
        if not seen.repeats or getattr(getattr(self.target, "stream", None), "closed", False):
            return  # nothing to add, or nowhere to write it any more (the process is ending)
        last = seen.record
        summary = logging.LogRecord(last.name, last.levelno, last.pathname, last.lineno, REPEATED,
                                    (last.getMessage(), seen.repeats, round(min(self.window, now - seen.since))),
                                    None)
        self.target.handle(summary)

    def flush(self) -> None:
        """Write the counts of every message still being counted, then flush the target."""
        now = self._clock()
        with self._guard:
            pending = list(self._seen.values())
            self._seen.clear()
        for seen in pending:
            self._summary(seen, now)
        self.target.flush()

    def close(self) -> None:
        """Write what is still counted, then close the target."""
        self.flush()
        self.target.close()
        super().close()
