"""One entry point from the WebSocket (games/services/commands.py, docs/PROTOCOL.md "Ids"): a
request with an id takes effect once however often it is resent, and an unknown type is refused
with a reason."""

from __future__ import annotations

import pytest

from games.protocol import Message
from games.services.commands import dispatch
from games.services.errors import PlayError
from tables.models import Seat
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_join_resent_with_its_id_seats_once_and_charges_once(funded, table_for):
    table, user = table_for("thirteen"), funded(coins=1_000_000)
    buy_in = table.stake_level.min_buy_in
    join = Message(type="join", id="c1", data={"buy_in": buy_in})
    first = dispatch(table.pk, user, join)
    again = dispatch(table.pk, user, join)
    assert again == {**first, "duplicate": True}
    assert Seat.objects.filter(table=table, user=user).count() == 1
    assert wallet_balance(user=user) == 1_000_000 - buy_in


def test_an_unsupported_message_is_refused_and_spends_no_id(funded, table_for):
    table, user = table_for("thirteen"), funded()
    with pytest.raises(PlayError) as refused:
        dispatch(table.pk, user, Message(type="shuffle", id="c1"))
    assert refused.value.code == "bad_message"
    join = dispatch(table.pk, user, Message(type="join", id="c1", data={"buy_in": table.stake_level.min_buy_in}))
    assert "duplicate" not in join
