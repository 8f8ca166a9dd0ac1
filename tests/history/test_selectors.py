"""Reads of hand records (platform/history/selectors.py): the moments an export names, who sees
which copy of a record, the filters, and the chain heads an export must end with."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import User
from history.models import HandRecord
from history.selectors import (
    RecordFilter,
    chain_heads,
    hand_id_of_record,
    hand_record_filter,
    hand_record_for_viewer,
    hand_record_list_for_player,
    parse_moment,
    user_lookup,
)
from tests.history.conftest import Live, records_of

UTC = dt.UTC


@given(st.dates(min_value=dt.date(1, 1, 2), max_value=dt.date(9999, 12, 30)))
def test_a_bare_date_is_the_whole_day_from_its_first_instant_to_the_next_days(day: dt.date) -> None:
    start, end = parse_moment(day.isoformat()), parse_moment(day.isoformat(), end=True)
    assert start == dt.datetime.combine(day, dt.time.min, tzinfo=UTC)
    assert end - start == dt.timedelta(days=1)


@pytest.mark.parametrize("text", ["2026-02-30", "yesterday", "", "2026-01-31T25:00", "9999-99-99"])
def test_anything_but_a_date_or_a_date_time_is_a_readable_error(text: str) -> None:
    with pytest.raises(ValueError, match="2026-01-31"):
        parse_moment(text)


def test_a_date_time_keeps_its_zone_and_a_naive_one_is_read_in_the_sites() -> None:
    assert parse_moment("2026-01-31T12:00:00+08:00") == dt.datetime(2026, 1, 31, 4, tzinfo=UTC)
    assert parse_moment(" 2026-01-31T12:00:00 ", end=True) == dt.datetime(2026, 1, 31, 12, tzinfo=UTC)


@pytest.mark.django_db
def test_a_player_is_found_by_id_or_by_username() -> None:
    user = User.objects.create_user(username="1x", password="x" * 12)
    assert user_lookup(user.pk) == user and user_lookup(f" {user.pk} ") == user
    assert user_lookup("1x") == user
    assert user_lookup("nobody") is None and user_lookup(user.pk + 99) is None


def test_records_are_filtered_by_table_and_player_and_each_tables_heads_are_its_last(
        live: Callable[..., Live], people: dict[str, Any]) -> None:
    one, two = live("thirteen", "", 2), live("thirteen", "", 2, seed=2)
    one.play(3)
    two.play(2)
    last_one, last_two = records_of(one.table)[-1], records_of(two.table)[-1]

    assert list(hand_record_filter(RecordFilter(table=one.table.pk))) == records_of(one.table)
    assert set(hand_record_filter(RecordFilter(player=two.users[0].pk))) == set(records_of(two.table))
    assert not hand_record_filter(RecordFilter(until=timezone.now() - dt.timedelta(days=1))).exists()
    heads = {head["table"]: head for head in chain_heads()}
    assert (heads[one.table.pk]["seq"], heads[one.table.pk]["hash"]) == (last_one.chain_seq, last_one.hash)
    assert (heads[two.table.pk]["seq"], heads[two.table.pk]["hash"]) == (last_two.chain_seq, last_two.hash)
    mine = list(hand_record_list_for_player(user=one.users[1]))
    assert [r.pk for r in mine] == sorted((r.pk for r in records_of(one.table)), reverse=True)
    assert len({r.my_seat for r in mine}) == 1  # one seat, the same in every hand


def test_each_viewer_gets_the_copy_they_may_see_and_strangers_a_404(
        live: Callable[..., Live], people: dict[str, Any]) -> None:
    game = live("thirteen", "", 2)
    game.play(1)
    record: HandRecord = records_of(game.table)[0]

    _, full = hand_record_for_viewer(user=people["auditor"], hand_id=record.hand_id)
    _, mine = hand_record_for_viewer(user=game.users[0], hand_id=record.hand_id)
    assert full == {**record.body, "hash": record.hash}  # the whole record
    assert mine != full and mine["hash"] == record.hash
    assert hand_id_of_record(user=game.users[1], record_pk=record.pk) == record.hand_id
    for stranger in (people["stranger"], AnonymousUser()):
        with pytest.raises(Http404):
            hand_record_for_viewer(user=stranger, hand_id=record.hand_id)
        with pytest.raises(Http404):
            hand_id_of_record(user=stranger, record_pk=record.pk)
