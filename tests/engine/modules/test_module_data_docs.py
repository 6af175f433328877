"""engine/DATA.md's examples of the Market, Unique Setup and New Stadium Infrastructure files load as they are written."""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest

import engine
from engine import errors as E
from engine.loader import DEMO_FOLDER, clear_cache

TEXT = (Path(engine.__file__).parent / "DATA.md").read_text(encoding="utf-8")


def _example(file: str) -> str:
    """The toml block under the section that names ``file``."""
    section = TEXT[TEXT.index(f"(`{file}`"):]
    return re.search(r"```toml\n(.*?)```", section, re.S).group(1)  # type: ignore[union-attr]


@pytest.mark.parametrize("file, module", [("market.toml", "market"), ("unique_setup.toml", "unique_setup"),
                                          ("new_infrastructure.toml", "new_infrastructure")])
def test_each_module_file_example_in_the_guide_loads(tmp_path: Path, file: str, module: str) -> None:
    block = _example(file)
    folder = tmp_path / "deck"
    shutil.copytree(DEMO_FOLDER, folder)
    demo = (folder / file).read_text(encoding="utf-8")
    ids = [item["id"] for key in ("card", "infrastructure") for item in tomllib.loads(block).get(key, [])]
    # the example stands in for the demo's item of the same id
    for item_id in ids:
        head = "[[card]]" if "[[card]]" in block else "[[infrastructure]]"
        start = demo.find(f'{head}\nid = "{item_id}"')
        if start >= 0:
            end = demo.find(head, start + 1)
            demo = demo[:start] + (demo[end:] if end >= 0 else "")
    if "goalkeepers" in block:
        demo = demo.replace("goalkeepers = []", "")
    (folder / file).write_text(block + "\n" + demo, encoding="utf-8")
    clear_cache()
    data = engine.load_profile(folder).module_data[module][file]
    found = data.cards if hasattr(data, "cards") else data
    assert {getattr(x, "id") for x in found} >= set(ids)


@pytest.mark.parametrize("file, module, title", [("market.toml", "market", "Market transfer cards"),
                                                 ("unique_setup.toml", "unique_setup", "Unique Setup cards"),
                                                 ("new_infrastructure.toml", "new_infrastructure", "New Stadium Infrastructure")])
def test_a_deck_without_the_modules_file_cannot_play_it(tmp_path: Path, file: str, module: str, title: str) -> None:
    """A deck of its own (no ``inherit``) that leaves out a module's table plays the base game, never that module."""
    folder = tmp_path / "own"
    shutil.copytree(DEMO_FOLDER, folder)
    (folder / file).unlink()
    (folder / "profile.toml").write_text('name = "Own deck"\n')
    clear_cache()
    profile = engine.load_profile(folder)
    assert engine.game_problem([module], {}, profile) == E.MODULE_DATA_MISSING.format(
        profile="Own deck", file=file, title=title)
    offered = next(m for m in engine.modules(profile) if m["name"] == module)
    assert offered["available"] is False
    assert engine.game_problem([], {}, profile) is None
