"""engine/DATA.md, the owners' guide to the data files, stays true: its examples load and it names every op."""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest

from engine.cards import CONDITION_TESTS, EFFECT_OPS, KIND_PREFIXES, TIMINGS
from engine.loader import CARD_FILES, DEMO_FOLDER, load_profile

GUIDE = Path(__file__).resolve().parents[2] / "engine" / "DATA.md"
TEXT = GUIDE.read_text(encoding="utf-8")
# the deck's card kinds (a rule module's files have examples of their own, loaded by the module's tests)
CARD_EXAMPLES = [block for block in re.findall(r"```toml\n(.*?)```", TEXT, re.S) if "[[card]]" in block
                 and any(tomllib.loads(block)["card"][0]["id"].startswith(p) for p in KIND_PREFIXES.values())]


def test_the_guide_documents_every_op_condition_and_timing() -> None:
    for name in (*EFFECT_OPS, *CONDITION_TESTS, *TIMINGS):
        assert f"| `{name}` |" in TEXT, name


def test_the_guide_has_an_example_of_every_card_kind() -> None:
    ids = [tomllib.loads(block)["card"][0]["id"] for block in CARD_EXAMPLES]
    kinds = {kind for kind, prefix in KIND_PREFIXES.items() for i in ids if i.startswith(prefix)}
    # Youngsters and Veterans share the Player example's format.
    assert kinds | {"youngster", "veteran"} == set(KIND_PREFIXES)


@pytest.mark.parametrize("block", CARD_EXAMPLES, ids=lambda b: tomllib.loads(b)["card"][0]["id"])
def test_each_card_example_in_the_guide_loads(tmp_path: Path, block: str) -> None:
    example = tomllib.loads(block)["card"][0]
    kind = next(k for k, prefix in KIND_PREFIXES.items() if example["id"].startswith(prefix))
    folder = tmp_path / "deck"
    shutil.copytree(DEMO_FOLDER, folder)
    path = folder / CARD_FILES[kind]
    text = path.read_text(encoding="utf-8")
    # Put the example in place of the demo card with the same id (or add it).
    start = text.find(f'[[card]]\nid = "{example["id"]}"')
    if start >= 0:
        end = text.find("[[card]]", start + 1)
        text = text[:start] + (text[end:] if end >= 0 else "")
    path.write_text(text + "\n" + block, encoding="utf-8")
    card = load_profile(folder).card(example["id"])
    assert card.name == example["name"]
