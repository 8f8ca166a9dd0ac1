"""Stake levels and the table rules of ``thirteen`` (docs/RULES.md section 1, "Money", "Stake levels").

Money is in minor units (0.50 is 50). A stake level is the unit value, the commission
rate (percent of each player's net win) and the minimum buy-in.

>>> [(s["unit"], s["commission_percent"], s["min_buy_in"]) for s in STAKE_LEVELS][:2]
[(50, 5, 1500), (100, 5, 3000)]
>>> r = resolve_rules({"unit": 250})
>>> r["commission_percent"], r["min_buy_in"], r["arrange_seconds"]
(4, 7500, 60)
>>> eligible(r, 1250), eligible(r, 1249)
(True, False)
"""

from __future__ import annotations

import functools
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from games.engine.errors import EngineError
from games.engine.jsondata import OverridesKey, key_overrides, overrides_key

STAKE_LEVELS: tuple[dict[str, int], ...] = (
    {"unit": 50, "commission_percent": 5, "min_buy_in": 1500},
    {"unit": 100, "commission_percent": 5, "min_buy_in": 3000},
    {"unit": 250, "commission_percent": 4, "min_buy_in": 7500},
    {"unit": 500, "commission_percent": 3, "min_buy_in": 15000},
    {"unit": 1000, "commission_percent": 3, "min_buy_in": 30000},
    {"unit": 2000, "commission_percent": 3, "min_buy_in": 60000},
    {"unit": 5000, "commission_percent": 2, "min_buy_in": 250000},
)

MIN_UNITS_TO_PLAY = 5
MIN_SEATS = 2
MAX_SEATS = 4

DEFAULT_RULES: dict[str, Any] = {
    "unit": 100,
    "commission_percent": 5,
    "min_buy_in": 3000,
    "min_units": MIN_UNITS_TO_PLAY,
    "arrange_seconds": 60,
}

_INT_FIELDS = ("unit", "min_buy_in", "min_units", "arrange_seconds")


def stake_level(unit: int) -> dict[str, int] | None:
    """The stake level whose unit is ``unit`` (docs/RULES.md "Stake levels"), or None."""
    for level in STAKE_LEVELS:
        if level["unit"] == unit:
            return dict(level)
    return None


def resolve_rules(overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The full rule set: defaults, then the stake level of ``unit``, then explicit overrides.
    Resolved once per set of flat overrides without floats (a stake level's), then copied."""
    key = overrides_key(overrides)
    return _resolve(overrides) if key is None else dict(_resolved(key))


@functools.lru_cache(maxsize=256)
def _resolved(key: OverridesKey) -> dict[str, Any]:
    """The rule set of the overrides ``key`` stands for; never handed out (callers get copies)."""
    return _resolve(key_overrides(key))


def _resolve(overrides: dict[str, Any] | None) -> dict[str, Any]:
    overrides = dict(overrides or {})
    unknown = sorted(set(overrides) - set(DEFAULT_RULES))
    if unknown:
        raise EngineError(f"rules: unknown field {unknown[0]!r}")
    rules = dict(DEFAULT_RULES)
    level = stake_level(overrides.get("unit", rules["unit"]))
    if level is not None:
        rules.update(level)
    rules.update(overrides)
    for name in _INT_FIELDS:
        value = rules[name]
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise EngineError(f"rules.{name}: expected a positive integer, got {value!r}")
    commission_rate(rules["commission_percent"], field="rules.commission_percent")
    return rules


def eligible(rules: dict[str, Any], stack: int) -> bool:
    """docs/RULES.md: "A player needs at least 5 units of table money to be dealt in"."""
    full = resolve_rules(rules)
    need: int = full["min_units"] * full["unit"]
    return stack >= need


def commission_rate(percent: object, *, field: str = "commission") -> Fraction:
    """A commission percentage (int, or a decimal such as 2.5) as an exact fraction of 1."""
    if isinstance(percent, bool) or not isinstance(percent, int | float):
        raise EngineError(f"{field}: expected a percentage such as 5, got {percent!r}")
    try:
        value = Fraction(Decimal(str(percent)))
    except (InvalidOperation, ValueError) as exc:
        raise EngineError(f"{field}: expected a finite percentage, got {percent!r}") from exc
    if not 0 <= value <= 100:
        raise EngineError(f"{field}: expected a percentage between 0 and 100, got {percent!r}")
    return value / 100
