"""The house-banked table (docs/RULES.md `house`): one 閒 hand against one 莊 hand.

Every seated player may stake any set of five bets, in minor units, the house being the
counterparty: ``player`` (閒贏, 1:1), ``banker`` (閒輸, 1:1), ``tie`` (和, 1:8), ``sangong``
(the 閒 hand is any 三公, 1:16) and ``side`` (the 閒 hand read as 3-card poker: straight
flush 40, trips 30, straight 6, flush 3, pair 1). The hands compare by category and
points only (:func:`games.engine.samgong.hands.house_key`); on a tie the player and
banker bets push. A ``player`` win with a 6-point 閒 hand, or a ``banker`` win with a
6-point 莊 hand, pays 1:0.5.

Half pays: by default (``even_main_bets``) the player and banker bets must be even
minor units, so half a stake is exact. A room that turns this off gets half a stake
rounded down (``stake // 2``): the odd coin stays with the house, which is the bet's
counterparty (docs/RULES.md intro: house shares are rounded down; here the house is not
taking a share, it is paying one, and pays no fraction of a coin).

A seat's stakes together may not exceed its table money, so it never loses more than it
brought (防以小博大). There is no fee.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.errors import EngineError
from games.engine.samgong.hands import evaluate, hand_name, hand_points, house_key, is_sangong, multiplier
from games.engine.samgong.poker3 import poker_category
from games.engine.samgong.settle import finish

BET_KINDS = ("player", "banker", "tie", "sangong", "side")


def check_bets(bets: Any, stack: int, rules: dict[str, Any], field: str = "bets") -> dict[str, int]:
    """A seat's house bets, validated: known kinds, non-negative integers, even player and
    banker stakes when ``even_main_bets``, total within the seat's table money."""
    if not isinstance(bets, dict):
        raise EngineError(f"{field}: expected a mapping of bet kind to stake")
    clean: dict[str, int] = {}
    for kind, stake in bets.items():
        if kind not in BET_KINDS:
            raise EngineError(f"{field}: unknown bet {kind!r}; expected one of {', '.join(BET_KINDS)}")
        if not isinstance(stake, int) or isinstance(stake, bool) or stake < 0:
            raise EngineError(f"{field}.{kind}: expected a non-negative integer stake")
        if kind in ("player", "banker") and rules["even_main_bets"] and stake % 2:
            raise EngineError(f"{field}.{kind}: stake must be even (the 6-point win pays 1:0.5)")
        if stake:
            clean[kind] = stake
    if sum(clean.values()) > stack:
        raise EngineError(f"{field}: stakes total {sum(clean.values())} exceed the table money {stack}")
    return clean


def outcome(player_cards: Sequence[int], banker_cards: Sequence[int], ranking: str) -> str:
    """``player``, ``banker`` or ``tie`` by category and points only."""
    p = house_key(evaluate(player_cards, ranking))
    b = house_key(evaluate(banker_cards, ranking))
    return "player" if p > b else "banker" if b > p else "tie"


def bet_result(
    kind: str, stake: int, player_cards: Sequence[int], banker_cards: Sequence[int], rules: dict[str, Any]
) -> int:
    """Net coins of one bet for the bettor (the house takes the opposite).

    >>> from games.engine.cards import parse_cards as p
    >>> from games.engine.samgong.rules import resolve_rules
    >>> r = resolve_rules({"mode": "house"})
    >>> six, four = p(["2s", "4h", "Kd"]), p(["As", "3h", "Qd"])
    >>> [bet_result(k, 100, six, four, r) for k in ("player", "banker", "tie", "sangong")]
    [50, -100, -100, -100]
    """
    won = outcome(player_cards, banker_cards, rules["ranking"])
    if kind in ("player", "banker"):
        return _main_bet(kind, stake, won, player_cards if kind == "player" else banker_cards, rules)
    if kind == "tie":
        return stake * rules["payouts"]["tie"] if won == "tie" else -stake
    if kind == "sangong":
        hit = is_sangong(evaluate(player_cards, rules["ranking"]))
        return stake * rules["payouts"]["sangong"] if hit else -stake
    category = poker_category(player_cards)
    return stake * rules["side_payouts"][category] if category else -stake


def _main_bet(kind: str, stake: int, won: str, winning: Sequence[int], rules: dict[str, Any]) -> int:
    """閒贏 / 閒輸: push on a tie; a win with a 6-point hand pays half, rounded down."""
    if won == "tie":
        return 0
    if won != kind:
        return -stake
    if rules["half_pay_points"] is not None and _is_point_hand(winning, rules["half_pay_points"], rules):
        return stake // 2
    return stake * int(rules["payouts"][kind])


def _is_point_hand(cards: Sequence[int], points: int, rules: dict[str, Any]) -> bool:
    key = evaluate(cards, rules["ranking"])
    return not is_sangong(key) and hand_points(cards) == points


def settle_house(
    player_cards: Sequence[int], banker_cards: Sequence[int], bets: Sequence[dict[str, int]], rules: dict[str, Any]
) -> dict[str, Any]:
    """Settle every seat's bets against the house; ``house`` is the house's net.

    Besides the common settlement keys the record names ``outcome`` (``player`` /
    ``banker`` / ``tie``), ``player_hand`` and ``banker_hand`` (name ids) and ``side`` (the
    3-card poker category or None); ``hands`` and ``multipliers`` hold, for every seat,
    the 閒 hand that all seats bet on; ``units`` equal the coins (bets are in coins);
    ``winner`` is None.
    """
    gross = [sum(bet_result(k, v, player_cards, banker_cards, rules) for k, v in seat.items()) for seat in bets]
    ranking = rules["ranking"]
    pkey, bkey = evaluate(player_cards, ranking), evaluate(banker_cards, ranking)
    n = len(bets)
    return finish(
        gross,
        rules,
        winner=None,
        outcome=outcome(player_cards, banker_cards, ranking),
        hands=[hand_name(pkey, ranking)] * n,
        multipliers=[multiplier(pkey, ranking, rules["multipliers"])] * n,
        units=list(gross),
        player_hand=hand_name(pkey, ranking),
        banker_hand=hand_name(bkey, ranking),
        side=poker_category(player_cards),
    )
