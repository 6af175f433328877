"""The engine's import graph: no module of ``engine/`` imports another that (directly or not) imports it back, counting
every import statement in the file (at module level, inside functions, under ``if``), and the engine imports
nothing of the rest of Touchline (DESIGN.md: ``engine/`` "may import nothing of ours")."""

from __future__ import annotations

import ast
from pathlib import Path

import engine

ROOT = Path(engine.__file__).parent
OURS = ("device", "drivers", "web", "tests", "scenarios", "bench")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _imports(source: str, known: set[str]) -> set[str]:
    """Every engine module a file's import statements name (``from a import b`` names ``a.b`` when it is a module)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in known else node.module for alias in node.names]
        else:
            continue
        out.update(n for n in names if n in known)
    return out


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(path.read_text(), known) - {name} for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of the graph, as the modules along it, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_graph_is_read_from_every_import_statement_including_those_inside_functions() -> None:
    graph = _graph()
    assert len(graph) > 20 and "engine.rules.context" in graph["engine.rules.matchday"]
    hidden = "import json\n\ndef later():\n    if True:\n        from engine.rules import matchday\n        import engine.host\n"
    assert _imports(hidden, set(graph)) == {"engine.rules.matchday", "engine.host"}
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_no_module_of_the_engine_imports_itself_back() -> None:
    cycle = _cycle(_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_module_of_the_engine_but_the_package_imports_the_whole_engine() -> None:
    # `import engine` runs engine/__init__, which imports every part: from inside, it would close a cycle
    offenders = [name for name, deps in _graph().items() if "engine" in deps and name != "engine"]
    assert not offenders


def test_the_engine_imports_nothing_of_the_rest_of_touchline() -> None:
    offenders = []
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            offenders += [f"{path.relative_to(ROOT.parent)}: {n}" for n in names if n.split(".")[0] in OURS]
    assert not offenders
