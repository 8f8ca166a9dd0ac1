"""Two buy-ins of one player at two tables at once, each on its own PostgreSQL connection,
cannot together pass the player's loss limit: the limits row is locked in the seating transaction."""

from __future__ import annotations

from typing import Any

import pytest

from games.services.seating import seat_join
from responsible.errors import LimitRefused
from responsible.services import limits_set
from tests.factories import funded_user, table_at
from tests.wallet.threads import run_concurrently
from wallet.selectors import wallet_balance

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("round_", range(3))
def test_two_buy_ins_at_once_cannot_exceed_a_loss_limit(round_: int) -> None:
    tables = [table_at("thirteen", name=f"a{round_}"), table_at("thirteen", name=f"b{round_}")]
    minimum = tables[0].stake_level.min_buy_in
    user = funded_user(f"racer{round_}", minimum * 10)
    limits_set(user=user, daily=minimum * 3 // 2, weekly=None, reminder_minutes=None)

    def join(i: int) -> Any:
        return seat_join(table_id=tables[i].pk, user=user, buy_in=minimum, request_id=f"join{i}")

    results = run_concurrently(join, 2)
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], LimitRefused), results
    assert wallet_balance(user=user) == minimum * 9
