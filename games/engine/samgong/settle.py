"""Settlement of the player-against-player modes (docs/RULES.md section 3, "Modes").

Every function here is pure: cards, bet multipliers and table money in, a settlement
dict out with ``gross`` (net per seat before the fee), ``commissions`` (fee per seat),
``coins`` (net after the fee), ``commission``, ``house``, ``winner``, ``hands``,
``multipliers`` and ``units`` (the uncapped result in bases). Always
``sum(coins) + house == 0``. Each seat's exposure is capped at the table money it
brought (防以小博大); with ``cap_wins`` (default) so is its win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.samgong.hands import Key, evaluate, hand_name, multiplier
from games.engine.samgong.split import apply_fees, split_proportional

Rules = dict[str, Any]


def _read(hands: Sequence[Sequence[int]], rules: Rules) -> tuple[list[Key], list[str], list[int]]:
    ranking = rules["ranking"]
    keys = [evaluate(h, ranking) for h in hands]
    names = [hand_name(k, ranking) for k in keys]
    mults = [multiplier(k, ranking, rules["multipliers"]) for k in keys]
    return keys, names, mults


def finish(gross: list[int], rules: Rules, **extra: Any) -> dict[str, Any]:
    """Fees on each seat's net win (rounded down), then the settlement record."""
    coins, fees = apply_fees(gross, rules["commission_bps"])
    commission = sum(fees)
    record = {
        "gross": gross,
        "coins": coins,
        "commissions": fees,
        "commission": commission,
        "house": commission - sum(gross),
    }
    record.update(extra)
    return record


def settle_all_compare(
    hands: Sequence[Sequence[int]], bets: Sequence[int], stacks: Sequence[int], rules: Rules
) -> dict[str, Any]:
    """通比 (docs/RULES.md `all_compare`): the best hand wins; each loser pays
    ``min(A·M·X·Y, loser's table money, winner's table money)``; if the losers' total
    exceeds the winner's table money it is split in proportion instead; the winner pays
    the fee (5 %, rounded down) on the win.

    >>> from games.engine.cards import parse_cards as p
    >>> from games.engine.samgong.rules import resolve_rules
    >>> r = resolve_rules({"mode": "all_compare", "base": 10})
    >>> s = settle_all_compare([p(["Ks", "Qs", "Jh"]), p(["2s", "3d", "4d"])], [2, 3], [1000, 1000], r)
    >>> s["gross"], s["commission"], s["coins"]
    ([180, -180], 9, [171, -180])
    """
    keys, names, mults = _read(hands, rules)
    n = len(hands)
    win = max(range(n), key=lambda s: keys[s])
    units = [0 if s == win else -mults[win] * bets[win] * bets[s] for s in range(n)]
    claims = [min(-units[s] * rules["base"], stacks[s], stacks[win]) for s in range(n)]
    if sum(claims) > stacks[win]:
        claims = split_proportional(stacks[win], claims, start=(win + 1) % n)
    gross = [-c for c in claims]
    gross[win] = sum(claims)
    units[win] = -sum(units)
    return finish(gross, rules, winner=win, hands=names, multipliers=mults, units=units)


def banker_claims(
    keys: Sequence[Key], mults: Sequence[int], bets: Sequence[int], stacks: Sequence[int], banker: int, rules: Rules
) -> tuple[list[int], list[int], list[int]]:
    """Per player: what the banker owes it, what it owes the banker, and the uncapped units.

    The winner of each meeting takes ``A × winner's hand multiplier × player's bet``,
    capped at the player's table money (its loss always, its win with ``cap_wins``).
    """
    owed, lost, units = [0] * len(keys), [0] * len(keys), [0] * len(keys)
    for s in range(len(keys)):
        if s == banker or keys[s] == keys[banker]:
            continue
        if keys[s] > keys[banker]:
            units[s] = mults[s] * bets[s]
            owed[s] = units[s] * rules["base"]
            owed[s] = min(owed[s], stacks[s]) if rules["cap_wins"] else owed[s]
        else:
            units[s] = -mults[banker] * bets[s]
            lost[s] = min(-units[s] * rules["base"], stacks[s])
    units[banker] = -sum(units)
    return owed, lost, units


