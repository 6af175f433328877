"""The ``touchline`` command line: run the table, replay a scenario, enrol cards, check the hardware, export games."""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from device.errors import DeviceError, ExportError, GameNotFound, StoreError, TableFileError
from device.table_file import SIM_TABLE, TableConfig, load_table
from drivers.errors import HardwareBusy

log = logging.getLogger("touchline")

TABLE_ENV = "TOUCHLINE_TABLE"
DB_ENV = "TOUCHLINE_DB"
BACKEND_ENV = "TOUCHLINE_BACKEND"
INSTALLED_TABLE = Path("/etc/touchline/table.toml")

NO_TABLE_FILE = (
    "No table file: pass --table FILE, set TOUCHLINE_TABLE, or install one at /etc/touchline/table.toml "
    "(device/tables/ has examples). To try Touchline without hardware, run `touchline run --sim`."
)
NOT_AVAILABLE = "touchline {command}: {what} is not available in this build yet ({reason})."
NO_GAMES = "No games kept in {path} yet."
GAME_ID_BAD = "{text!r} is not a game: give its number (see `touchline games`) or 'last'."
NO_SCENARIO = "touchline replay: there is no scenario file {path}. scenarios/ holds examples."
EXPORT_WRITTEN = "Game {game} written to {path}."
ENROLL_KIND_NEEDS_IN_TURN = "--kind picks the cards to go through with --in-turn: add --in-turn, or leave --kind out."
ENROLL_WRITE_NEEDS_READERS = (
    "--write-tags writes onto the tags lying on the table's readers; the simulated table has only typed UIDs. "
    "Leave out --sim (and use a table file with real readers), or leave out --write-tags."
)
ENROLL_UNKNOWN_KIND = "the deck has no cards of kind {kinds}. Kinds in this deck: {known}."
NO_SEASONS = "No seasons yet: make one with `touchline season new NAME`."
SEASON_MADE = "Season {name!r} made. Add its games with `touchline season add {quoted} GAME...` (`touchline games` lists them)."
SEASON_ADDED = "Added to {name!r}: game(s) {games}. It has {count} game(s) now."
SEASON_REMOVED = "Taken out of {name!r}: game(s) {games} (the games themselves are kept). It has {count} game(s) now."
SEASON_DELETED = "Season {name!r} deleted; its {count} game(s) are kept and may join another season."
SEASON_EMPTY = "No games in {name!r} yet: add some with `touchline season add {quoted} GAME...`."
SEASON_EXPORT_NEEDS_NAME = "Name the season to export: touchline export season NAME (`touchline season list` lists them)."
EXPORT_ONE_GAME = "{extra!r} is one word too many: export one game at a time (touchline export GAME), or a season (touchline export season NAME)."
SEASON_NOT_BGSTATS = ("A season exports as json or csv; BG Stats takes one game at a time "
                      "(touchline export GAME --format bgstats).")
SEASON_WRITTEN = "Season {name!r} written to {path}."
HW_ALL_FOUND = "All {count} devices answered."
HW_MISSING = "{missing} of {count} devices did not answer: check the wiring of the lines marked MISSING (README.md, \"Wiring\")."

# systemd's journal reads a "<N>" syslog priority at the start of each stderr line (SyslogLevelPrefix=).
_HANDLER_NAME = "touchline-stderr"
_SYSLOG_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}


class _JournalFormatter(logging.Formatter):
    """One line per record with its syslog priority, and no timestamp: the journal adds its own."""

    def format(self, record: logging.LogRecord) -> str:
        priority = _SYSLOG_PRIORITY.get(record.levelno, 6)
        return f"<{priority}>{record.name}: {super().format(record)}"


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stderr`` is when a record comes, as logging's own last resort does, so a run whose
    stderr is replaced (a test harness, a daemon closing its terminal) never writes to a closed stream."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property  # type: ignore[override]
    def stream(self):  # noqa: ANN201 - logging's own attribute
        return sys.stderr

    @stream.setter
    def stream(self, value: object) -> None:  # the stream is always the current stderr
        pass


