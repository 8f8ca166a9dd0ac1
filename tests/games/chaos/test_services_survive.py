"""What the services do when a dependency is away at the wrong moment: the broker down after a
commit, a PostgreSQL connection the server ended. Real services on the real database; only the
broker's send is made to fail, as it does while Redis restarts."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from kombu.exceptions import OperationalError as BrokerDown

from games.models import Hand
from games.services import retry
from games.services.hands import hand_act, hand_start_if_ready
from games.services.seating import seat_join
from tests.factories import ensure_stake_levels, funded_user, table_at

pytestmark = pytest.mark.django_db(transaction=True)


def _dealt_table(game: str = "thirteen") -> tuple[Any, list[Any], Hand]:
    ensure_stake_levels()
    table = table_at(game)
    players = [funded_user(f"p{i}", 10_000_000) for i in range(2)]
    for i, user in enumerate(players):
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id=f"join-{i}")
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    return table, players, hand


def test_a_committed_action_is_reported_applied_when_the_broker_is_down(settings: Any, monkeypatch: Any) -> None:
    """Arming the next phase's timer fails after the commit (Redis restarting): the action is
    still applied and answered as applied; the sweeper ends the phase instead of the timer."""
    from config.celery_app import app
    from games.engine.thirteen.engine import auto_action

    table, players, hand = _dealt_table()
    settings.GAMES_TIMERS = True
    sent: list[str] = []

    def broker_down(name: str, *args: Any, **kwargs: Any) -> None:
        sent.append(name)
        raise BrokerDown("Error 111 connecting to 127.0.0.1:6390. Connection refused.")

    monkeypatch.setattr(app, "send_task", broker_down)
    seat = hand.seat_of(players[0].pk)
    reply = hand_act(table_id=table.pk, user=players[0], action=auto_action(hand.state, seat), client_id="a-1")
    assert reply["status"] == "applied"
    hand.refresh_from_db()
    assert hand.state["seats"][seat]["submission"] is not None  # the move is there
    other = hand.seat_of(players[1].pk)
    reply = hand_act(table_id=table.pk, user=players[1], action=auto_action(hand.state, other), client_id="b-1")
    assert reply["status"] == "applied"
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED  # settled, though the next deal's timer could not be sent
    assert sent  # the timers were tried


def _terminate_my_connection() -> None:
    """End this test's own database session from the server side, as a PostgreSQL restart does."""
    import psycopg

    pid = connection.cursor().connection.info.backend_pid
    dsn = connection.get_connection_params()
    params = {k: v for k, v in dsn.items() if k in ("host", "port", "user", "password")}
    with psycopg.connect(dbname=connection.settings_dict["NAME"], autocommit=True, **params) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a PostgreSQL connection ended by the server")
def test_a_call_whose_connection_the_server_ended_runs_again_on_a_new_one() -> None:
    table, players, hand = _dealt_table()
    _terminate_my_connection()
    calls: list[int] = []

    def start() -> Hand | None:
        calls.append(1)
        return hand_start_if_ready(table_id=table.pk)

    assert retry.with_retries(start)() is None  # a hand is in play: nothing to deal, no error
    assert len(calls) == 2  # the first attempt met the ended connection


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a PostgreSQL connection ended by the server")
def test_an_ordinary_database_error_is_not_retried() -> None:
    from django.db import OperationalError

    calls: list[int] = []

    def cancelled() -> None:  # a statement timeout: 57014, the connection is fine
        calls.append(1)
        with connection.cursor() as cursor:
            cursor.execute("SET statement_timeout = 1")
            try:
                cursor.execute("SELECT pg_sleep(1)")
            finally:
                cursor.execute("RESET statement_timeout")

    with pytest.raises(OperationalError) as refused:
        retry.with_retries(cancelled)()
    assert not retry.connection_lost(refused.value)
    assert len(calls) == 1
