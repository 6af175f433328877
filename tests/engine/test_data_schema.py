"""The card and board schema: frozen values, the effect vocabulary and the board's lookup rules."""

from __future__ import annotations

import dataclasses

import pytest

from engine.cards import (
    CONDITION_TESTS,
    EFFECT_OPS,
    KIND_PREFIXES,
    Condition,
    Director,
    Effect,
)


def test_effects_are_frozen_hashable_and_fill_documented_defaults() -> None:
    injury = Effect.of("injure", target="roll_d10")
    assert injury["weeks"] == EFFECT_OPS["injure"].params["weeks"].default
    assert injury == Effect.of("injure", target="roll_d10", weeks=1)
    assert len({injury, Effect.of("injure", target="roll_d10", weeks=1)}) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        injury.op = "heal"  # type: ignore[misc]


def test_an_effect_round_trips_to_the_file_shape() -> None:
    draw = Condition.of("result", **{"is": "draw"})
    effect = Effect.of("gain", when=(draw,), resource="budget", amount=2)
    assert effect.to_dict() == {"op": "gain", "resource": "budget", "amount": 2, "when": [{"test": "result", "is": "draw"}]}


def test_text_effects_and_text_conditions_are_not_automated() -> None:
    assert not Effect.of("text", text="Swap two cards.").automated
    asked = Effect.of("gain", when=(Condition.of("text", text="if the sun shines"),), resource="fanbase", amount=1)
    assert not asked.automated
    assert Effect.of("vp", amount=1).automated


def test_every_op_and_test_documents_itself_and_its_parameters() -> None:
    for table in (EFFECT_OPS, CONDITION_TESTS):
        for name, spec in table.items():
            assert spec.doc.strip(), name
            for param, info in spec.params.items():
                assert info.doc.strip() and info.describe(), (name, param)
                if info.type == "choice":
                    assert info.choices, (name, param)
                if info.type == "int":
                    assert info.low is not None and info.high is not None and info.low <= info.high


def test_the_op_vocabulary_covers_what_cards_do() -> None:
    wanted = {
        "gain", "lose", "stat", "vp", "injure", "suspend", "train", "strength",
        "score", "reach", "discount", "reroll_free", "free_action", "text",
    }
    assert wanted <= set(EFFECT_OPS)


def test_a_director_votes_by_die_face() -> None:
    director = Director(
        id="dir_x", kind="director", name="X", votes=("yellow", "yellow", "blue", "red", "red", "blue")
    )
    assert [director.vote(face) for face in (1, 3, 4)] == ["yellow", "blue", "red"]


def test_every_kind_has_a_distinct_prefix() -> None:
    prefixes = list(KIND_PREFIXES.values())
    assert len(set(prefixes)) == len(prefixes)
    assert all(p.endswith("_") for p in prefixes)
