"""Play at a stake level: the fullest open table with a free seat, or a new one."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from tables.models import Seat, StakeLevel, Table
from tables.services import table_find_or_create_free
from tests.factories import ensure_stake_levels, funded_user
from tests.wallet.conftest import _postgres_only  # noqa: F401 - the postgres marker's skip
from tests.wallet.threads import run_concurrently

_names = itertools.count(1)


def _level(seats: int = 4) -> StakeLevel:
    ensure_stake_levels()
    level = StakeLevel.objects.filter(game="thirteen", mode="", seats=seats).order_by("unit").first()
    assert level is not None
    return level


def _table(level: StakeLevel, players: int, **fields: Any) -> Table:
    table = Table.objects.create(stake_level=level, name=f"t{next(_names)}", **fields)
    for index in range(players):
        user = User.objects.create_user(username=f"p{next(_names)}", password="x" * 12)
        Seat.objects.create(table=table, index=index, user=user)
    return table


@pytest.mark.django_db
def test_the_fullest_table_with_a_free_seat_is_chosen_the_oldest_on_a_tie() -> None:
    level = _level()
    _table(level, 1)
    first_two, _second_two = _table(level, 2), _table(level, 2)
    _table(level, 4)  # full
    _table(level, 3, status=Table.Status.CLOSED)
    _table(StakeLevel.objects.exclude(pk=level.pk).filter(game="thirteen").first(), 3)  # another level
    assert table_find_or_create_free(level=level) == first_two


@pytest.mark.django_db
def test_a_table_is_opened_when_every_one_is_full_and_numbered_after_all_of_the_level() -> None:
    level = _level()
    _table(level, 4)
    _table(level, 0, status=Table.Status.CLOSED)
    table = table_find_or_create_free(level=level)
    assert table.stake_level == level and table.name == f"{level.name} · 3"
    assert table.status == Table.Status.OPEN and Table.objects.filter(stake_level=level).count() == 3


@pytest.mark.django_db
def test_an_empty_level_opens_its_first_table_and_play_reuses_it() -> None:
    level = _level()
    table = table_find_or_create_free(level=level)
    assert table.name == f"{level.name} · 1"
    assert table_find_or_create_free(level=level) == table


@pytest.mark.django_db
def test_the_choice_takes_the_same_few_queries_whatever_the_number_of_tables() -> None:
    level = _level()

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            table_find_or_create_free(level=level)
        return len(captured.captured_queries)

    _table(level, 1)
    few = queries()
    for players in (0, 1, 2, 3, 4, 4, 2, 1, 3, 0, 4, 2):
        _table(level, players)
    assert queries() == few <= 4  # the lock and the choice (and the test's savepoint)


@pytest.mark.django_db
def test_the_play_page_redirects_to_the_chosen_table(client: Any) -> None:
    level = _level()
    best = _table(level, 3)
    _table(level, 1)
    client.force_login(funded_user("chooser", level.min_buy_in))
    response = client.post(reverse("table-play", args=[level.pk]))
    assert response.status_code == 302 and response.url == reverse("table", args=[best.pk])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_plays_at_an_empty_level_open_one_table() -> None:
    level = _level()
    results = run_concurrently(lambda _i: table_find_or_create_free(level=level), 8)
    assert all(isinstance(r, Table) for r in results), results
    assert len({r.pk for r in results}) == 1
    assert Table.objects.filter(stake_level=level).count() == 1


@pytest.mark.django_db
def test_play_prefers_players_present_and_never_sends_a_newcomer_to_a_table_of_absent_players() -> None:
    """docs/RULES.md "Away players": a table whose players all sit out or are gone deals no hand."""
    level = _level()
    absent = _table(level, 3)
    for seat, change in zip(Seat.objects.filter(table=absent).order_by("index"), [
        {"status": Seat.Status.AWAY}, {"status": Seat.Status.SITTING_OUT}, {"disconnected": True},
    ], strict=True):
        Seat.objects.filter(pk=seat.pk).update(**change)
    opened = table_find_or_create_free(level=level)
    assert opened != absent and not opened.seat_set.exists()  # a new table rather than that one
    one_here = _table(level, 1)
    two_one_gone = _table(level, 2)
    Seat.objects.filter(table=two_one_gone, index=1).update(disconnected=True)
    both_here = _table(level, 2)
    assert table_find_or_create_free(level=level) == both_here
    Seat.objects.filter(table=both_here, index=0).update(status=Seat.Status.AWAY)
    assert table_find_or_create_free(level=level) == two_one_gone  # one present each: the fuller one
    Seat.objects.filter(table=two_one_gone, index=0).update(status=Seat.Status.SITTING_OUT)
    assert table_find_or_create_free(level=level) == both_here  # one present each: the fuller one
    Seat.objects.filter(table=both_here, index=1).update(disconnected=True)
    assert table_find_or_create_free(level=level) == one_here
