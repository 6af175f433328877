"""The web app is handed the running table; it never reaches into ``device/`` or ``drivers/`` itself."""

from __future__ import annotations

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "web"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_no_module_of_the_web_app_imports_device_or_drivers() -> None:
    modules = sorted(WEB.rglob("*.py"))
    assert len(modules) > 10
    offenders = {str(p.relative_to(WEB)): sorted(_imports(p) & {"device", "drivers"}) for p in modules}
    assert {name: found for name, found in offenders.items() if found} == {}
