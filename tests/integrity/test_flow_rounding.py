"""A hand's flow between two seats is whole coins, rounded down, however the winnings split, and
a pair's net flow is the sum of those (not of their fractions)."""

from __future__ import annotations

from typing import Any

import pytest

from games.services import hands as hands_service
from history.models import HandRecordSeat
from integrity import selectors
from tests.integrity.test_selectors import _play, _table

#: Two deals whose three-way splits give fractional shares (found by trying seeds): a pair's two
#: flows, rounded down each, add up to a coin less than their fractions do.
SEEDS = (f"{28:064x}", f"{128:064x}")


@pytest.mark.django_db
def test_a_flow_that_does_not_divide_evenly_is_rounded_down_to_whole_coins(monkeypatch: Any) -> None:
    seeds = iter(SEEDS)
    monkeypatch.setattr(hands_service, "new_server_seed", lambda: next(seeds))
    table, users = _table(["ray", "sam", "tia"])
    _play(table, users, 2)
    expected: dict[tuple[int, int], int] = {}
    fractions = 0
    for record in {s.record_id for s in HandRecordSeat.objects.all()}:
        seats = list(HandRecordSeat.objects.filter(record_id=record))
        won = sum(s.coins for s in seats if s.coins > 0)
        for x in seats:
            for y in seats:
                if x.user_id < y.user_id:
                    winner, loser, sign = (x, y, 1) if x.coins > 0 > y.coins else (y, x, -1)
                    paid = winner.coins * -loser.coins if winner.coins > 0 > loser.coins else 0
                    fractions += bool(paid % won)
                    expected[(x.user_id, y.user_id)] = expected.get((x.user_id, y.user_id), 0) + sign * (paid // won)
    assert fractions, "the seeds no longer split unevenly: pick others"
    got = {(p.a, p.b): p.net for p in selectors.pair_signals()}
    assert got == expected