def settle_banker(
    hands: Sequence[Sequence[int]], bets: Sequence[int], stacks: Sequence[int], banker: int, rules: Rules
) -> dict[str, Any]:
    """搶莊 / 輪莊 (docs/RULES.md `banker_bid`): the banker meets each player. A banker who
    can't cover pays all they have (table money plus this hand's takings) to the winners
    in proportion to what each is owed; with ``cap_wins`` a banker's net win is likewise
    capped at its table money, the losers' payments cut in proportion.

    >>> from games.engine.cards import parse_cards as p
    >>> from games.engine.samgong.rules import resolve_rules
    >>> r = resolve_rules({"mode": "banker_bid", "base": 10})
    >>> hands = [p(["As", "Td", "Jc"]), p(["9s", "Kd", "Qc"]), p(["7h", "Kh", "Qh"]), p(["2c", "3c", "5c"])]
    >>> settle_banker(hands, [0, 5, 4, 5], [30, 500, 500, 500], 0, r)["gross"]
    [-30, 45, 35, -50]
    """
    keys, names, mults = _read(hands, rules)
    n = len(hands)
    owed, lost, units = banker_claims(keys, mults, bets, stacks, banker, rules)
    start = (banker + 1) % n
    if sum(owed) > stacks[banker] + sum(lost):
        owed = split_proportional(stacks[banker] + sum(lost), owed, start=start)
    elif rules["cap_wins"] and sum(lost) - sum(owed) > stacks[banker]:
        lost = split_proportional(stacks[banker] + sum(owed), lost, start=start)
    gross = [o - x for o, x in zip(owed, lost, strict=True)]
    gross[banker] = -sum(gross)
    winner = max(range(n), key=lambda s: keys[s])
    return finish(gross, rules, winner=winner, banker=banker, hands=names, multipliers=mults, units=units)


def pairwise_units(keys: Sequence[Key], mults: Sequence[int]) -> list[int]:
    """兩兩比牌: in every pair the winner gets +M and the loser −M of the winner's multiplier."""
    units = [0] * len(keys)
    for a in range(len(keys)):
        for b in range(a + 1, len(keys)):
            if keys[a] != keys[b]:
                w, lo = (a, b) if keys[a] > keys[b] else (b, a)
                units[w] += mults[w]
                units[lo] -= mults[w]
    return units


def settle_pairwise(hands: Sequence[Sequence[int]], stacks: Sequence[int], rules: Rules) -> dict[str, Any]:
    """兩兩比牌 (docs/RULES.md `pairwise`): units × base, each seat capped (net loss at its table
    money, net win at its own table money with ``cap_wins``); if the capped wins W and
    losses L differ, the larger side is split down to the smaller, leftovers from seat 0.

    >>> from games.engine.cards import parse_cards as p
    >>> from games.engine.samgong.rules import resolve_rules
    >>> r = resolve_rules({"mode": "pairwise", "base": 10})
    >>> s = settle_pairwise([p(["Ks", "Kh", "Kd"]), p(["9s", "Td", "Tc"]), p(["2c", "3c", "5h"])], [50, 900, 900], r)
    >>> s["units"], s["gross"]
    ([10, -3, -7], [50, -15, -35])
    """
    keys, names, mults = _read(hands, rules)
    n = len(hands)
    units = pairwise_units(keys, mults)
    gross = [_cap(u * rules["base"], stacks[s], rules["cap_wins"]) for s, u in enumerate(units)]
    wins = [max(g, 0) for g in gross]
    losses = [max(-g, 0) for g in gross]
    if sum(wins) > sum(losses):
        wins = split_proportional(sum(losses), wins, start=0)
    elif sum(losses) > sum(wins):
        losses = split_proportional(sum(wins), losses, start=0)
    gross = [w - x for w, x in zip(wins, losses, strict=True)]
    winner = max(range(n), key=lambda s: keys[s])
    return finish(gross, rules, winner=winner, hands=names, multipliers=mults, units=units)


def _cap(amount: int, stack: int, cap_wins: bool) -> int:
    if amount < 0:
        return max(amount, -stack)
    return min(amount, stack) if cap_wins else amount