def setup_logging(level: str = "INFO") -> None:
    """Log to stderr: in the journal's format under systemd, with times on a terminal."""
    from device.log_repeats import CollapsingHandler

    # A flood of one message (a stranger's refused connections) is written once, then once with its count.
    handler = CollapsingHandler(_Stderr())
    if os.environ.get("JOURNAL_STREAM") or os.environ.get("INVOCATION_ID"):
        handler.setFormatter(_JournalFormatter("%(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s", "%H:%M:%S"))
    handler.set_name(_HANDLER_NAME)
    root = logging.getLogger()
    # Replace only our own handler, so a second call (or a test harness's handlers) is left in peace.
    for old in [h for h in root.handlers if h.get_name() == _HANDLER_NAME]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with one subcommand per job."""
    parser = argparse.ArgumentParser(prog="touchline", description="Touchline: the Eleven companion table.")
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                        help="how much to log on stderr (default INFO)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def table_options(p: argparse.ArgumentParser, *, sim_help: str) -> None:
        p.add_argument("--table", type=Path, help=f"the table file (default: ${TABLE_ENV}, else {INSTALLED_TABLE})")
        p.add_argument("--sim", action="store_true", help=sim_help)

    def db_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--db", type=Path, help=f"the game log (default: ${DB_ENV}, else the table file's database)")

    run = sub.add_parser("run", help="run the table (real hardware from the table file, or --sim)")
    table_options(run, sim_help="simulate every reader, button and screen (the table file defaults to the simulated table)")
    run.add_argument("--host", help="address the page listens on (default: the table file's)")
    run.add_argument("--port", type=int, help="port of the page (default: the table file's, usually 8000)")
    db_option(run)

    demo = sub.add_parser("demo", help="play a recorded game by itself in a loop until someone taps a pad or presses a button")
    table_options(demo, sim_help="simulate every reader, button and screen (the table file defaults to the simulated table)")
    demo.add_argument("--host", help="address the page listens on (default: the table file's)")
    demo.add_argument("--port", type=int, help="port of the page (default: the table file's, usually 8000)")
    db_option(demo)
    demo.add_argument("--scenario", type=Path, help="the recorded game to play (default: the shipped whole game)")
    demo.add_argument("--step-seconds", type=float, default=None, help="pause between two steps (default 1.5)")
    demo.add_argument("--pause-seconds", type=float, default=None, help="how long the final scoring stays (default 30)")
    demo.add_argument("--loops", type=int, default=0, help="how many times to play it (default 0: until stopped)")

    replay = sub.add_parser("replay", help="run a scenario file against the simulated table and print the final state")
    replay.add_argument("scenario", type=Path, help="the scenario file")

    enroll = sub.add_parser("enroll", help="tap cards to map their tags to the deck's cards")
    table_options(enroll, sim_help="use the simulated table (type each tag's UID instead of tapping it)")
    db_option(enroll)
    enroll.add_argument("--in-turn", action="store_true",
                        help="tap every card of the deck in the order asked (default: tap one, then pick it from the list)")
    enroll.add_argument("--kind", action="append", dest="kinds", metavar="KIND",
                        help="with --in-turn, only cards of this kind (e.g. player); may be repeated")
    enroll.add_argument("--write-tags", action="store_true",
                        help="also write each card's id onto its MIFARE Classic tag, so another table knows it "
                             "without its own enrolment (readers on SPI; not with --sim)")

    hw = sub.add_parser("hw-check", help="look for every reader, button, screen and hub of the table file")
    table_options(hw, sim_help=f"check against the simulation (as does {BACKEND_ENV}=sim)")
    hw.add_argument("--cross-reads", action="store_true",
                    help="then ask for a card on each pad in turn and say whether any other pad sees it too")

    bench = sub.add_parser("bench-test", help="walk through the checks of a newly wired table, one at a time, "
                                              "and write a report")
    table_options(bench, sim_help="run the checks on the simulated table, a simulated hand doing each step")
    bench.add_argument("--report", type=Path,
                       help="where to write the report (default: touchline-bench-test-<date>-<time>.txt here)")

    export = sub.add_parser("export", help="export a game's log and final scoring, or a season's standings")
    export.add_argument("game", help="the game's number (see `touchline games`), or 'last', or 'season'")
    export.add_argument("season", nargs="?", help="after 'season': the season's name")
    export.add_argument("--format", default="json", choices=["json", "csv", "bgstats"], help="default json")
    export.add_argument("--output", "-o", type=Path, help="write to this file instead of the screen")
    db_option(export)
    export.add_argument("--table", type=Path, help="the table file whose database to use")

    games = sub.add_parser("games", help="list the games kept in the log")
    db_option(games)
    games.add_argument("--table", type=Path, help="the table file whose database to use")

    season = sub.add_parser("season", help="seasons: a league over several games, and its standings")
    season_sub = season.add_subparsers(dest="season_command", required=True, metavar="SEASON_COMMAND")
    season_list = season_sub.add_parser("list", help="list the seasons")
    season_new = season_sub.add_parser("new", help="make a season")
    season_new.add_argument("name", help="its name, e.g. \"Autumn league\" (quote a name with spaces)")
    season_add = season_sub.add_parser("add", help="add games at the end of a season")
    season_remove = season_sub.add_parser("remove", help="take games out of a season (the games are kept)")
    for p in (season_add, season_remove):
        p.add_argument("season", help="the season's name")
        p.add_argument("games", nargs="+", metavar="GAME", help="a game's number (see `touchline games`), or 'last'")
    season_show = season_sub.add_parser("show", help="a season's standings and its games")
    season_delete = season_sub.add_parser("delete", help="forget a season (its games are kept)")
    for p in (season_show, season_delete):
        p.add_argument("season", help="the season's name")
    for p in (season_list, season_new, season_add, season_remove, season_show, season_delete):
        db_option(p)
        p.add_argument("--table", type=Path, help="the table file whose database to use")

    pin = sub.add_parser("pin", help="print the PIN that unlocks the page's changes")
    db_option(pin)
    pin.add_argument("--table", type=Path, help="the table file whose database to use")
    return parser


# --- resolving the table file and the log ----------------------------------------------------------------------------


def resolve_table(table: Path | None, *, sim: bool) -> TableConfig:
    """The table file to use: --table, then $TOUCHLINE_TABLE, then the installed one; --sim falls back to the simulated table."""
    chosen = table or (Path(os.environ[TABLE_ENV]) if os.environ.get(TABLE_ENV) else None)
    if chosen is None:
        if sim or os.environ.get(BACKEND_ENV, "").strip().lower() == "sim":
            chosen = SIM_TABLE
        elif INSTALLED_TABLE.exists():
            chosen = INSTALLED_TABLE
        else:
            raise TableFileError("", NO_TABLE_FILE)
    return load_table(chosen)


def resolve_db(db: Path | None, table: Path | None) -> Path:
    """The game log: --db, then $TOUCHLINE_DB, then the table file's database (or the default place)."""
    if db is not None:
        return db
    if os.environ.get(DB_ENV):
        return Path(os.environ[DB_ENV])
    if table is not None or os.environ.get(TABLE_ENV) or INSTALLED_TABLE.exists():
        return resolve_table(table, sim=False).database
    return load_table(SIM_TABLE).database


