"""Wallet reads (wallet/selectors.py): table money per player at one table in one query, 0 for a
player holding none there, and the table accounts a player holds coins in."""

from __future__ import annotations

import pytest

from games.services import seating
from tests.factories import funded_user, table_at
from wallet import services
from wallet.selectors import table_money_list, table_money_of, wallet_balance

pytestmark = pytest.mark.django_db(transaction=True)

#: The ledger the welcome-coins question is planned on: this many transactions, whose references
#: name this many tables, as settlements name theirs. Small, yet past the few pages where a
#: sequential scan is the right plan.
TRANSACTIONS = 400
TABLES = 40


def test_table_money_of_reads_each_players_money_at_one_table_and_zero_for_none(django_assert_num_queries):
    table, other = table_at("thirteen", name="one"), table_at("thirteen", name="two")
    seated, away = funded_user("seated", 1_000_000), funded_user("away", 1_000_000)
    buy_in = table.stake_level.min_buy_in
    seating.seat_join(table_id=table.pk, user=seated, buy_in=buy_in, request_id="a")
    seating.seat_join(table_id=other.pk, user=away, buy_in=buy_in, request_id="b")
    with django_assert_num_queries(1):
        held = table_money_of(user_ids=[seated.pk, away.pk], table_ref=table.wallet_ref)
    assert held == {seated.pk: buy_in, away.pk: 0}
    assert [a.table_ref for a in table_money_list(user=away)] == [other.wallet_ref]
    assert wallet_balance(user=away) == 1_000_000 - buy_in


def test_welcome_funded_counts_recent_daily_bonuses_like_welcome_coins(player) -> None:
    """Bonus coins are the platform's gift as welcome coins are: a player given a bonus since the
    window began counts, whatever their account's age; one given it before does not."""
    import datetime as dt

    import time_machine
    from django.utils import timezone

    from wallet.selectors import welcome_funded

    old_bonus, new_bonus, nothing = player("oldbonus"), player("newbonus"), player("nothing")
    with time_machine.travel(timezone.now() - dt.timedelta(days=40), tick=False):
        services.wallet_daily_bonus(user=old_bonus, amount=500, day="2000-01-01")
    services.wallet_daily_bonus(user=new_bonus, amount=500, day="2000-01-02")
    since = timezone.now() - dt.timedelta(days=30)
    ids = [old_bonus.pk, new_bonus.pk, nothing.pk]
    # every account here joined just now, but none was given welcome coins
    assert welcome_funded(user_ids=ids, joined_since=since) == {new_bonus.pk}


@pytest.mark.postgres
def test_welcome_funded_probes_the_ledgers_indexes_in_a_plan_made_on_a_small_ledger(player) -> None:
    """A connection keeps a prepared statement's generic plan while the ledger grows: planned on
    a ledger analysed at ``TRANSACTIONS`` transactions, the question must still look each player's
    grant and bonuses up on their indexes, never scan or hash the whole ledger (docs/SCALING.md
    "What one action costs"). The statement is prepared here as the pool's connections prepare
    it, and its generic plan explained."""
    import datetime as dt

    from django.db import connection
    from django.utils import timezone

    from tests.wallet.conftest import key
    from wallet.models import LedgerTransaction
    from wallet.selectors import welcome_funded_statement

    players = [player(name) for name in ("east", "south", "west", "north")]
    for n in range(TRANSACTIONS):
        services.wallet_grant(user=players[0], amount=1, idempotency_key=key("grant"), actor=None,
                              reference=f"table:{n % TABLES}")
    assert LedgerTransaction.objects.count() == TRANSACTIONS
    ids = [user.pk for user in players]
    sql, params = welcome_funded_statement(ids, timezone.now() - dt.timedelta(days=30))
    numbered = sql.replace("%s", "{}").format(*(f"${n}" for n in range(1, len(params) + 1)))
    types = ", ".join({int: "bigint", str: "text"}.get(type(value), "timestamptz") for value in params)
    values = ", ".join(str(value) if isinstance(value, int) else f"'{value}'" for value in params)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE wallet_ledgertransaction")
        cursor.execute(f"PREPARE funded ({types}) AS {numbered}")
        cursor.execute("SET plan_cache_mode = force_generic_plan")
        try:
            cursor.execute(f"EXPLAIN EXECUTE funded ({values})")
            plan = "\n".join(row[0] for row in cursor.fetchall())
        finally:
            cursor.execute("RESET plan_cache_mode")
            cursor.execute("DEALLOCATE funded")
    assert "$1" in plan, plan  # the generic plan: parameters, not the values
    assert "hashed" not in plan and "Seq Scan on wallet_ledgertransaction" not in plan, plan
    assert plan.count("Index Scan using wallet_ledgertransaction_") == 2, plan
