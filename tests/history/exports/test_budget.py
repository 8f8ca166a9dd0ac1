"""The exports' budget (history/exports/budget.py): their own connections, a place per account
and in all, a time limit; live play never waits for an export."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.signals import request_finished
from django.db import close_old_connections, connection, connections
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from accounts.roles import roles_sync
from games.services.seating import seat_join
from history.exports import stream
from history.exports.budget import ExportTimeLimit, export_start
from tests.factories import funded_user, table_at
from tests.history.conftest import records_of

MY_EXPORT = "api-history-my-export"


def _open(client: Client, name: str = MY_EXPORT, **params: Any) -> Any:
    return client.get(reverse(name), params)


@pytest.fixture
def hands(live: Any) -> Any:
    table = live("thirteen", "", 3, seed=7)
    table.play(3)
    return table


def _close_unread(response: Any) -> None:
    """What a server does when a client drops a download: the response closed, its content
    unread (without the end-of-request signal, which would close the test's connection)."""
    request_finished.disconnect(close_old_connections)
    try:
        response.close()
    finally:
        request_finished.connect(close_old_connections)


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_a_second_export_of_the_same_account_is_refused_with_a_translated_429(hands: Any, settings: Any) -> None:
    settings.EXPORTS_PER_USER = 1
    client = _client(hands.users[0])
    first = _open(client)
    assert first.status_code == 200
    second = _open(client)
    assert second.status_code == 429
    assert second["Retry-After"] == "60"
    with translation.override("zh-hans"):
        expected = translation.gettext(
            "Your previous export is still running: wait for it to finish, then try again.")
    assert second.json() == {"detail": expected} and expected != (
        "Your previous export is still running: wait for it to finish, then try again.")
    assert _client(hands.users[1]).get(reverse(MY_EXPORT)).status_code == 200, "another account has its own place"
    b"".join(first.streaming_content)  # the first export read to its end frees its place
    third = _open(client)
    assert third.status_code == 200
    _close_unread(third)  # a download closed unread frees it too
    assert _open(client).status_code == 200


@pytest.mark.django_db
def test_exports_past_the_running_limit_are_refused_for_everyone(hands: Any, settings: Any) -> None:
    settings.EXPORTS_RUNNING_MAX = 2
    running = [_open(_client(user)) for user in hands.users[:2]]
    assert [r.status_code for r in running] == [200, 200]
    refused = _client(hands.users[2]).get(reverse(MY_EXPORT))
    assert refused.status_code == 429
    with translation.override("zh-hans"):
        assert refused.json()["detail"] == translation.gettext(
            "Too many exports are running right now: try again in a minute.")
    _close_unread(running[0])
    assert _open(_client(hands.users[2])).status_code == 200


@pytest.mark.django_db
def test_the_place_of_an_export_whose_process_died_frees_itself_after_the_time_limit(
    hands: Any, settings: Any, time_machine: Any
) -> None:
    settings.EXPORTS_PER_USER = 1
    user = hands.users[0]
    export_start(user_id=user.pk)  # taken, never given back: its process died
    assert _open(_client(user)).status_code == 429
    time_machine.shift(settings.EXPORTS_TIME_LIMIT + 61)
    assert _open(_client(user)).status_code == 200


@pytest.mark.django_db
def test_an_export_running_past_its_time_limit_ends_unfinished_and_frees_its_place(
    hands: Any, settings: Any, time_machine: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stream, "CHUNK_LINES", 1)
    settings.EXPORTS_PER_USER = 1
    client = _client(hands.users[0])
    response = _open(client)
    pieces = iter(response.streaming_content)
    assert next(pieces)
    time_machine.shift(settings.EXPORTS_TIME_LIMIT + 1)
    with pytest.raises(ExportTimeLimit):
        next(pieces)
    assert _open(client).status_code == 200


@pytest.mark.django_db
def test_an_admin_export_past_the_budget_is_said_on_the_changelist(hands: Any, people: Any, settings: Any) -> None:
    settings.EXPORTS_PER_USER = 1
    client = _client(people["auditor"])
    url = reverse("admin:history_handrecord_changelist")
    chosen = [r.pk for r in records_of(hands.table)]
    first = client.post(url, {"action": "export_jsonl", "_selected_action": chosen})
    assert first.streaming
    refused = client.post(url, {"action": "export_jsonl", "_selected_action": chosen}, follow=True)
    assert refused.status_code == 200 and not refused.streaming
    messages = [str(m) for m in refused.context["messages"]]
    with translation.override("zh-hans"):
        assert translation.gettext(
            "Your previous export is still running: wait for it to finish, then try again.") in messages


def _auditors(n: int) -> list[User]:
    group = roles_sync()
    out = []
    for i in range(n):
        user = User.objects.create_user(username=f"auditor{i}", password="x" * 12, is_staff=True)
        user.groups.add(group)
        out.append(user)
    return out


@pytest.fixture
def stalled_exports(hands: Any, settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Start ``n`` auditors' exports, each read for one piece and then left unread."""
    monkeypatch.setattr(stream, "CHUNK_ROWS", 1)
    monkeypatch.setattr(stream, "CHUNK_LINES", 1)
    release = threading.Event()
    threads: list[threading.Thread] = []

    def start(n: int) -> list[int]:
        statuses: list[int] = []
        started = threading.Barrier(n + 1, timeout=60)

        def export(user: User) -> None:
            response = None
            try:
                response = _open(_client(user), "api-history-export")
                statuses.append(response.status_code)
                if response.status_code == 200:
                    next(iter(response.streaming_content))
            except Exception as exc:  # noqa: BLE001 - the test reads what each export met
                statuses.append(type(exc).__name__)
            finally:
                started.wait()
                release.wait(timeout=120)  # a client that stopped reading
                if response is not None:
                    response.close()
                for conn in connections.all(initialized_only=True):
                    conn.close()

        for user in _auditors(n):
            threads.append(threading.Thread(target=export, args=(user,)))
            threads[-1].start()
        started.wait()
        return statuses

    yield start
    release.set()
    for thread in threads:
        thread.join(timeout=60)
    pool_close = getattr(connections[settings.EXPORTS_DATABASE], "close_pool", None)
    if pool_close is not None:  # PostgreSQL: the exports' idle connections end with the test
        pool_close()


@pytest.mark.django_db(transaction=True, databases=["default", "exports"])
def test_live_play_still_acts_while_25_exports_are_held_open(stalled_exports: Any, settings: Any) -> None:
    """More stalled exports than live play's pool has connections (PostgreSQL: 20), every one let
    in: a seat is still taken at once, in a thread of its own as live play's are."""
    settings.EXPORTS_RUNNING_MAX = 25
    statuses = stalled_exports(25)
    player, table = funded_user("latecomer", 10_000_00), table_at("thirteen", name="beside the exports")
    took: list[float] = []

    def join() -> None:
        began = time.monotonic()
        try:
            seat_join(table_id=table.pk, user=player, buy_in=table.stake_level.min_buy_in, request_id="late-1")
            took.append(time.monotonic() - began)
        finally:
            connection.close()

    thread = threading.Thread(target=join)
    thread.start()
    thread.join(timeout=30)
    assert took and took[0] < 3, f"the seat took {took or 'more than 30'} s"
    assert statuses == [200] * 25


@pytest.mark.django_db(transaction=True, databases=["default", "exports"])
def test_exports_past_the_budget_are_refused_while_others_are_held_open(stalled_exports: Any, settings: Any) -> None:
    settings.EXPORTS_RUNNING_MAX = 4
    statuses = stalled_exports(10)
    assert sorted(statuses) == [200] * 4 + [429] * 6
