"""Rule sets of the five 三公 modes as data (docs/RULES.md section 3, "Modes").

Real 三公 rooms differ, so every number a room may change lives here: the ranking, the
hand multipliers, the allowed bet multipliers, the fee, the minimum table money, the
timers and the player-count limits. :func:`resolve_rules` starts from the mode's defaults
(the values docs/RULES.md gives; our own choice, marked below, where it gives none) and
applies a room's overrides, refusing unknown keys and bad values.

Money is ``int`` minor units. ``commission_bps`` is in basis points (500 = 5 %), applied
to each seat's net win of the hand and rounded down (docs/RULES.md intro: house shares).

>>> r = resolve_rules({"mode": "all_compare"})
>>> r["ranking"], r["commission_bps"], r["bet_multipliers"], r["multipliers"]["zhizun"]
('classic', 500, [1, 2, 3, 4, 5], 5)
>>> resolve_rules({"mode": "pairwise"})["multipliers"]["da_sangong"]
5
"""

from __future__ import annotations

import functools
from typing import Any

from games.engine.errors import EngineError
from games.engine.jsondata import OverridesKey, json_copy, key_overrides, overrides_key

MODES = ("all_compare", "banker_bid", "banker_rotate", "pairwise", "house")
BANKER_MODES = ("banker_bid", "banker_rotate")
RANKINGS = ("classic", "tiers")

_POINTS = {f"point_{p}": (2 if p >= 7 else 1) for p in range(10)}
#: Hand multipliers (docs/RULES.md: classic from the seed, tiers carried over position by position).
MULTIPLIERS: dict[str, dict[str, int]] = {
    "classic": {**_POINTS, "sangong": 3, "da_sangong": 4, "zhizun": 5},
    "tiers": {**_POINTS, "hun_sangong": 3, "xiao_sangong": 4, "da_sangong": 5},
}
#: House-table payouts (docs/RULES.md `house`): "N" means a win pays N per 1 staked.
HOUSE_PAYOUTS = {"player": 1, "banker": 1, "tie": 8, "sangong": 16}
SIDE_PAYOUTS = {"straight_flush": 40, "trips": 30, "straight": 6, "flush": 3, "pair": 1}

#: Hard player-count bounds a room may choose within (docs/RULES.md; `house` is our choice).
PLAYER_BOUNDS = {
    "all_compare": (2, 5),
    "banker_bid": (2, 6),
    "banker_rotate": (2, 6),
    "pairwise": (2, 6),
    "house": (1, 8),
}

_COMMON: dict[str, Any] = {
    "base": 100,  # our choice: docs/RULES.md gives no samgong base; 1.00 coin
    "bet_multipliers": [1, 2, 3, 4, 5],
    "commission_bps": 0,  # docs/RULES.md gives a fee only for all_compare
    "min_stack": None,  # None: one base (our choice; docs/RULES.md gives no minimum)
    "cap_wins": True,  # 防以小博大: a seat wins at most the table money it brought
    "timers": {"bid": 10, "offer": 10, "bet": 10, "reveal": 10},  # seconds, our choice
}

_MODE_DEFAULTS: dict[str, dict[str, Any]] = {
    "all_compare": {"ranking": "classic", "min_players": 2, "max_players": 5, "commission_bps": 500},
    "banker_bid": {"ranking": "classic", "min_players": 4, "max_players": 4},
    "banker_rotate": {"ranking": "classic", "min_players": 4, "max_players": 4},
    "pairwise": {"ranking": "tiers", "min_players": 2, "max_players": 6},
    "house": {
        "ranking": "tiers",
        "min_players": 1,
        "max_players": 8,
        "payouts": HOUSE_PAYOUTS,
        "side_payouts": SIDE_PAYOUTS,
        "half_pay_points": 6,  # a main-bet win with this many points pays 1:0.5; None: off
        "even_main_bets": True,  # player/banker bets in even minor units, so halves are exact
        "timers": {"bet": 20},
    },
}


def mode_defaults(mode: str) -> dict[str, Any]:
    """The full default rule set of ``mode`` (a fresh copy)."""
    if mode not in MODES:
        raise EngineError(f"mode: unknown mode {mode!r}; expected one of {', '.join(MODES)}")
    return json_copy(_defaults(mode))


@functools.cache
def _defaults(mode: str) -> dict[str, Any]:
    """The default rule set of ``mode``, built once; never handed out (callers get copies)."""
    rules = json_copy(_COMMON)
    extra = json_copy(_MODE_DEFAULTS[mode])
    rules["timers"].update(extra.pop("timers", {}))
    rules.update(extra)
    rules["mode"] = mode
    rules["multipliers"] = dict(MULTIPLIERS[rules["ranking"]])
    return rules


