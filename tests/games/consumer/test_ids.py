"""Client request ids are spent at most once per user (docs/PROTOCOL.md "Ids"): a resent id gets
the first reply and changes nothing, the same id for another request is ``duplicate_id``, and
that holds across hands, tables, leaving and concurrent requests — through the real services
on the real database."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.frames import frame_for
from games.models import ClientRequest, HandAction
from games.protocol import Message
from games.services.commands import dispatch
from games.services.errors import PlayError
from games.services.hands import hand_start_if_ready
from games.services.requests import client_requests_prune
from tables.models import Seat
from tests.games.live.test_thirteen_live import arrangement
from wallet import selectors
from wallet.audit import ledger_audit
from wallet.models import LedgerTransaction


def send(table: Any, user: Any, type: str, id: str | None = None, **data: Any) -> dict[str, Any]:
    return dispatch(table.pk, user, Message(type=type, id=id, data=data))


def refused(table: Any, user: Any, type: str, id: str | None = None, **data: Any) -> str:
    with pytest.raises(PlayError) as caught:
        send(table, user, type, id, **data)
    return caught.value.code


def move(table: Any, user: Any) -> dict[str, Any]:
    return arrangement(frame_for(table.pk, user.pk)["hand"]["view"])


@pytest.mark.django_db
def test_an_action_id_resent_after_the_next_deal_is_not_applied_to_the_new_hand(funded, table_for):
    table = table_for("thirteen")
    ann, bo = funded(), funded()
    for user in (ann, bo):
        send(table, user, "join", f"join-{user.pk}", buy_in=table.stake_level.min_buy_in)
    first_hand = hand_start_if_ready(table_id=table.pk)
    old_move = move(table, ann)
    first = send(table, ann, "action", "move-1", action=old_move)
    send(table, bo, "action", "move-2", action=move(table, bo))
    first_hand.refresh_from_db()
    assert first["status"] == "applied" and first_hand.status == "settled"

    second_hand = hand_start_if_ready(table_id=table.pk)
    assert second_hand is not None and second_hand.pk != first_hand.pk
    again = send(table, ann, "action", "move-1", action=old_move)  # a client resending late
    assert again == {**first, "status": "duplicate", "duplicate": True}
    assert refused(table, ann, "action", "move-1", action=move(table, ann)) == "duplicate_id"
    assert not HandAction.objects.filter(hand=second_hand, client_id="move-1").exists()
    assert HandAction.objects.filter(client_id="move-1").count() == 1


@pytest.mark.django_db
def test_a_buy_in_id_reused_after_leaving_does_not_seat_the_player_again(funded, table_for):
    table = table_for("thirteen")
    ann = funded()
    start = selectors.wallet_balance(user=ann)
    minimum = table.stake_level.min_buy_in
    first = send(table, ann, "join", "buy-1", buy_in=minimum)
    assert send(table, ann, "leave", "leave-1") == {"left": True}

    assert send(table, ann, "join", "buy-1", buy_in=minimum) == {**first, "duplicate": True}
    assert refused(table, ann, "join", "buy-1", buy_in=minimum * 2) == "duplicate_id"
    assert not Seat.objects.filter(table=table, user=ann).exists()
    assert selectors.wallet_balance(user=ann) == start

    # Even once the platform has forgotten the id, the wallet's key replays the old buy-in:
    # no seat on table money that was cashed out already.
    ClientRequest.objects.all().delete()
    assert refused(table, ann, "join", "buy-1", buy_in=minimum) == "duplicate_id"
    assert not Seat.objects.filter(table=table, user=ann).exists()

    send(table, ann, "join", "buy-2", buy_in=minimum)
    assert selectors.table_money(user=ann, table_ref=table.wallet_ref) == minimum
    assert ledger_audit().ok


@pytest.mark.django_db
def test_a_refused_request_spends_no_id_and_other_users_ids_are_their_own(funded, table_for):
    table = table_for("thirteen")
    ann, bo = funded(coins=100), funded()
    minimum = table.stake_level.min_buy_in
    assert refused(table, ann, "join", "same", buy_in=minimum) == "insufficient_funds"
    assert not ClientRequest.objects.filter(user=ann).exists()
    assert send(table, bo, "join", "same", buy_in=minimum) == {"seat": 0}
    assert refused(table, bo, "top_up", "same", amount=100) == "duplicate_id"
    assert send(table, bo, "sit_out", "out-1", out=True) == {"status": "sitting_out"}
    assert send(table, bo, "sit_out", "out-1", out=True) == {"status": "sitting_out", "duplicate": True}


@pytest.mark.django_db
def test_spent_ids_are_forgotten_after_the_retention_period(funded, table_for, settings):
    from datetime import timedelta

    from django.utils import timezone

    table = table_for("thirteen")
    send(table, funded(), "join", "old", buy_in=table.stake_level.min_buy_in)
    settings.GAMES_CLIENT_ID_RETENTION = 60
    assert client_requests_prune(now=timezone.now()) == 0
    assert client_requests_prune(now=timezone.now() + timedelta(seconds=61)) == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_id_at_two_tables_at_once_takes_effect_once(funded, table_for):
    tables = [table_for("thirteen"), table_for("thirteen")]
    ann = funded()
    minimum = tables[0].stake_level.min_buy_in
    barrier = threading.Barrier(2)
    outcomes: list[Any] = []

    def join(table: Any) -> None:
        barrier.wait()
        try:
            outcomes.append(send(table, ann, "join", "twin", buy_in=minimum))
        except PlayError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=join, args=(t,)) for t in tables]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(map(str, outcomes)) == sorted(["duplicate_id", str({"seat": 0})])
    assert Seat.objects.filter(user=ann).count() == 1
    assert LedgerTransaction.objects.filter(idempotency_key__startswith="buyin:", idempotency_key__endswith=":twin").count() == 1
    assert ledger_audit().ok


requests = st.lists(
    st.tuples(
        st.sampled_from(["join", "top_up", "leave", "sit_out"]),
        st.integers(0, 1),  # the table
        st.sampled_from(["a", "b", "c", None]),  # ids, reused often
        st.sampled_from([3000, 5000, 100]),  # buy-in or top-up
        st.booleans(),  # sit out or back
    ),
    min_size=1, max_size=14,
)


@pytest.mark.django_db
@settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sequence=requests)
def test_random_requests_with_reused_ids_take_effect_at_most_once(funded, table_for, sequence):
    tables = [table_for("thirteen"), table_for("thirteen")]
    ann = funded()
    granted = selectors.wallet_balance(user=ann)
    first: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {}
    for kind, at, request_id, amount, out in sequence:
        if request_id is None and kind in ("join", "top_up"):
            continue  # the protocol requires an id for these
        table = tables[at]
        data = {"join": {"buy_in": amount}, "top_up": {"amount": amount}, "sit_out": {"out": out}}.get(kind, {})
        request = (kind, at, tuple(sorted(data.items())))
        try:
            reply = send(table, ann, kind, request_id, **data)
        except PlayError as exc:
            if request_id in first:
                assert exc.code == "duplicate_id" and first[request_id][0] != request
            continue
        if request_id in first:  # a resend: the first reply, nothing changed
            assert first[request_id][0] == request and reply == {**first[request_id][1], **_marked(reply)}
        elif request_id is not None:
            first[request_id] = (request, reply)
    keys = LedgerTransaction.objects.filter(kind="buy_in", payload__user=ann.pk).values_list("idempotency_key", flat=True)
    spent_on_coins = [k.rsplit(":", 1)[1] for k in keys]
    assert len(spent_on_coins) == len(set(spent_on_coins))  # one movement of coins per id at most
    held = sum(selectors.table_money(user=ann, table_ref=t.wallet_ref) for t in tables)
    assert selectors.wallet_balance(user=ann) + held == granted
    assert ledger_audit().ok


def _marked(reply: dict[str, Any]) -> dict[str, Any]:
    marks: dict[str, Any] = {"duplicate": True}
    if "status" in reply and reply["status"] == "duplicate":
        marks["status"] = "duplicate"
    return marks
