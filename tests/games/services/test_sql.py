"""The live path's hand-written statements (games/services/sql.py): every value is a parameter,
never part of the text, and the text is written once per shape."""

from __future__ import annotations

from games.services.sql import level_hand_seats


def test_values_go_as_parameters_and_the_text_is_shared_by_every_table():
    ref = "table:'; DROP TABLE wallet_account; --"
    text, params = level_hand_seats(hand_id=123_457, level_id=98_765, table_id=55_555, table_ref=ref)
    for value in (ref, 123_457, 98_765, 55_555):
        assert value in params and str(value) not in text
    other, _params = level_hand_seats(hand_id=None, level_id=1, table_id=2, table_ref="table:other")
    assert other is text
