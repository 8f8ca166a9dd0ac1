"""The table page across a server that goes away mid-hand and comes back on the same address:
the page shows it is reconnecting, comes back online by itself (the socket's capped backoff,
static/js/ct-core.js), resumes the hand from the snapshot and plays it to the showdown."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games.engine.registry import engine_for
from games.services.hands import hand_act, hand_start_if_ready
from games.services.seating import seat_join
from tests.browser.conftest import call
from tests.browser.helpers import wait_showdown
from tests.factories import funded_user, table_at
from tests.games.chaos.servers import Server

pytestmark = pytest.mark.browser


@pytest.fixture
def restartable(transactional_db: Any) -> Iterator[Server]:
    srv = Server()
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def server(restartable: Server) -> str:
    """The pages' server (the ``player`` fixture's), one the test can stop and start."""
    return f"http://127.0.0.1:{restartable.port}"


def test_the_page_reconnects_by_itself_after_the_server_restarts_and_finishes_the_hand(
    player: Any, restartable: Server,
) -> None:
    table = table_at("thirteen")
    other = funded_user("stays", 2_000_000)
    call(seat_join, table_id=table.pk, user=other, buy_in=table.stake_level.min_buy_in, request_id="stays-join")
    alice = player("阿丽").open(f"/tables/{table.pk}/")
    alice.page.wait_for_selector("[data-testid=connection].conn-online")
    alice.page.click("[data-testid=join]")
    alice.page.wait_for_selector("[data-testid=my-table-money]")
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None
    alice.page.wait_for_selector("[data-testid=board]", state="visible")

    restartable.stop()  # every connection dropped
    alice.page.wait_for_selector("[data-testid=connection].conn-reconnecting")
    restartable.start()  # the same address again
    alice.page.wait_for_selector("[data-testid=connection].conn-online", timeout=20_000)
    alice.page.wait_for_selector("[data-testid=board]", state="visible")

    alice.page.click("[data-testid=hint]")
    alice.page.wait_for_function("() => document.querySelectorAll('[data-testid=hand] .card-btn').length === 0")
    alice.page.click("[data-testid=submit]")
    seat = hand.seat_of(other.pk)
    call(hand_act, table_id=table.pk, user=other, action=engine_for("thirteen").auto_action(hand.state, seat),
         client_id="stays-arrange")
    wait_showdown(alice.page)
    assert not alice.errors
