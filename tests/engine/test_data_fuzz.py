"""Whatever an owner types into a data file, loading either works or names the file that is wrong; it never crashes."""

from __future__ import annotations

import copy
import tomllib
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import Profile
from engine.loader import ALL_FILES, DEMO_FOLDER, DataError, build_profile

DOCUMENTS: dict[str, Any] = {file: tomllib.loads((DEMO_FOLDER / file).read_text(encoding="utf-8")) for file in ALL_FILES}

values = st.one_of(
    st.integers(min_value=-20, max_value=120),
    st.text(max_size=8),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["budget", "fanbase", "def", "fwd", "attack", "yellow", "roll_d10", "A9", "D2", "st_01", "opp_blue"]),
    st.lists(st.integers(min_value=-3, max_value=9), max_size=7),
    st.lists(st.text(max_size=3), max_size=3),
    st.just({}),
    st.dictionaries(st.sampled_from(["op", "test", "amount", "timing", "effects"]), st.text(max_size=5), max_size=3),
)


def containers(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to every dict and list inside a document."""
    found = [path]
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in items:
        if isinstance(child, dict | list):
            found.extend(containers(child, (*path, key)))
    return found


PLACES = [(file, path) for file in ALL_FILES for path in containers(DOCUMENTS[file])]


def at(document: Any, path: tuple[Any, ...]) -> Any:
    """The node at a path."""
    for key in path:
        document = document[key]
    return document


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(place=st.sampled_from(PLACES), choice=st.integers(min_value=0, max_value=10_000), value=values, delete=st.booleans())
def test_a_changed_or_deleted_value_loads_or_names_the_file(place: tuple[str, tuple[Any, ...]], choice: int, value: Any, delete: bool) -> None:
    file, path = place
    documents = dict(DOCUMENTS)
    documents[file] = copy.deepcopy(DOCUMENTS[file])
    node = at(documents[file], path)
    keys = list(node) if isinstance(node, dict) else list(range(len(node)))
    if not keys:
        return
    key = keys[choice % len(keys)]
    if delete:
        del node[key]
    else:
        node[key] = value
    try:
        profile = build_profile(documents, DEMO_FOLDER)
    except DataError as exc:
        message = str(exc)
        assert message.split(",")[0].split(":")[0] in ALL_FILES, message
        assert "field" in message or "file missing" in message or file in message, message
    else:
        assert isinstance(profile, Profile)
