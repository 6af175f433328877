"""The device package's modules import one another in one direction only: no module needs itself, even late."""

from __future__ import annotations

import ast
from pathlib import Path

import device

DEVICE = Path(device.__file__).parent


def _imports(path: Path, package: str) -> set[str]:
    """The modules of ``package`` a file imports, at the top or inside a function (a late import still needs it)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] == package)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == package:
            if node.module == package:  # from device import screens
                found.update(f"{package}.{alias.name}" for alias in node.names)
            else:
                found.add(node.module)
    return found


def _graph(folder: Path, package: str) -> dict[str, set[str]]:
    modules = {f"{package}.{p.stem}": p for p in folder.glob("*.py") if p.stem != "__init__"}
    return {name: _imports(path, package) & modules.keys() for name, path in modules.items()}


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle (the modules in order, the first repeated at the end), or None."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return path[path.index(name):] + [name]
        if name in done:
            return None
        for target in sorted(graph[name]):
            circle = visit(target, [*path, name])
            if circle:
                return circle
        done.add(name)
        return None

    for name in sorted(graph):
        circle = visit(name, [])
        if circle:
            return circle
    return None


def test_the_circle_finder_finds_a_circle_through_three_modules() -> None:
    graph = {"device.a": {"device.b"}, "device.b": {"device.c"}, "device.c": {"device.a"}, "device.d": set()}
    assert _circle(graph) == ["device.a", "device.b", "device.c", "device.a"]
    assert _circle({"device.a": {"device.b"}, "device.b": set()}) is None


def test_no_module_of_device_imports_itself_through_another() -> None:
    graph = _graph(DEVICE, "device")
    assert "device.session" in graph and "device.sim" in graph["device.serve"]
    assert _circle(graph) is None, " → ".join(_circle(graph) or [])
