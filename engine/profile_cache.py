"""Validated profiles kept on disk between runs, so that a table starts without reading and checking its deck again.

Off until :data:`folder` is set (the table's ``touchline run`` and ``touchline demo`` set it).  A kept profile is used
only when its fingerprint matches: the deck's folder, the bytes of every file the profile is read from, the source
files of the engine and of the registered modules' readers, and the Python version.  A kept file that is missing,
stale, damaged or unreadable is passed over, and the profile is built from the deck's files as always; one that
cannot be written is not kept.  Only the fingerprint is read before the profile, so a stale file is never unpickled.
The folder holds the decks of the last `KEPT_DECKS` folders used (a table has one): keeping another passes the
oldest over for good, so decks tried once and moved away do not fill the cache.
"""

from __future__ import annotations

import copyreg
import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from engine import host

folder: Path | None = None
"""Where kept profiles live (None: none are kept)."""

_KEY_BYTES = 64  # a SHA-256 in hex, the first line of a kept file
KEPT_DECKS = 8
"""How many deck folders' profiles are kept at most: the most recently used."""
_PATTERN = "profile-*.pickle"


def _proxy(items: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(items)


# A profile's read-only mappings are kept as the dicts they show, and read back read-only.
copyreg.pickle(MappingProxyType, lambda proxy: (_proxy, (dict(proxy),)))


def _sources() -> set[str]:
    """The source files whose code reads and checks a profile: the engine's and the registered modules' readers'."""
    names = {name for name in list(sys.modules) if name == "engine" or name.startswith("engine.")}
    for module in host.modules():
        for data in module.data:
            names.update(fn.__module__ for fn in (data.read, data.check, data.teams) if fn is not None)
    files = (getattr(sys.modules.get(name), "__file__", None) for name in names)
    return {file for file in files if file}


def fingerprint(where: Path, files: Mapping[str, Path], also: Iterable[Path] = ()) -> str | None:
    """What a kept profile of ``where`` must match: read from ``files`` (file name -> path) and ``also``; None when
    no profiles are kept (or a file cannot be read: the profile is then built as always, and fails as always)."""
    if folder is None:
        return None
    digest = hashlib.sha256(f"{sys.version}\0{where}\0".encode())
    try:
        for path in sorted(_sources()):
            digest.update(f"{path}\0".encode() + Path(path).read_bytes())
        for name, path in sorted(files.items()):
            digest.update(f"{name}\0{path}\0".encode() + path.read_bytes())
        for path in also:
            digest.update(f"{path}\0".encode() + path.read_bytes())
    except OSError:
        return None
    return digest.hexdigest()


def _file(where: Path) -> Path:
    assert folder is not None
    return folder / f"profile-{hashlib.sha256(str(where).encode()).hexdigest()[:16]}.pickle"


def load(where: Path, key: str | None, kind: type) -> Any:
    """The profile kept for ``where`` under ``key`` if it is there, whole and of ``kind``; else None."""
    if key is None:
        return None
    try:
        with _file(where).open("rb") as handle:
            if handle.read(_KEY_BYTES + 1) != key.encode() + b"\n":
                return None
            profile = pickle.load(handle)
            _used(handle.fileno())
    except Exception:  # noqa: BLE001 - missing, damaged or written by other code: built from the files instead
        return None
    return profile if isinstance(profile, kind) else None


def _used(handle: int) -> None:
    """Mark a kept file as used now: the last to be passed over when the folder is pruned (a folder that cannot be
    written keeps its files as they are)."""
    try:
        os.utime(handle)
    except OSError:
        pass


def keep(where: Path, key: str | None, profile: Any) -> None:
    """Keep ``profile`` for the next start (quietly not, when the folder cannot be written)."""
    if key is None:
        return
    target = _file(where)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        body = key.encode() + b"\n" + pickle.dumps(profile, protocol=pickle.HIGHEST_PROTOCOL)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".profile-")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(body)
            os.replace(temporary, target)  # a reader sees the old file or the new one, never half of one
        except BaseException:
            os.unlink(temporary)
            raise
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        return
    _prune(target.parent)


def _prune(where: Path) -> None:
    """Pass over all but the `KEPT_DECKS` most recently used kept profiles (quietly leaving what cannot be removed)."""
    try:
        found = [(path.stat().st_mtime, path) for path in where.glob(_PATTERN)]
    except OSError:
        return
    found.sort(reverse=True)
    for _, path in found[KEPT_DECKS:]:
        try:
            path.unlink()
        except OSError:
            pass
