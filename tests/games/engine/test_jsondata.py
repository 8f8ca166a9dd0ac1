"""The JSON-tree copy every engine step uses, and the cache key of rule overrides
(games/engine/jsondata.py): a copy equal to ``copy.deepcopy``'s that shares no container with
its original, and keys that tell apart what the rule checks tell apart."""

from __future__ import annotations

import copy
import doctest
import json
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import jsondata
from games.engine.jsondata import json_copy, key_overrides, overrides_key

FAST = settings(max_examples=300, derandomize=True, deadline=None)

atoms = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5)
trees = st.recursive(
    atoms,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=4), inner, max_size=5),
    max_leaves=40,
)


def containers(tree: Any) -> Iterator[Any]:
    """Every dict and list of ``tree``, itself included."""
    if isinstance(tree, dict):
        yield tree
        for value in tree.values():
            yield from containers(value)
    elif isinstance(tree, list):
        yield tree
        for value in tree:
            yield from containers(value)


def scribble(tree: Any) -> None:
    """Change every container of ``tree`` in place."""
    for node in list(containers(tree)):
        if isinstance(node, dict):
            node["\x00scribbled"] = True
        else:
            node.append("\x00scribbled")


def test_the_worked_examples_hold() -> None:
    failures, tried = doctest.testmod(jsondata)
    assert tried > 0 and failures == 0


@FAST
@given(trees)
def test_a_copy_equals_the_tree_and_what_deepcopy_makes_of_it(tree: Any) -> None:
    copied = json_copy(tree)
    assert copied == tree == copy.deepcopy(tree)
    assert json.dumps(copied) == json.dumps(tree)  # the same keys in the same order, the same types


@FAST
@given(trees)
def test_a_copy_shares_no_container_with_its_original(tree: Any) -> None:
    original = {id(node) for node in containers(tree)}
    assert original.isdisjoint(id(node) for node in containers(json_copy(tree)))


@FAST
@given(trees)
def test_changing_a_copy_never_changes_the_original_nor_the_other_way_round(tree: Any) -> None:
    before = json.dumps(tree)
    copied = json_copy(tree)
    scribble(copied)
    assert json.dumps(tree) == before
    again = json_copy(tree)
    scribble(tree)
    assert json.dumps(again) == before


def test_values_beyond_json_are_copied_as_deepcopy_copies_them() -> None:
    inner = [1, 2]
    tree = {"pair": (inner, 3), "set": {4, 5}, "rows": [(6, 7)]}
    copied = json_copy(tree)
    assert copied == copy.deepcopy(tree)
    assert copied["pair"][0] is not inner and copied["set"] is not tree["set"]
    inner.append(3)
    assert copied["pair"] == ([1, 2], 3)


def test_a_bool_stays_a_bool_and_an_int_an_int() -> None:
    copied = json_copy({"flag": True, "count": 1, "money": [0, False]})
    assert [type(v) for v in (copied["flag"], copied["count"], *copied["money"])] == [bool, int, int, bool]


def test_overrides_key_tells_apart_what_the_rule_checks_tell_apart() -> None:
    assert overrides_key({"cap_wins": True}) != overrides_key({"cap_wins": 1})
    assert overrides_key({"base": 0}) != overrides_key({"base": False})
    assert overrides_key({"a": 1, "b": 2}) != overrides_key({"b": 2, "a": 1})  # order kept
    assert overrides_key({"base": 100}) == overrides_key({"base": 100})


def test_overrides_key_declines_what_it_cannot_key() -> None:
    for overrides in ({"timers": {"bet": 5}}, {"bet_multipliers": [1, 2]}, {"commission_percent": 2.5},
                      {"x": float("nan")}, {1: 2}, [("base", 100)], "base"):
        assert overrides_key(overrides) is None, overrides
    assert overrides_key(None) == overrides_key({}) == ()


@FAST
@given(st.dictionaries(st.text(max_size=6), st.none() | st.booleans() | st.integers() | st.text(max_size=4)))
def test_key_overrides_gives_the_overrides_back(overrides: dict[str, Any]) -> None:
    key = overrides_key(overrides)
    assert key is not None and hash(key) == hash(overrides_key(dict(overrides)))
    back = key_overrides(key)
    assert back == overrides and list(back) == list(overrides)
    assert [type(v) for v in back.values()] == [type(v) for v in overrides.values()]
