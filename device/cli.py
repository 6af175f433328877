"""The ``touchline`` command line."""

from __future__ import annotations

import argparse
import sys


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with one subcommand per job."""
    parser = argparse.ArgumentParser(prog="touchline", description="Touchline: the Eleven companion table.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the table (real hardware from the table file, or --sim)")
    run.add_argument("--sim", action="store_true", help="run the simulated table")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``touchline`` console script."""
    args = build_parser().parse_args(argv)
    if args.command == "run":
        print("touchline: the table is not available in this build yet.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