def is_sim(args: argparse.Namespace, config: TableConfig) -> bool:
    """Simulate when asked on the command line, by the environment, or by the table file."""
    return bool(args.sim) or os.environ.get(BACKEND_ENV, "").strip().lower() == "sim" or config.backend == "sim"


# --- commands ------------------------------------------------------------------------------------------------------


def keep_profiles() -> None:
    """Let the table keep its checked deck between starts: in systemd's cache directory for the service
    (CacheDirectory=), else in the user's cache folder."""
    from engine import profile_cache

    service = os.environ.get("CACHE_DIRECTORY", "").split(":")[0]
    if service:
        profile_cache.folder = Path(service)
        return
    try:
        user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    except RuntimeError:  # no home folder to be found: nothing is kept
        return
    profile_cache.folder = user / "touchline"


@contextlib.contextmanager
def starting() -> Iterator[None]:
    """Start the table with its threads sharing one malloc arena, the garbage collector at rest, without looking for
    pydantic plugins, and with pydantic models built when first used.

    Nearly everything made while the table starts (its modules, the deck, the page's routes) lives as long as the
    table, so sweeping it again and again while it grows costs about a tenth of the start and frees next to
    nothing.  The page's server freezes what the start made and turns the collector on once the page answers
    (``device.serve``), and it is on again here whatever happens.  Pydantic would read every installed package's
    metadata to find its plugins; the table uses none.  FastAPI loads pydantic's package for version 1 models
    (1.6 MB and 25 ms) only to refuse such models; the table has none, so that package is marked as absent, which
    FastAPI takes as "no version 1 models here".  FastAPI defines some forty models of an OpenAPI document as it is
    imported, and pydantic would build each one's validator there and then (about a fifteenth of the start); the table
    needs them only when /openapi.json is first asked for, so pydantic's ``defer_build`` is the default for the
    models made while the table runs (FastAPI's own rebuild of three of them at import too): each is built on its first
    use, and checks exactly as it would have.
    """
    from drivers.memory import one_arena

    one_arena()  # before any thread of the table starts (the game log's, the drivers'): they share one arena
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    sys.modules.setdefault("pydantic.v1", None)  # type: ignore[arg-type]
    from pydantic import BaseModel

    config = BaseModel.model_config  # every model's config starts from this one
    deferred = "defer_build" not in config
    if deferred:
        config["defer_build"] = True
    rebuild = BaseModel.__dict__["model_rebuild"]
    BaseModel.model_rebuild = classmethod(_later_for_openapi_models(rebuild.__func__))  # type: ignore[method-assign,assignment]
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
        BaseModel.model_rebuild = rebuild  # type: ignore[method-assign]
        if deferred:
            config.pop("defer_build", None)


