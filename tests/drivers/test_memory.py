"""Keeping the table's memory small: a package's parts without the rest of it, and freed memory given back."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from drivers.memory import import_parts

PACKAGE = "touchline_parts_probe"


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A package whose ``__init__`` imports a heavy module and offers a name from a light one, as uvicorn's does."""
    folder = tmp_path / PACKAGE
    folder.mkdir()
    (folder / "__init__.py").write_text(textwrap.dedent(f"""
        from {PACKAGE}.light import Light
        from {PACKAGE}.heavy import Heavy
        RUNS = [1]
    """))
    (folder / "light.py").write_text("class Light:\n    pass\n")
    (folder / "heavy.py").write_text("class Heavy:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield folder
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]


def test_a_part_is_imported_without_the_rest_of_its_package(package: Path) -> None:
    import_parts(PACKAGE, Light=f"{PACKAGE}.light")
    import importlib

    light = importlib.import_module(f"{PACKAGE}.light")
    module = sys.modules[PACKAGE]
    assert module.Light is light.Light  # offered by the package, from its own module
    assert f"{PACKAGE}.heavy" not in sys.modules
    assert "RUNS" not in module.__dict__


def test_asking_the_package_for_anything_else_gives_the_whole_package_once(package: Path) -> None:
    import_parts(PACKAGE, Light=f"{PACKAGE}.light")
    import importlib

    importlib.import_module(f"{PACKAGE}.light")
    module = importlib.import_module(PACKAGE)
    heavy = module.Heavy
    assert heavy is sys.modules[f"{PACKAGE}.heavy"].Heavy
    assert module.RUNS == [1]  # its __init__ ran, once
    namespace: dict[str, object] = {}
    exec(f"from {PACKAGE} import Heavy, Light, RUNS", namespace)
    assert namespace["Heavy"] is heavy and namespace["RUNS"] is module.RUNS
    with pytest.raises(AttributeError):
        module.Missing  # noqa: B018  a name the package has not is still an AttributeError


def test_a_package_imported_already_or_not_installed_is_left_alone(package: Path) -> None:
    import importlib

    whole = importlib.import_module(PACKAGE)
    import_parts(PACKAGE, Light=f"{PACKAGE}.light")
    assert sys.modules[PACKAGE] is whole and "__getattr__" not in whole.__dict__
    import_parts("touchline_no_such_package")
    assert "touchline_no_such_package" not in sys.modules


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="malloc_trim is glibc's (Linux)")
def test_memory_freed_after_a_burst_of_work_goes_back_to_the_system() -> None:
    # In a process of its own: 40 MB of 2 KB blocks, all freed but every 64th, so the free memory lies between
    # blocks still in use, where the C allocator keeps it until asked to give it back.
    script = textwrap.dedent("""
        from drivers.memory import give_back
        def rss():
            with open("/proc/self/status") as status:
                return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024
        blocks = [bytearray(2048) for _ in range(20_000)]
        kept = blocks[::64]
        del blocks
        before = rss()
        print(give_back(), before - rss())
    """)
    answer = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                            cwd=Path(__file__).resolve().parents[2]).stdout.split()
    assert answer[0] == "True"
    assert float(answer[1]) > 20  # MB handed back


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's arenas (Linux)")
def test_the_tables_threads_allocate_from_one_pool_of_memory() -> None:
    # Four threads allocating at once: glibc gives each its own arena (its own heap) unless told to keep one.
    script = textwrap.dedent("""
        import ctypes, sys, tempfile, threading
        from drivers.memory import one_arena
        told = one_arena() if sys.argv[1] == "one" else True
        start = threading.Barrier(4)
        def work():
            start.wait()
            kept = [bytearray(4096) for _ in range(2000)]
            start.wait()
        threads = [threading.Thread(target=work) for _ in range(4)]
        for thread in threads: thread.start()
        for thread in threads: thread.join()
        libc = ctypes.CDLL(None)
        libc.fopen.restype = ctypes.c_void_p
        libc.fclose.argtypes = [ctypes.c_void_p]
        libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
        with tempfile.NamedTemporaryFile("r") as info:  # glibc describes its heaps in XML
            stream = libc.fopen(info.name.encode(), b"w")
            libc.malloc_info(0, stream)
            libc.fclose(stream)
            print(told, info.read().count("<heap nr="))
    """)

    def heaps(mode: str) -> tuple[str, int]:
        answer = subprocess.run([sys.executable, "-c", script, mode], capture_output=True, text=True, check=True,
                                cwd=Path(__file__).resolve().parents[2]).stdout.split()
        return answer[0], int(answer[1])

    assert heaps("one") == ("True", 1)
    assert heaps("glibc's default")[1] > 1  # what the table is spared
