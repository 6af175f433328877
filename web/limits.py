"""What one request may cost the table, checked before any route runs (so before the PIN is looked at).

Two ASGI middlewares sit outermost around the app:

- :class:`HostCheck` answers only to the table's own names and addresses, so a web page elsewhere that points a
  name of its own at the table's address (DNS rebinding) cannot read the state or send changes;
- :class:`BodyLimit` refuses a body over :data:`MAX_BODY_BYTES` before reading it (from its Content-Length, or as
  soon as a chunked body grows past it) and one that takes longer than :data:`BODY_SECONDS` to arrive.

The page's largest body is a new game's form, a few kilobytes; a limit of 64 KiB leaves room and keeps a stranger's
100 MB upload from ever being held in memory.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import socket
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from web import errors

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY_BYTES = 64 * 1024
"""The largest request body the table reads."""
BODY_SECONDS = 10.0
"""How long a request's body may take to arrive in full."""
LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost")


async def _answer(send: Send, status: int, sentence: str) -> None:
    """A short JSON answer carrying one sentence; the connection is closed after it."""
    body = json.dumps({"detail": sentence}).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"), (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Refuse a request body that is too large (before reading it) or too slow to arrive."""

    def __init__(self, app: ASGIApp, *, max_bytes: int = MAX_BODY_BYTES, seconds: float = BODY_SECONDS) -> None:
        """Wrap ``app``; bodies over ``max_bytes`` get 413, bodies slower than ``seconds`` get 408."""
        self.app = app
        self.max_bytes = max_bytes
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the declared length first; count the bytes and watch the clock while the app reads the rest."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = errors.BODY_TOO_LARGE.format(limit=self.max_bytes // 1024)
        declared = _header(scope, b"content-length")
        if declared is not None:
            if not declared.isdigit():
                await _answer(send, 400, errors.BAD_LENGTH)
                return
            if int(declared) > self.max_bytes:
                await _answer(send, 413, too_large)
                return
        received = 0
        waited = 0.0  # time spent waiting for the body (not the app's own time before it reads)
        finished = False
        started = False  # the app began its answer
        answered = False  # we answered in its place: what the app sends after that goes nowhere

        async def refuse(status: int, sentence: str) -> Message:
            nonlocal answered
            if not started and not answered:
                answered = True
                await _answer(send, status, sentence)
            # To the app the browser has gone: it stops reading and its own answer is dropped below.
            return {"type": "http.disconnect"}

        async def limited_receive() -> Message:
            nonlocal received, finished, waited
            if finished or answered:
                # The body is in: from here on the app only waits to hear that the browser left (live pages).
                return await receive() if not answered else {"type": "http.disconnect"}
            began = time.monotonic()
            try:
                message = await asyncio.wait_for(receive(), max(0.001, self.seconds - waited))
            except TimeoutError:
                return await refuse(408, errors.BODY_TOO_SLOW.format(seconds=round(self.seconds)))
            waited += time.monotonic() - began
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    return await refuse(413, too_large)
                finished = not message.get("more_body", False)
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            if answered:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, limited_receive, watched_send)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1").strip()
    return None


def split_host(header: str) -> str:
    """The name or address of a Host header, without its port, lower case and without a final dot."""
    host = header.strip().lower()
    if host.startswith("["):  # [::1]:8000
        host = host[1:].partition("]")[0]
    elif host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".")


def machine_names() -> tuple[str, ...]:
    """This machine's own names: its host name, the same with ``.local`` (mDNS, as a Pi announces itself) and its FQDN."""
    names = {*LOCAL_NAMES}
    hostname = socket.gethostname().lower().rstrip(".")
    if hostname:
        names |= {hostname, f"{hostname.split('.')[0]}.local"}
    try:
        names.add(socket.getfqdn().lower().rstrip("."))
    except OSError:  # no resolver at all: the host name is enough
        pass
    return tuple(sorted(n for n in names if n))


class TableNames:
    """The names and addresses the table answers to.

    Addresses: loopback, and the address the request arrived on (whatever this machine's network gave it, which
    may change).  Names: localhost, the machine's own names, and those the table file lists under ``[web] names``.
    A name a rebinding page chose is none of these.
    """

    def __init__(self, extra: Iterable[str] = (), *, own: Iterable[str] | None = None) -> None:
        """``extra``: names or addresses from the table file; ``own``: the machine's names (found when omitted)."""
        names = {split_host(n) for n in (*(machine_names() if own is None else own), *extra) if n.strip()}
        # "0.0.0.0" or "::" is where the table listens, never a name a browser may use for it.
        self.names = frozenset(names - {"0.0.0.0", "::", ""})

    def allows(self, host: str, arrived_on: str | None) -> bool:
        """Whether a request whose Host is ``host`` (port removed) that came in on ``arrived_on`` is for us."""
        if host in self.names or host.endswith(".localhost"):
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        if address.is_loopback:
            return True
        if arrived_on is None:
            return False
        try:
            return address == ipaddress.ip_address(arrived_on.partition("%")[0])
        except ValueError:
            return False


class HostCheck:
    """Answer a request only when its Host header names the table (see :class:`TableNames`)."""

    def __init__(self, app: ASGIApp, names: TableNames) -> None:
        """Wrap ``app``; a request for another name gets 421 and a sentence."""
        self.app = app
        self.names = names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or refuse it without reading it."""
        if scope["type"] in ("http", "websocket"):
            header = _header(scope, b"host")
            if header is not None:  # HTTP/1.0 without Host cannot come from a browser
                host = split_host(header)
                server = scope.get("server")
                if not self.names.allows(host, server[0] if server else None):
                    if scope["type"] == "http":
                        await _answer(send, 421, errors.UNKNOWN_HOST.format(host=host[:80]))
                    else:
                        await send({"type": "websocket.close", "code": 1008})
                    return
        await self.app(scope, receive, send)
