"""Plain JSON data, as engine state is (games/engine/protocol.py): copying it, and keying a cache on rule overrides.

State, actions, events and results are trees of ``dict``, ``list``, ``str``, ``int``,
``float``, ``bool`` and ``None``. Functions return new state instead of mutating their input
(docs/STYLE.md "Engines"), so every step copies: :func:`json_copy` is the deep copy those
steps use. It knows only the JSON types, so it needs neither :func:`copy.deepcopy`'s memo
nor its per-type dispatch, and costs a fraction of it.

>>> state = {"seats": [{"cards": [4, 17], "rows": None}], "rules": {"base": 100}}
>>> copied = json_copy(state)
>>> copied == state, copied["seats"][0]["cards"] is state["seats"][0]["cards"]
(True, False)
>>> overrides_key({"base": 100, "mode": "house"}) == overrides_key({"base": 100, "mode": "house"})
True
>>> overrides_key({"cap_wins": True}) == overrides_key({"cap_wins": 1}), overrides_key({"timers": {"bet": 5}})
(False, None)
>>> key_overrides(overrides_key({"base": 100, "mode": "house"}))
{'base': 100, 'mode': 'house'}
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, TypeVar, cast

T = TypeVar("T")
#: What :func:`overrides_key` returns: ``(name, type, value)`` for every override, in order.
OverridesKey = tuple[tuple[str, type, Any], ...]

#: The immutable JSON values, by exact type (``bool`` is an ``int`` subclass, so it is named too).
_ATOMS = frozenset({str, int, float, bool, type(None)})
#: The values :func:`overrides_key` accepts: no ``float`` (``0.0 == -0.0`` and ``nan != nan``).
_KEYABLE = frozenset({str, int, bool, type(None)})


def json_copy(value: T) -> T:
    """A deep copy of a JSON tree: every ``dict`` and ``list`` is new, so mutating the copy
    never changes ``value`` and the other way round; strings and numbers are shared (they are
    immutable), and so are dict keys. A container reached twice within ``value`` (which a JSON
    column cannot hold) is copied twice. Anything else in the tree (a tuple, a set, an object)
    is left to :func:`copy.deepcopy`.

    >>> rows = {"front": [1, 2, 3]}
    >>> copied = json_copy([rows, None, 2.5])
    >>> copied[0]["front"].append(4)
    >>> rows, copied
    ({'front': [1, 2, 3]}, [{'front': [1, 2, 3, 4]}, None, 2.5])
    """
    return cast(T, _tree(value))


def _tree(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else _tree(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else _tree(v) for v in value]
    if kind in _ATOMS:
        return value
    return copy.deepcopy(value)


def overrides_key(overrides: object) -> OverridesKey | None:
    """A hashable key for a rule set's overrides (``None`` or a flat mapping of ``str`` names to
    ``str``/``int``/``bool``/``None`` values, as stake levels give them), for caching the rule set
    resolved from them; None when they are anything else (a nested table, a float, not a
    mapping), and the caller then resolves them uncached.

    Each value is keyed with its type, so ``True`` and ``1`` (equal in Python, not to the rule
    checks) key differently; the names keep their order. :func:`key_overrides` gives the
    overrides back.
    """
    source = overrides or {}
    if not isinstance(source, Mapping):
        return None
    items = []
    for name, value in source.items():
        kind = type(value)
        if type(name) is not str or kind not in _KEYABLE:
            return None
        items.append((name, kind, value))
    return tuple(items)


def key_overrides(key: OverridesKey) -> dict[str, Any]:
    """The overrides an :func:`overrides_key` was made from (equal, in the same order)."""
    return {name: value for name, _kind, value in key}