def resolve_rules(overrides: dict[str, Any] | None) -> dict[str, Any]:
    """Mode defaults with a room's ``overrides`` applied and checked (docs/RULES.md section 3).

    ``overrides["mode"]`` picks the mode (default ``all_compare``). Nested tables
    (``timers``, ``multipliers``, ``payouts``, ``side_payouts``) merge key by key; a new
    ``ranking`` brings that ranking's multiplier table before the overrides apply.

    The rule set of flat overrides (a stake level's) is resolved once and copied after that;
    any other overrides are resolved on every call.
    """
    key = overrides_key(overrides)
    return _resolve(overrides) if key is None else json_copy(_resolved(key))


@functools.lru_cache(maxsize=256)
def _resolved(key: OverridesKey) -> dict[str, Any]:
    """The rule set of the overrides ``key`` stands for; never handed out (callers get copies)."""
    return _resolve(key_overrides(key))


def _resolve(overrides: dict[str, Any] | None) -> dict[str, Any]:
    overrides = dict(overrides or {})
    rules = mode_defaults(overrides.pop("mode", "all_compare"))
    if "ranking" in overrides:
        ranking = overrides.pop("ranking")
        if ranking not in RANKINGS:
            raise EngineError(f"ranking: expected one of {', '.join(RANKINGS)}, got {ranking!r}")
        rules["ranking"] = ranking
        rules["multipliers"] = dict(MULTIPLIERS[ranking])
    for key, value in overrides.items():
        if key not in rules:
            raise EngineError(f"rules: unknown setting {key!r} for mode {rules['mode']}")
        if isinstance(rules[key], dict):
            _merge_table(rules, key, value)
        else:
            rules[key] = json_copy(value)
    _check(rules)
    return rules


def _merge_table(rules: dict[str, Any], key: str, value: Any) -> None:
    if not isinstance(value, dict):
        raise EngineError(f"{key}: expected a mapping")
    for name, item in value.items():
        if name not in rules[key]:
            raise EngineError(f"{key}: unknown entry {name!r}")
        rules[key][name] = item


def min_stack(rules: dict[str, Any]) -> int:
    """Minimum table money to be dealt in: ``min_stack``, or one base when unset."""
    value = rules["min_stack"]
    return int(rules["base"]) if value is None else int(value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _positive_int(value: Any, field: str) -> None:
    if not _is_int(value) or value <= 0:
        raise EngineError(f"{field}: expected a positive integer, got {value!r}")


def _check(rules: dict[str, Any]) -> None:
    _positive_int(rules["base"], "base")
    bets = rules["bet_multipliers"]
    if not isinstance(bets, list) or not bets:
        raise EngineError("bet_multipliers: expected a non-empty list of positive integers")
    for bet in bets:
        _positive_int(bet, "bet_multipliers")
    if sorted(set(bets)) != bets:
        raise EngineError("bet_multipliers: expected distinct values in increasing order")
    bps = rules["commission_bps"]
    if not _is_int(bps) or not 0 <= bps <= 10_000:
        raise EngineError(f"commission_bps: expected an integer 0..10000, got {bps!r}")
    if rules["min_stack"] is not None:
        _positive_int(rules["min_stack"], "min_stack")
    for name, value in rules["multipliers"].items():
        _positive_int(value, f"multipliers.{name}")
    for name, value in rules["timers"].items():
        if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
            raise EngineError(f"timers.{name}: expected a positive number of seconds")
    if not isinstance(rules["cap_wins"], bool):
        raise EngineError("cap_wins: expected true or false")
    _check_players(rules)
    _check_house(rules)


def _check_players(rules: dict[str, Any]) -> None:
    low, high = PLAYER_BOUNDS[rules["mode"]]
    lo, hi = rules["min_players"], rules["max_players"]
    if not (_is_int(lo) and _is_int(hi) and low <= lo <= hi <= high):
        raise EngineError(f"min_players/max_players: {rules['mode']} allows {low}..{high} players, got {lo!r}..{hi!r}")


def _check_house(rules: dict[str, Any]) -> None:
    if rules["mode"] != "house":
        return
    for table in ("payouts", "side_payouts"):
        for name, value in rules[table].items():
            _positive_int(value, f"{table}.{name}")
    half = rules["half_pay_points"]
    if half is not None and (not _is_int(half) or not 0 <= half <= 9):
        raise EngineError("half_pay_points: expected 0..9 or None")
    if not isinstance(rules["even_main_bets"], bool):
        raise EngineError("even_main_bets: expected true or false")
