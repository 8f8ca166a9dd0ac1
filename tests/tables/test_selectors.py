"""Table reads (platform/tables/selectors.py): the open tables of a game, what the lobby shows of
one, and which tables may be deleted (only one that never had a seat or a hand)."""

from __future__ import annotations

import pytest

from games.services import seating
from tables.models import Table
from tables.selectors import seat_holders, table_deletable, table_list_open, table_summary
from tests.factories import funded_user, table_at

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_open_tables_of_a_game_leave_out_closed_ones_and_other_games():
    thirteen, samgong = table_at("thirteen", name="t"), table_at("samgong", "all_compare", name="s")
    closed = table_at("thirteen", name="closed")
    Table.objects.filter(pk=closed.pk).update(status=Table.Status.CLOSED)
    assert [t.pk for t in table_list_open(game="thirteen")] == [thirteen.pk]
    assert samgong.pk in [t.pk for t in table_list_open()]


def test_a_seated_table_shows_its_player_is_not_deletable_and_names_its_seat_holders():
    table, empty, user = table_at("thirteen", name="t"), table_at("thirteen", name="e"), funded_user("p", 1_000_000)
    seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="a", seat_index=1)
    summary = table_summary(table_list_open(game="thirteen").get(pk=table.pk))
    assert [(p["seat"], p["name"]) for p in summary["players"]] == [(1, user.shown_name)]
    assert 1 not in summary["free_seats"] and 0 in summary["free_seats"]
    assert not table_deletable(table=table) and table_deletable(table=empty)
    assert seat_holders([table.wallet_ref, empty.wallet_ref, "table:nowhere"]) == {
        table.wallet_ref: {user.pk}, empty.wallet_ref: set(),
    }
