"""Keeping the table's memory small: a library's package without the parts of it the table never uses, and memory
freed by a burst of work handed back to the system.

A Pi runs the table for days beside other programs, and every module imported stays in memory for good.  Some
libraries' packages import everything they offer as soon as any part of them is imported: uvicorn's its command line
(click, the reloader's process supervisors), gpiozero's every board, motor and tone class.  :func:`import_parts`
lets the table import just the modules it uses of such a package; whatever asks the package itself for a name still
gets the whole package, as before.
"""

from __future__ import annotations

import ctypes
import importlib.util
import sys
import threading
from typing import Any

_loading = threading.Lock()


def import_parts(name: str, **provided: str) -> None:
    """Let the modules of package ``name`` (``name.sub``) be imported without running the package's ``__init__``.

    ``provided`` names what the ``__init__`` would offer that the table uses, each with the module it comes from
    (``Config="uvicorn.config"``): asking the package for one of those imports just that module.  The first time
    anything asks the package for another name (``import name; name.X``, ``from name import X``) the ``__init__``
    runs, so such code sees the whole package as usual.  Does nothing when the package was imported already or is
    not installed.
    """
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return
    package = importlib.util.module_from_spec(spec)  # its __path__ and __spec__, not yet its contents

    def __getattr__(attribute: str) -> Any:
        if attribute in provided:
            value = getattr(importlib.import_module(provided[attribute]), attribute)
            setattr(package, attribute, value)
            return value
        with _loading:
            if package.__dict__.get("__getattr__") is __getattr__:
                del package.__dict__["__getattr__"]
                spec.loader.exec_module(package)  # type: ignore[union-attr]
        return getattr(package, attribute)

    package.__getattr__ = __getattr__  # type: ignore[attr-defined]
    sys.modules[name] = package


M_ARENA_MAX = -8  # glibc's mallopt parameter (malloc.h)


def one_arena() -> bool:
    """Let every thread of the process allocate from glibc's one main arena; False where the C library is not glibc.

    glibc gives each thread that allocates an arena of its own (up to eight per core), which keeps what the thread
    freed for that thread alone; Python's threads take turns anyway, so one arena does the same work in less memory.
    Call it before the threads start: an arena made before stays, and the threads started later share it.
    """
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, 1))


def _trim() -> Any:
    """glibc's malloc_trim, or None where the C library is not glibc (musl, macOS)."""
    try:
        trim = ctypes.CDLL(None).malloc_trim  # the C library the interpreter runs on
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_malloc_trim = _trim()


def give_back() -> bool:
    """Hand memory the C allocator holds free (after a burst of work: a start, a new game, a replay) back to the
    system; False where the C library cannot (not glibc)."""
    if _malloc_trim is None:
        return False
    _malloc_trim(0)
    return True
