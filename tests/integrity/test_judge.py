"""The tests the stored pair signals are judged by (integrity/judge.py): the bets test compares a
player's bets in one banker's hands with its bets with the other bankers, so a player who bets
against its cards with everyone is its own baseline, and one who does so for one banker only
stands out."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from integrity.judge import Sums, pair_bets_z, z_apart, z_sum
from integrity.models import PairSignal


def _sums(values: list[int]) -> Sums:
    out = Sums()
    for v in values:
        out.add(v)
    return out


def _leans(rng: random.Random, n: int, against: bool) -> list[int]:
    """``n`` hands' bet leans: against the cards (large on weak, small on strong), or at random."""
    points = [rng.randrange(10) for _ in range(n)]
    if against:
        return [int(200 * (2 if p <= 4 else -2) * (p - 4.5)) for p in points]
    return [int(200 * (rng.randrange(1, 6) - 3) * (p - 4.5)) for p in points]


def test_a_player_who_bets_against_its_cards_with_every_banker_is_its_own_baseline() -> None:
    rng = random.Random(1)
    one, rest = _sums(_leans(rng, 60, True)), _sums(_leans(rng, 200, True))
    assert z_sum(one.net, one.sq) < -6  # against a bet that ignores the cards it is far out
    assert abs(z_apart(one, rest, min_rest=30)) < 3  # against its own bets with the others it is not


def test_a_lean_kept_for_one_banker_stands_out_from_the_players_other_bets() -> None:
    rng = random.Random(2)
    assert z_apart(_sums(_leans(rng, 40, True)), _sums(_leans(rng, 200, False)), min_rest=30) < -4


def test_until_the_player_has_other_bankers_its_baseline_is_a_bet_that_ignores_the_cards() -> None:
    one = _sums([-300, -500, 100, -700])
    assert z_apart(one, Sums(10, 5_000, 9_000_000), min_rest=30) == z_sum(one.net, one.sq)
    assert z_apart(Sums(1, -5, 25), Sums(), min_rest=30) == 0.0


def test_a_pairs_bets_test_reads_each_way_against_that_players_own_bets() -> None:
    rng = random.Random(3)
    ab = _sums(_leans(rng, 40, True))
    now = datetime(2030, 1, 1, tzinfo=UTC)
    pair = PairSignal(a_id=1, b_id=2, first_at=now, last_at=now, bet_ab_hands=ab.hands, bet_ab_net=ab.net,
                      bet_ab_sq=ab.sq)
    others = _sums(_leans(rng, 100, False))
    total = Sums(ab.hands + others.hands, ab.net + others.net, ab.sq + others.sq)
    z_ab, z_ba = pair_bets_z(pair, {1: total})
    assert z_ab < -4 and z_ba == 0.0
    # with too few hands of the other banker nothing is judged
    pair.bet_ab_hands = 29
    assert pair_bets_z(pair, {1: total}) == (0.0, 0.0)
