"""``touchline run --sim`` in a process of its own, as an owner starts it: its address, PIN, output and memory.

The hardening tests and the soak test attack this process as a stranger on the shop's Wi-Fi would, kill it as a
pulled plug does, and start it again on the same game log.  Clients may come from any loopback address
(127.0.0.2, 127.0.0.3, ...): each is another device as far as the table can tell.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

TOUCHLINE = Path(sys.executable).parent / "touchline"
STARTED = re.compile(r"the page is on (http://\S+?)/? \(PIN (\S+)\)")
START_SECONDS = 60.0


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def client(address: str = "127.0.0.1", **options: Any) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (another device, for the table)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=options.pop("timeout", 15),
                        **options)


class TouchlineRun:
    """One ``touchline run --sim`` process on a game log; start it, stop it, kill it, start it again."""

    def __init__(self, db: Path, *, port: int | None = None, table: Path | None = None,
                 files: int | None = None, extra: tuple[str, ...] = ()) -> None:
        """``files``: the process's open-file limit (soft and hard), to make running out of them quick."""
        self.db = db
        self.port = port or free_port()
        self.table = table
        self.files = files
        self.extra = extra
        self.url = f"http://127.0.0.1:{self.port}"
        self.pin = ""
        self.process: subprocess.Popen[str] | None = None
        self.output: list[str] = []
        self._reader: threading.Thread | None = None

    def start(self) -> TouchlineRun:
        """Start the table and wait until it says where its page is."""
        command = [str(TOUCHLINE), "run", "--sim", "--host", "127.0.0.1", "--port", str(self.port),
                   "--db", str(self.db), *self.extra]
        if self.table is not None:
            command += ["--table", str(self.table)]

        def limit() -> None:
            if self.files is not None:
                import resource

                resource.setrlimit(resource.RLIMIT_NOFILE, (self.files, self.files))

        self.output = []
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        preexec_fn=limit, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        started = threading.Event()

        def read() -> None:
            assert self.process is not None and self.process.stdout is not None
            for line in self.process.stdout:
                self.output.append(line)
                found = STARTED.search(line)
                if found:
                    self.pin = found.group(2)
                    started.set()
            started.set()

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()
        started.wait(START_SECONDS)
        if not self.pin:
            self.kill()
            raise AssertionError("touchline run --sim did not start:\n" + "".join(self.output))
        return self

    @property
    def pid(self) -> int:
        """The table's process id."""
        assert self.process is not None
        return self.process.pid

    def rss_mb(self) -> float:
        """The table's resident memory now, in MB."""
        text = Path(f"/proc/{self.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+) kB", text).group(1)) / 1024  # type: ignore[union-attr]

    def text(self) -> str:
        """Everything the table printed so far."""
        return "".join(self.output)

    def stop(self) -> int:
        """Stop the table as systemd does (SIGTERM); return its exit code."""
        if self.process is None:
            return 0
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        self._join()
        return code

    def kill(self) -> None:
        """Pull the plug: SIGKILL, no chance to finish anything."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        self._join()

    def _join(self) -> None:
        if self._reader is not None:
            self._reader.join(timeout=5)

    def unlock(self, http: httpx.Client) -> dict[str, str]:
        """Give the PIN from ``http``; return the headers a page sends with a change."""
        response = http.post(self.url + "/api/session", json={"pin": self.pin})
        assert response.status_code == 200, response.text
        return {"x-csrf-token": response.json()["csrf"]}

    def __enter__(self) -> TouchlineRun:
        return self.start()

    def __exit__(self, *_: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.stop()


def wait_for(check: Any, what: str, seconds: float = 20.0) -> Any:
    """Poll ``check()`` until it is truthy; fail naming ``what``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"waited in vain for {what}")
