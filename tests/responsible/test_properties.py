"""Whatever a player buys in, tops up and cashes out, and in whatever order, the buy-ins the
checks let through never take the loss of the day past the limit, and a refusal moves no coin."""

from __future__ import annotations

import itertools

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.services.seating import seat_join, seat_leave, seat_top_up
from kernel.errors import AppError
from responsible.errors import LimitRefused
from responsible.selectors import DAY, table_loss
from responsible.services import limits_set
from tables.models import Seat
from tests.factories import funded_user, table_at
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db

_ids = itertools.count(1)
_ops = st.lists(st.tuples(st.sampled_from(["join", "top", "leave"]), st.integers(0, 1), st.integers(1, 4)),
                min_size=1, max_size=12)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=_ops, limit_parts=st.integers(1, 8))
def test_buy_ins_let_through_never_pass_the_daily_limit(ops: list[tuple[str, int, int]], limit_parts: int) -> None:
    tables = [table_at("thirteen", name="p0"), table_at("thirteen", name="p1")]
    minimum = tables[0].stake_level.min_buy_in
    limit = minimum * limit_parts // 2
    user = funded_user(f"prop{next(_ids)}", minimum * 100)
    limits_set(user=user, daily=limit, weekly=None, reminder_minutes=None)
    for n, (op, which, parts) in enumerate(ops):
        table, amount = tables[which], minimum * parts // 2 or 1
        before = wallet_balance(user=user)
        seated = Seat.objects.filter(table=table, user=user).exists()
        try:
            if op == "leave":
                seat_leave(table_id=table.pk, user=user)
            elif op == "top" and seated:
                seat_top_up(table_id=table.pk, user=user, amount=amount, request_id=f"t{n}")
            elif op == "join" and not seated:
                seat_join(table_id=table.pk, user=user, buy_in=max(amount, minimum), request_id=f"j{n}")
        except LimitRefused:
            assert wallet_balance(user=user) == before
        except AppError:
            pass  # not seated, and the like: nothing to do with the limits
        assert table_loss(user=user, since=timezone.now() - DAY) <= limit
