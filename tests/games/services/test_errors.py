"""Errors a player can read (games/services/errors.py): each refusal of the services carries its
stable code for clients and a reason in the player's language."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.services import seating
from games.services.errors import NotSeated, TableFull

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_taken_seat_and_a_top_up_without_a_seat_are_refused_with_their_codes_and_reasons(funded, table_for):
    table, first, second = table_for("thirteen"), funded(), funded()
    buy_in = table.stake_level.min_buy_in
    seating.seat_join(table_id=table.pk, user=first, buy_in=buy_in, request_id="a", seat_index=0)
    with translation.override("en"), pytest.raises(TableFull) as taken:
        seating.seat_join(table_id=table.pk, user=second, buy_in=buy_in, request_id="b", seat_index=0)
    assert (taken.value.code, str(taken.value)) == ("table_full", "That seat is taken.")
    with translation.override("zh-hans"), pytest.raises(NotSeated) as unseated:
        seating.seat_top_up(table_id=table.pk, user=second, amount=100, request_id="c")
    assert unseated.value.code == "not_seated"
    assert str(unseated.value) != "You are not seated at this table."  # translated