def _later_for_openapi_models(rebuild: Any) -> Any:
    """pydantic's ``model_rebuild``, except that FastAPI's three recursive OpenAPI document models, which FastAPI's
    module rebuilds as it is imported (about 50 ms), are left to be built on their first use like every other model
    made while the table starts: pydantic builds a model that is not complete yet when it is first used, resolving
    its names in its module, as that rebuild would have."""

    def model_rebuild(cls: Any, *args: Any, **kwargs: Any) -> Any:
        if cls.__module__ == "fastapi.openapi.models" and not args and not kwargs:
            return None
        return rebuild(cls, *args, **kwargs)

    return model_rebuild


@contextlib.contextmanager
def new_log_meanwhile(db: Path) -> Iterator[None]:
    """Make a game log that does not exist yet (its tables and the table's PIN) in a thread while the block runs.

    Making the SQLite file waits some 50 ms for the disk (each step is synced, so a pulled plug loses nothing),
    while the page's code, loading meanwhile, waits for the processor only.  A log that exists is left alone: opening
    it, and saying what was found damaged in it, stays the table's own first step.  Whatever goes wrong here is left
    for that step to find and say.
    """
    if Path(db).exists():
        yield
        return
    from device.store import open_store

    def make() -> None:
        with contextlib.suppress(Exception):
            store = open_store(db)
            try:
                store.table_pin()
            finally:
                store.close()

    maker = threading.Thread(target=make, name="touchline-new-log", daemon=True)
    maker.start()
    try:
        yield
    finally:
        maker.join()


