"""The page's connections: how many one client and everyone together may hold open, and how long a request may take.

uvicorn itself waits for ever for a request's headers and takes every connection the system allows, so a phone
that opens a thousand connections and sends half a request on each (or nothing at all) holds every file the
process may open and the page goes dark for everyone.  :func:`protocol_class` builds uvicorn's HTTP/1.1 protocol
with three limits added:

- a client (one IPv4 address, or one IPv6 /64) holds at most :data:`PER_CLIENT` connections at once, except the
  table's own browser on loopback (a TV page on the Pi, a benchmark);
- all clients together hold at most a total derived from the process's open-file limit (:func:`total_for`);
- a request (its headers and its body) must arrive in full within :data:`REQUEST_SECONDS` of its first byte, or
  of the connection being opened; idle connections between requests are closed by uvicorn's keep-alive timeout.

A connection over a limit is answered at once with a short 503 and closed, so it never holds a file for long.

The protocol also hands a live page's connection over to the page's broadcast (the ASGI extension
``web.live.STREAM``), so that a change is written to every open page without waking a task for each.
"""

from __future__ import annotations

import asyncio
import json
import logging
import resource
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

from drivers.memory import import_parts
from web.live import STREAM
from web.security import client_key

log = logging.getLogger(__name__)

PER_CLIENT = 24
"""Connections one client may hold open: a browser uses at most 6 per site, so this is four browsers' worth."""
TOTAL_MAX = 2000
"""Connections all clients together may hold open, however many files the process may open."""
RESERVED_FILES = 96
"""Files kept back from the connections for the game log, the hardware, the threads and the journal."""
REQUEST_SECONDS = 10.0
"""How long a request's headers and body may take to arrive."""
FILE_LIMIT_WANTED = 8192
"""The open-file limit the table raises its own soft limit to, when the hard limit allows."""
LOOPBACK_CLIENTS = frozenset({"127.0.0.1", "::1"})
TOO_MANY_FROM_CLIENT = "This device has too many connections open to the table. Close some of its pages and reload."
TOO_MANY_IN_TOTAL = "The table has as many visitors as it can serve right now. Try again in a minute."
REFUSED_LOG = "refused a connection from %s: %s"
TOO_SLOW_LOG = "closed a connection from %s: its request did not arrive within %d s"


def raise_file_limit(wanted: int = FILE_LIMIT_WANTED) -> int:
    """Raise this process's soft limit on open files towards ``wanted`` (never above the hard limit); return it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):  # a sandbox may refuse: the total below follows what we have
            pass
    return int(soft) if soft != resource.RLIM_INFINITY else wanted


def total_for(file_limit: int) -> int:
    """How many connections the page may hold with this many open files allowed (some are kept for the table)."""
    return max(PER_CLIENT, min(TOTAL_MAX, file_limit - RESERVED_FILES))


class ConnectionLimits:
    """Counts the page's open connections per client and in total, and says whether one more may come in."""

    def __init__(self, *, per_client: int = PER_CLIENT, total: int | None = None,
                 request_seconds: float = REQUEST_SECONDS, unlimited: frozenset[str] = LOOPBACK_CLIENTS) -> None:
        """``total`` defaults to what the process's open-file limit allows (see :func:`total_for`)."""
        self.per_client = per_client
        self.total = total if total is not None else total_for(raise_file_limit())
        self.request_seconds = request_seconds
        self.unlimited = unlimited
        self.open: Counter[str] = Counter()
        self.refused = 0
        """Connections refused so far (for the log and the soak test's figures)."""
        self.timed_out = 0
        """Connections closed because their request did not arrive in time."""

    @property
    def count(self) -> int:
        """Connections open now."""
        return sum(self.open.values())

    def admit(self, address: str) -> str | None:
        """Count a new connection from ``address`` in, or return why it is refused (a sentence)."""
        if self.count >= self.total:
            return TOO_MANY_IN_TOTAL
        key = client_key(address)
        if address not in self.unlimited and self.open[key] >= self.per_client:
            return TOO_MANY_FROM_CLIENT
        self.open[key] += 1
        return None

    def release(self, address: str) -> None:
        """A connection admitted earlier has closed."""
        key = client_key(address)
        self.open[key] -= 1
        if self.open[key] <= 0:
            del self.open[key]


