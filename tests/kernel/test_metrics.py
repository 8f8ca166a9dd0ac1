"""``/metrics``: what live play records, who may scrape, the database pool, and several
processes adding up through the multiprocess directory."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import time_machine
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connection, transaction
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from games.models import Hand, HandAction
from games.protocol import Message
from games.services import seating
from games.services.commands import dispatch
from games.services.errors import PlayError
from games.services.hands import hand_act, hand_expire, hand_start_if_ready
from kernel import metrics
from tests.factories import funded_user, hand_play_out, table_at

ROOT = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).with_name("metrics_probe.py")
REMOTE = "203.0.113.9"

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def parse(text: str) -> Samples:
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


def scrape(client: Client, **extra: Any) -> Samples:
    response = client.get("/metrics", **extra)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    return parse(response.content.decode())


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def delta(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


# --- a hand played through the services ------------------------------------------------------

def _two_dealt() -> tuple[Hand, list[Any]]:
    """Two funded players at a 十三张 table, dealt a hand."""
    table = table_at("thirteen", name="metrics test")
    users = [funded_user(f"metrics{i}", 10_000_000) for i in range(2)]
    for i, user in enumerate(users):
        seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in * 3, request_id=f"m{i}")
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    return hand, users


@pytest.fixture
def dealt(db: Any) -> tuple[Hand, list[Any]]:
    return _two_dealt()


@pytest.mark.django_db(transaction=True)
def test_a_hand_played_through_the_services_moves_dealt_actions_and_ended(client: Client) -> None:
    before = scrape(client)
    hand, users = _two_dealt()
    hand_play_out(hand, users)
    sent = HandAction.objects.filter(hand=hand, auto=False).count()
    after = scrape(client)
    assert delta(before, after, "ct_hands_dealt_total", game="thirteen") == 1
    assert delta(before, after, "ct_hands_ended_total", game="thirteen", status="settled") == 1
    assert delta(before, after, "ct_hands_ended_total", game="thirteen", status="voided") == 0
    assert sent >= 2
    assert delta(before, after, "ct_actions_total", game="thirteen", auto="false") == sent
    assert delta(before, after, "ct_action_seconds_count", game="thirteen", auto="false") == sent
    assert delta(before, after, "ct_action_seconds_bucket", game="thirteen", auto="false", le="+Inf") == sent
    seconds = delta(before, after, "ct_action_seconds_sum", game="thirteen", auto="false")
    assert 0 < seconds < 2 * sent


@pytest.mark.django_db(transaction=True)
def test_refused_duplicate_and_rolled_back_actions_are_not_counted(client: Client, dealt: Any) -> None:
    from games.adapters import engine

    hand, users = dealt
    eng = engine(hand.game)
    seat = next(s for s in range(len(hand.players)) if eng.legal_actions(hand.state, s))
    user = next(u for u in users if u.pk == hand.players[seat]["user"])
    move = eng.auto_action(hand.state, seat)
    before = scrape(client)
    with pytest.raises(PlayError):
        hand_act(table_id=hand.table_id, user=user, action={"type": "no_such_move"})
    with pytest.raises(RuntimeError), transaction.atomic():
        hand_act(table_id=hand.table_id, user=user, action=move, client_id="rolled-back")
        raise RuntimeError("the caller's transaction fails after the action")
    once = Message(type="action", id="once", data={"action": move})  # a client's id is spent by the dispatch
    assert dispatch(hand.table_id, user, once)["status"] == "applied"
    assert dispatch(hand.table_id, user, once)["status"] == "duplicate"
    after = scrape(client)
    assert delta(before, after, "ct_actions_total", game="thirteen", auto="false") == 1
    assert delta(before, after, "ct_action_seconds_count", game="thirteen", auto="false") == 1


@pytest.mark.django_db(transaction=True)
def test_seats_auto_played_on_a_deadline_count_as_auto_actions(client: Client, dealt: Any) -> None:
    hand, _users = dealt
    before = scrape(client)
    with time_machine.travel(hand.deadline + timedelta(seconds=1)):
        assert hand_expire(hand_id=hand.pk, phase_seq=hand.phase_seq) is True
        assert hand_expire(hand_id=hand.pk, phase_seq=hand.phase_seq) is False  # stale: nothing applied
    after = scrape(client)
    autos = HandAction.objects.filter(hand=hand, auto=True).count()
    assert autos >= 1
    assert delta(before, after, "ct_actions_total", game="thirteen", auto="true") == autos
    assert delta(before, after, "ct_action_seconds_count", game="thirteen", auto="true") == 1  # one call
    assert delta(before, after, "ct_actions_total", game="thirteen", auto="false") == 0


# --- the other metrics ---------------------------------------------------------------------

def test_timer_lag_and_repairs_are_recorded_and_an_early_timer_counts_as_on_time(client: Client) -> None:
    before = scrape(client)
    metrics.timer_fired("expire", 0.3)
    metrics.timer_fired("expire", -2.0)  # ran early (clock skew)
    metrics.timer_fired("start", 45.0)
    metrics.repair("lost_timer")
    after = scrape(client)
    assert delta(before, after, "ct_timer_lag_seconds_count", kind="expire") == 2
    assert delta(before, after, "ct_timer_lag_seconds_bucket", kind="expire", le="0.01") == 1
    assert delta(before, after, "ct_timer_lag_seconds_bucket", kind="expire", le="0.25") == 1
    assert delta(before, after, "ct_timer_lag_seconds_bucket", kind="expire", le="0.5") == 2
    assert delta(before, after, "ct_timer_lag_seconds_sum", kind="expire") == pytest.approx(0.3)
    assert delta(before, after, "ct_timer_lag_seconds_bucket", kind="start", le="30.0") == 0
    assert delta(before, after, "ct_timer_lag_seconds_bucket", kind="start", le="60.0") == 1
    assert delta(before, after, "ct_repairs_total", kind="lost_timer") == 1


def test_a_failing_metric_never_fails_its_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*labels: str) -> Any:
        raise OSError("no space left on device")

    monkeypatch.setattr(metrics.HANDS_DEALT, "labels", broken)
    metrics.hand_dealt("thirteen")  # logged, not raised


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_open_websockets_are_counted_until_they_close() -> None:
    from asgiref.sync import sync_to_async

    from tables.routing import websocket_urlpatterns

    def open_sockets() -> float:
        return value(scrape(Client()), "ct_websockets_open", socket="lobby")

    start = await sync_to_async(open_sockets)()
    lobby = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    assert (await lobby.connect())[0]
    await lobby.receive_from()
    assert await sync_to_async(open_sockets)() == start + 1
    await lobby.disconnect()
    assert await sync_to_async(open_sockets)() == start


@pytest.mark.django_db(transaction=True)
def test_the_database_pool_is_reported_in_postgresql_mode_and_absent_in_sqlite(client: Client) -> None:
    connection.ensure_connection()
    samples = scrape(client)
    pool_samples = [name for name, _labels in samples if name.startswith("ct_db_pool")]
    if getattr(connection, "pool", None) is None:
        assert connection.vendor == "sqlite" or not connection.settings_dict["OPTIONS"].get("pool")
        assert pool_samples == []
        return
    configured = connection.settings_dict["OPTIONS"]["pool"]["max_size"]
    assert value(samples, "ct_db_pool_max", alias="default") == configured
    assert value(samples, "ct_db_pool_connections", alias="default") >= 1
    assert value(samples, "ct_db_pool_waiting", alias="default") == 0
    assert 0 <= value(samples, "ct_db_pool_available", alias="default") <= configured


# --- who may scrape ------------------------------------------------------------------------

def test_a_remote_anonymous_client_is_refused(client: Client) -> None:
    assert client.get("/metrics", REMOTE_ADDR=REMOTE).status_code == 403


def test_a_forwarded_for_header_from_an_untrusted_peer_is_not_believed(client: Client) -> None:
    assert client.get("/metrics", REMOTE_ADDR=REMOTE, HTTP_X_FORWARDED_FOR="127.0.0.1").status_code == 403


def test_loopback_is_allowed_and_other_networks_only_when_listed(client: Client, settings: Any) -> None:
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="::1").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 403
    settings.METRICS_ALLOWED_IPS = ["10.0.0.0/8"]
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 403


@pytest.mark.django_db
def test_staff_may_scrape_from_anywhere_and_players_may_not(client: Client) -> None:
    from accounts.models import User

    player = User.objects.create_user(username="metricsplayer", password="x" * 12)
    client.force_login(player)
    assert client.get("/metrics", REMOTE_ADDR=REMOTE).status_code == 403
    staff = User.objects.create_user(username="metricsstaff", password="x" * 12, is_staff=True)
    client.force_login(staff)
    assert client.get("/metrics", REMOTE_ADDR=REMOTE).status_code == 200


def test_the_bearer_token_admits_a_remote_scraper_only_when_it_is_set_and_matches(client: Client,
                                                                                  settings: Any) -> None:
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", REMOTE_ADDR=REMOTE, HTTP_AUTHORIZATION="Bearer ").status_code == 403
    settings.METRICS_TOKEN = "s3cret-scrape-token"
    assert client.get("/metrics", REMOTE_ADDR=REMOTE, HTTP_AUTHORIZATION="Bearer s3cret-scrape-token").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR=REMOTE, HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    assert client.get("/metrics", REMOTE_ADDR=REMOTE, HTTP_AUTHORIZATION="Basic s3cret-scrape-token").status_code == 403


def test_a_scrape_is_not_redirected_to_https_and_carries_the_csp(client: Client, settings: Any) -> None:
    settings.SECURE_SSL_REDIRECT = True
    response = client.get("/metrics")
    assert response.status_code == 200
    assert "Content-Security-Policy" in response
    assert client.get("/healthz").status_code == 301  # the exemption is the scrape's alone


# --- several processes -----------------------------------------------------------------------

def _probe_env(directory: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.test", PROMETHEUS_MULTIPROC_DIR=str(directory))
    return env


def test_two_processes_write_and_one_scrape_adds_them_up_without_the_dead_ones_gauges(tmp_path: Path) -> None:
    env = _probe_env(tmp_path)
    gone = subprocess.run([sys.executable, str(PROBE), "write", "2"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=True)
    gone_pid = int(gone.stdout.split()[1])
    assert (tmp_path / f"gauge_livesum_{gone_pid}.db").exists()  # left behind, as a kill would
    held = subprocess.Popen([sys.executable, str(PROBE), "write", "3", "hold"], env=env, cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert held.stdout is not None and held.stdout.readline().startswith("ready")
        out = subprocess.run([sys.executable, str(PROBE), "scrape"], env=env, cwd=ROOT,
                             capture_output=True, text=True, timeout=60, check=True).stdout
    finally:
        assert held.stdin is not None
        held.stdin.close()
        held.wait(timeout=30)
    samples = parse(out)
    assert value(samples, "ct_hands_dealt_total", game="thirteen") == 5
    assert value(samples, "ct_actions_total", game="thirteen", auto="false") == 2
    assert value(samples, "ct_action_seconds_bucket", game="thirteen", auto="false", le="0.005") == 2
    assert value(samples, "ct_timer_lag_seconds_count", kind="expire") == 2
    assert value(samples, "ct_websockets_open", socket="table") == 1  # the live process's only
    assert not (tmp_path / f"gauge_livesum_{gone_pid}.db").exists()
    assert (tmp_path / f"counter_{gone_pid}.db").exists()  # a dead process's totals still count


def test_a_new_process_drops_gauges_left_by_a_dead_one_with_its_id(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    stale = tmp_path / f"gauge_livesum_{os.getpid()}.db"
    stale.write_bytes(b"")
    monkeypatch.setattr(metrics, "MULTIPROC_DIR", str(tmp_path))
    monkeypatch.setattr(metrics, "_process_pid", 0)
    monkeypatch.setattr(metrics, "_pool_sampler", lambda: None)
    metrics.socket_opened("lobby")
    metrics.socket_closed("lobby")
    assert not stale.exists()
    assert metrics._process_pid == os.getpid()


def test_a_killed_process_not_yet_waited_for_counts_as_dead() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert metrics._alive(child.pid)
        child.kill()
        for _ in range(100):  # the kill lands; the child stays a zombie until it is waited for
            if not metrics._alive(child.pid):
                break
            time.sleep(0.02)
        assert not metrics._alive(child.pid)
    finally:
        child.kill()
        child.wait()
    assert not metrics._alive(child.pid)
