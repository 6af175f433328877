"""Run every benchmark module in ``bench/`` (or those named on the command line) and print figures."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time

import bench


def main(argv: list[str]) -> int:
    """Run the selected benchmarks in name order; return non-zero when one fails its target."""
    names = sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.startswith("bench_"))
    if argv:
        names = [n for n in names if any(a in n for a in argv)]
    failed: list[str] = []
    for name in names:
        print(f"== {name}", flush=True)
        started = time.perf_counter()
        ok = importlib.import_module(f"bench.{name}").main()
        print(f"   ({time.perf_counter() - started:.1f} s)", flush=True)
        if ok is False:
            failed.append(name)
    if failed:
        print("missed targets: " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