def _refusal(sentence: str) -> bytes:
    body = json.dumps({"detail": sentence}).encode()
    head = (f"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            "retry-after: 10\r\nconnection: close\r\n\r\n")
    return head.encode("ascii") + body


class _Stream:
    """A live page's connection as ``web.live.Connection``: the response's body written straight to its transport.

    uvicorn's h11 machinery is left out of each write (the bytes come framed), and stays in step: it chose the
    framing from the same request (chunks for HTTP/1.1, else until the connection closes), and the response still
    ends through ASGI.
    """

    __slots__ = ("_protocol", "_cycle", "chunked")  # one per open page

    def __init__(self, protocol: Any, cycle: Any) -> None:
        self._protocol = protocol
        self._cycle = cycle
        self.chunked = protocol.conn.their_http_version >= b"1.1"

    def writable(self) -> bool:
        """Whether the page has taken what it was sent (and is still there)."""
        return not (self._protocol.flow.write_paused or self._cycle.disconnected or self._cycle.response_complete
                    or self._protocol.transport.is_closing())

    def write(self, data: bytes) -> None:
        """Hand ``data`` to the connection (the system sends it as the page reads)."""
        self._protocol.transport.write(data)

    def when_writable(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` each time the connection's buffer has drained after filling up."""
        self._protocol.on_writable = callback


def import_uvicorn() -> None:
    """Make uvicorn's server importable without its command line: uvicorn's package brings click and the reloader's
    process supervisors with it (1.5 MB the table would hold for good), and the table starts its server itself."""
    import_parts("uvicorn", Config="uvicorn.config", Server="uvicorn.server")


def protocol_class(limits: ConnectionLimits) -> type[asyncio.Protocol]:
    """uvicorn's HTTP/1.1 protocol (h11) with ``limits`` applied to every connection (pass it as ``http=``)."""
    import h11

    import_uvicorn()
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class LimitedH11Protocol(H11Protocol):  # type: ignore[misc]
        """One connection of the page, counted and timed."""

        # Kept out of uvicorn's attributes: one more there makes Python give every connection a dict of its own
        # (1.3 KB each, a shop's hundreds of open pages).
        __slots__ = ("_address", "_timer", "on_writable")

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._address: str | None = None
            self._timer: asyncio.TimerHandle | None = None
            self.on_writable: Callable[[], None] | None = None
            """Called when the buffer has drained, while a live page's connection is handed over."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if peer else ""
            refusal = limits.admit(address)
            if refusal is not None:
                limits.refused += 1
                log.warning(REFUSED_LOG, address, refusal)
                self.transport = transport
                transport.write(_refusal(refusal))
                transport.close()
                return
            self._address = address
            super().connection_made(transport)
            self._start_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._address is None:  # refused at once: uvicorn never knew it
                return
            limits.release(self._address)
            self._address = None
            self._stop_timer()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.transport.is_closing():
                self._stop_timer()
            elif self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
                self._start_timer()  # a request is on its way: it has REQUEST_SECONDS from its first byte
            else:
                self._stop_timer()  # the request is in; the app answers in its own time

        def handle_events(self) -> None:
            before = self.cycle
            super().handle_events()
            cycle = self.cycle
            if cycle is not None and cycle is not before and cycle.scope["method"] == "GET":
                # A new request: its response may take the connection over (a HEAD's must send no body).
                cycle.scope.setdefault("extensions", {})[STREAM] = partial(_Stream, self, cycle)

        def resume_writing(self) -> None:
            super().resume_writing()
            if self.on_writable is not None:
                self.on_writable()

        def on_response_complete(self) -> None:
            self.on_writable = None
            super().on_response_complete()
            # Idle until the next request: uvicorn's keep-alive timeout closes the connection by then.
            self._stop_timer()

        def _start_timer(self) -> None:
            if self._timer is None:
                self._timer = self.loop.call_later(limits.request_seconds, self._too_slow)

        def _stop_timer(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _too_slow(self) -> None:
            self._timer = None
            if self.transport is not None and not self.transport.is_closing():
                limits.timed_out += 1
                log.info(TOO_SLOW_LOG, self._address, round(limits.request_seconds))
                self.transport.close()

    return LimitedH11Protocol


def server_options(limits: ConnectionLimits) -> dict[str, Any]:
    """uvicorn.Config keywords that apply ``limits`` (and keep idle connections short)."""
    # proxy_headers off: the table is never behind a proxy, so no X-Forwarded-For may pass for another client.
    return {"http": protocol_class(limits), "timeout_keep_alive": 5, "h11_max_incomplete_event_size": 16 * 1024,
            "proxy_headers": False}