def table_to_serve(args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
    """The table file's table, and where it serves its page and keeps its games: the command line's choices over
    the table file's."""
    keep_profiles()
    config = resolve_table(args.table, sim=args.sim)
    return config, {
        "sim": is_sim(args, config),
        "host": args.host or config.host,
        "port": args.port or config.port,
        "db_path": args.db or (Path(os.environ[DB_ENV]) if os.environ.get(DB_ENV) else config.database),
    }


def cmd_run(args: argparse.Namespace) -> int:
    """Run the table until stopped."""
    with starting():
        config, where = table_to_serve(args)
        with new_log_meanwhile(where["db_path"]):
            run_table = _late("run", "the table", "device.serve", "run_table")
        if run_table is None:
            return 1
        return int(run_table(config, **where))


def cmd_demo(args: argparse.Namespace) -> int:
    """Run the table with a recorded game playing by itself until a person touches it."""
    with starting():
        config, where = table_to_serve(args)
        with new_log_meanwhile(where["db_path"]):
            run_demo = _late("demo", "the demo", "device.demo", "run_demo")
        if run_demo is None:
            return 1
        timing = {key: value for key, value in (("step_seconds", args.step_seconds),
                                                ("pause_seconds", args.pause_seconds)) if value is not None}
        try:
            return int(run_demo(
                config,
                **where,
                scenario=args.scenario,
                loops=args.loops,
                **timing,
            ))
        except ValueError as exc:  # a scenario that cannot be read: the sentence names the file and the step
            print(f"touchline demo: {exc}", file=sys.stderr)
            return 2


def cmd_replay(args: argparse.Namespace) -> int:
    """Run a scenario and print the final state as JSON."""
    import json

    run_scenario = _late("replay", "scenario replay", "device.replay", "run_scenario")
    if run_scenario is None:
        return 1
    if not args.scenario.is_file():
        print(NO_SCENARIO.format(path=args.scenario), file=sys.stderr)
        return 2
    try:
        final = run_scenario(args.scenario)
    except ValueError as exc:  # a scenario that does not parse, or a check that failed: the message says where
        print(f"touchline replay: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(final, indent=2, sort_keys=True, default=str))
    return 0


def cmd_enroll(args: argparse.Namespace) -> int:
    """Enrol cards by tapping them."""
    config = resolve_table(args.table, sim=args.sim)
    enroll = _late("enroll", "card enrolment", "device.enroll", "enroll")
    if enroll is None:
        return 1
    sim = is_sim(args, config)
    problem = _enroll_problem(args, config, sim)
    if problem is not None:
        print(f"touchline enroll: {problem}", file=sys.stderr)
        return 2
    db_path = args.db or (Path(os.environ[DB_ENV]) if os.environ.get(DB_ENV) else config.database)
    return int(enroll(config, db_path, sim=sim, mode="in_turn" if args.in_turn else "pick",
                      kinds=args.kinds, write_tags=args.write_tags))


def _enroll_problem(args: argparse.Namespace, config: TableConfig, sim: bool) -> str | None:
    """Why these enrol options cannot work together, or None (checked before anything is opened)."""
    if args.kinds and not args.in_turn:
        return ENROLL_KIND_NEEDS_IN_TURN
    if args.write_tags and sim:
        return ENROLL_WRITE_NEEDS_READERS
    if args.kinds:
        import engine

        known = sorted({card.kind for card in engine.load_profile(config.deck).cards.values()})
        unknown = [kind for kind in args.kinds if kind not in known]
        if unknown:
            return ENROLL_UNKNOWN_KIND.format(kinds=", ".join(unknown), known=", ".join(known))
    return None


def cmd_hw_check(args: argparse.Namespace) -> int:
    """Probe every device of the table file and print one line each; non-zero when one is missing."""
    config = resolve_table(args.table, sim=args.sim)
    probe_all = _late("hw-check", "the hardware check", "drivers.hwcheck", "probe_all")
    if probe_all is None:
        return 1
    import warnings

    from gpiozero.exc import PinFactoryFallback

    from drivers.claim import claim_hardware

    sim = is_sim(args, config)
    # The running table holds the lines and buses: probing beside it would report them missing and unsettle it.
    with (contextlib.nullcontext() if sim else claim_hardware()), warnings.catch_warnings():
        # gpiozero warns once per pin library it cannot load; the button lines already say what is missing.
        warnings.simplefilter("ignore", PinFactoryFallback)
        results = list(probe_all(hardware_specs(config), backend="sim" if sim else None))
        missing = sum(1 for r in results if not r.ok)
        for result in results:
            print(result.line())
        print(HW_ALL_FOUND.format(count=len(results)) if not missing
              else HW_MISSING.format(missing=missing, count=len(results)))
        if args.cross_reads:
            from device.bench_test import BenchTest

            test = BenchTest(config, _table_hardware(config, sim), None, ask=input, say=print, simulated=sim)
            test.run_steps([test.check_pads])
            missing += sum(1 for check in test.checks if check.ok is False)
    return 0 if not missing else 1


def cmd_bench_test(args: argparse.Namespace) -> int:
    """Walk the owner through the checks of a newly wired table and write the report; non-zero when one failed."""
    from device.bench_test import BenchTest, default_report

    config = resolve_table(args.table, sim=args.sim)
    sim = is_sim(args, config)
    test = BenchTest(config, _table_hardware(config, sim), args.report or default_report(), ask=input, say=print,
                     simulated=sim)
    checks = test.run()
    return 0 if all(check.ok is not False for check in checks) else 1


def _table_hardware(config: TableConfig, sim: bool) -> Any:
    """The table's drivers as the running table opens them: simulated and threaded, or real."""
    if sim:
        from device.sim import SimHardware

        return SimHardware(config, threaded=True)
    from device.hardware import TableHardware

    return TableHardware(config, backend="real")


def hardware_specs(config: TableConfig) -> list[Any]:
    """The drivers' probe specs for every hub, reader, button and screen of the table file, in that order."""
    from drivers import hwcheck

    # A hub is followed by one line per reader the table uses on it (probe_all calls probe_hub_and_readers).
    specs: list[Any] = [
        hwcheck.HubSpec(name=hub.name, serial_number=hub.serial, port=hub.port, baud=hub.baud, readers=hub.readers,
                        reader_names={int(p.reader): p.id for p in config.pads()
                                      if p.hub == hub.name and p.reader is not None})
        for hub in config.hubs
    ]
    for pad in config.pads():
        if pad.on_spi:
            reset = {} if pad.rst_pin is None else {"rst_pin": pad.rst_pin}
            specs.append(hwcheck.ReaderSpec(name=pad.id, bus=pad.bus or 0, device=pad.device or 0, **reset))
    specs += [hwcheck.ButtonSpec(name=b.id, gpio=b.gpio, led_gpio=b.led_gpio) for b in config.buttons()]
    for screen in config.screens():
        options: dict[str, Any] = {"kind": screen.kind, "interface": screen.interface}
        if screen.interface == "i2c":
            options |= {"i2c_bus": screen.i2c_bus, "address": screen.address,
                        "mux_address": screen.mux_address, "mux_channel": screen.mux_channel}
        else:
            options |= {"spi_bus": screen.spi_bus, "spi_device": screen.spi_device, "dc_pin": screen.dc_pin}
            if screen.rst_pin is not None:
                options["rst_pin"] = screen.rst_pin
        specs.append(hwcheck.DisplaySpec(name=screen.id, **options))
    return specs


def cmd_export(args: argparse.Namespace) -> int:
    """Export one game (or, after 'season', one season) in the chosen format."""
    from device.export import build_export, render
    from device.store import EventStore

    if args.game.lower() == "season":
        return _export_season(args)
    if args.season is not None:
        raise ExportError(EXPORT_ONE_GAME.format(extra=args.season))
    with EventStore(resolve_db(args.db, args.table)) as store:
        game_id = _game_id(args.game, store)
        text = render(build_export(store, game_id), args.format)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
        print(EXPORT_WRITTEN.format(game=game_id, path=args.output), file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _export_season(args: argparse.Namespace) -> int:
    """Export a season's standings and games as JSON or CSV."""
    from device.seasons import render_season, standings
    from device.store import EventStore

    if not args.season:
        raise ExportError(SEASON_EXPORT_NEEDS_NAME)
    if args.format not in ("json", "csv"):
        raise ExportError(SEASON_NOT_BGSTATS)
    with EventStore(resolve_db(args.db, args.table)) as store:
        season = store.season(args.season)
        text = render_season(standings(store, season), args.format)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
        print(SEASON_WRITTEN.format(name=season.name, path=args.output), file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def cmd_season(args: argparse.Namespace) -> int:
    """Make seasons, add and remove their games, and print their standings."""
    import shlex

    from device.store import EventStore

    with EventStore(resolve_db(args.db, args.table)) as store:
        if args.season_command == "list":
            seasons = store.seasons()
            if not seasons:
                print(NO_SEASONS)
                return 0
            width = max(len("name"), *(len(s.name) for s in seasons))
            print(f"{'name':<{width}}  games")
            for season in seasons:
                print(f"{season.name:<{width}}  {', '.join(map(str, season.games)) or '-'}")
            return 0
        if args.season_command == "new":
            made = store.new_season(args.name)
            print(SEASON_MADE.format(name=made.name, quoted=shlex.quote(made.name)))
            return 0
        season = store.season(args.season)
        if args.season_command in ("add", "remove"):
            games = [_game_id(text, store) for text in args.games]
            if args.season_command == "add":
                changed = store.add_to_season(season.id, games)
                print(SEASON_ADDED.format(name=changed.name, games=", ".join(map(str, games)), count=len(changed.games)))
            else:
                changed = store.remove_from_season(season.id, games)
                print(SEASON_REMOVED.format(name=changed.name, games=", ".join(map(str, games)), count=len(changed.games)))
            return 0
        if args.season_command == "delete":
            store.delete_season(season.id)
            print(SEASON_DELETED.format(name=season.name, count=len(season.games)))
            return 0
        _print_standings(store, season)
        return 0


def _print_standings(store: Any, season: Any) -> None:
    """The standings as a table, then each game: its clubs' VP and rank, or why it does not count."""
    import shlex

    from device.seasons import standings

    if not season.games:
        print(SEASON_EMPTY.format(name=season.name, quoted=shlex.quote(season.name)))
        return
    table = standings(store, season)
    counted = sum(1 for g in table.games if g.counted)
    print(f"{season.name}: {len(table.games)} game(s), {counted} counted")
    if table.clubs:
        width = max(len("club"), *(len(c.name) for c in table.clubs))
        print(f"{'pos':>3}  {'club':<{width}}  {'played':>6}  {'VP':>4}  {'wins':>4}  {'avg rank':>8}")
        for club in table.clubs:
            print(f"{club.position:>3}  {club.name:<{width}}  {club.played:>6}  {club.vp:>4}  {club.wins:>4}  "
                  f"{float(club.average_rank):>8.2f}")
    print("Games (order: most VP, then most wins, then the better average rank):")
    for game in table.games:
        what = ", ".join(f"{row['name']} {row['total']} VP (rank {row['rank']})" for row in game.final) or game.note
        print(f"  {game.number:>2}. game {game.id:<4} {game.status:<9}  {what}")


def cmd_games(args: argparse.Namespace) -> int:
    """List the kept games, oldest first."""
    from device.export import game_rules
    from device.store import EventStore

    path = resolve_db(args.db, args.table)
    with EventStore(path) as store:
        games = store.games()
        firsts = store.first_events()
    if not games:
        print(NO_GAMES.format(path=path))
        return 0
    print(f"{'game':>4}  {'status':<9}  {'started':<16}  {'minutes':>7}  {'events':>6}  {'rules':<24}  seats")
    for game in games:
        seats = ", ".join(f"{n}: {name}" for n, name in sorted(game.seats.items())) or "-"
        minutes = "" if game.minutes is None else str(game.minutes)
        started = game.created.astimezone().strftime("%Y-%m-%d %H:%M")
        rules = game_rules(firsts.get(game.id)).text
        print(f"{game.id:>4}  {game.status:<9}  {started:<16}  {minutes:>7}  {game.events:>6}  {rules:<24}  {seats}")
    return 0


def cmd_pin(args: argparse.Namespace) -> int:
    """Print the table's PIN (made up the first time)."""
    from device.store import EventStore

    with EventStore(resolve_db(args.db, args.table)) as store:
        print(store.table_pin())
    return 0


def _game_id(text: str, store: Any) -> int:
    if text.lower() in ("last", "latest"):
        games = store.games()
        if not games:
            raise GameNotFound(NO_GAMES.format(path=store.path))
        return int(games[-1].id)
    if not text.isdigit():
        raise GameNotFound(GAME_ID_BAD.format(text=text))
    return int(text)


def _lgpio_directory() -> None:
    """Give lgpio a directory it may write its notification pipes in (LG_WD), unless one is given.

    lgpio makes them in the working directory and fails in one it cannot write, such as / or another user's
    home when `sudo -u touchline touchline hw-check` is run from there. The service sets LG_WD itself.
    """
    if os.environ.get("LG_WD"):
        return
    for candidate in (os.environ.get("XDG_RUNTIME_DIR"), os.getcwd(), tempfile.gettempdir()):
        if candidate and os.access(candidate, os.W_OK | os.X_OK):
            os.environ["LG_WD"] = candidate
            return


def _late(command: str, what: str, module: str, name: str) -> Callable[..., Any] | None:
    """Import a part built elsewhere only when it is used, and say plainly when it is not there."""
    import importlib

    try:
        return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]
    except (ImportError, AttributeError) as exc:
        print(NOT_AVAILABLE.format(command=command, what=what, reason=exc), file=sys.stderr)
        return None


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "run": cmd_run,
    "demo": cmd_demo,
    "replay": cmd_replay,
    "enroll": cmd_enroll,
    "hw-check": cmd_hw_check,
    "bench-test": cmd_bench_test,
    "export": cmd_export,
    "games": cmd_games,
    "season": cmd_season,
    "pin": cmd_pin,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``touchline`` console script."""
    args = build_parser().parse_args(argv)
    setup_logging(args.log_level)
    _lgpio_directory()
    try:
        return COMMANDS[args.command](args)
    except TableFileError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except (StoreError, GameNotFound, ExportError, DeviceError) as exc:
        print(f"touchline {args.command}: {exc}", file=sys.stderr)
        return 1
    except HardwareBusy as exc:  # hw-check, enroll or bench-test beside a running table
        print(f"touchline {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
