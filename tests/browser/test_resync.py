"""A table page whose socket stays up but misses a broadcast asks for the snapshot (``sync``):
when a pong reports a newer version than its last frame, when its hand's deadline is over 3 s
past, or when a seated player has heard no state for 30 s, at most once every 10 s for the
last two (docs/PROTOCOL.md "Client obligations").

A lost broadcast is made by dropping every group message the services send: the socket keeps
answering pings, so only the page's own ``sync`` can bring the change.
"""

from __future__ import annotations

import time

import pytest

from games import broadcast
from games.models import Hand
from games.sent import sent_reset
from games.services.hands import hand_expire, hand_start_if_ready
from games.services.seating import seat_join
from tests.browser.conftest import Player, call
from tests.browser.helpers import sit_down

pytestmark = pytest.mark.browser

SEATS = "() => document.querySelectorAll('[data-testid=seat-money]').length"


#: Before the page's scripts run: note when each ``sync`` frame leaves the page (epoch ms).
RECORD_SYNCS = """
window.ctSyncs = [];
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  try { if (JSON.parse(data).type === "sync") window.ctSyncs.push(Date.now()); } catch (e) { /* not JSON */ }
  return send.call(this, data);
};
"""


@pytest.fixture(autouse=True)
def _no_records_of_other_runs() -> None:
    call(sent_reset)  # a test database starts its table ids over: records of other tables would be ahead


def _recording(p: Player) -> Player:
    p.page.add_init_script(RECORD_SYNCS)
    return p


def _syncs(p: Player) -> list[float]:
    """When the page sent each ``sync``, in seconds since the epoch."""
    return [ms / 1000 for ms in p.page.evaluate("() => window.ctSyncs")]


def _broadcasts_lost(monkeypatch: pytest.MonkeyPatch, recorded: bool = False) -> None:
    """Frames are dropped; ``recorded``: as lost on their way (the broadcast is recorded, pongs
    tell), else as never sent (the server died between its commit and its broadcast)."""
    monkeypatch.setattr(broadcast, "group_send", lambda *messages, **_kw: None)
    if not recorded:
        monkeypatch.setattr(broadcast, "sent_mark", lambda table_id, version: None)


def test_a_hand_that_ended_unheard_is_fetched_once_its_deadline_is_3_s_past(player, make_table, monkeypatch):
    table = make_table("thirteen", arrange_seconds=4)
    alice, bob = _recording(player("阿丽")), player("Bob", lang="en")
    for p in (alice, bob):
        sit_down(p, table)
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None
    alice.page.wait_for_selector("[data-testid=board]", state="visible")

    _broadcasts_lost(monkeypatch)
    deadline = hand.deadline.timestamp()
    time.sleep(max(0.0, deadline - time.time()) + 0.1)
    assert call(hand_expire, hand_id=hand.pk, phase_seq=hand.phase_seq)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED  # both auto-played; nobody was told
    assert alice.page.locator("[data-testid=showdown]").is_hidden()

    alice.page.wait_for_selector("[data-testid=showdown]", state="visible", timeout=8_000)
    due, syncs = deadline + 3, _syncs(alice)
    assert syncs and due - 0.5 <= syncs[0] <= due + 2.5  # the first sync came when it was due
    assert len(syncs) == 1  # the snapshot answered it: the hand is over, nothing is overdue
    assert not alice.errors


def test_a_page_whose_pong_reports_a_newer_version_asks_for_the_snapshot(player, make_table, monkeypatch):
    """The frame is lost but its broadcast is recorded: the next pong (every 5 s) says so, and
    2 s later the page asks; long before the 30 s of silence."""
    table = make_table("thirteen")
    alice, bob = _recording(player("阿丽")), player("Bob", lang="en")
    sit_down(alice, table)
    assert alice.page.evaluate(SEATS) == 1

    _broadcasts_lost(monkeypatch, recorded=True)
    call(seat_join, table_id=table.pk, user=bob.user, buy_in=table.stake_level.min_buy_in, request_id="bob-sits")
    alice.page.wait_for_function(f"() => ({SEATS})() === 2", timeout=10_000)
    assert len(_syncs(alice)) == 1
    assert not alice.errors


def test_a_seated_player_who_hears_no_state_asks_for_it_at_most_every_10_s(player, make_table, monkeypatch):
    table = make_table("thirteen")
    alice, bob = _recording(player("阿丽")), player("Bob", lang="en")
    sit_down(alice, table)
    assert alice.page.evaluate(SEATS) == 1
    alice.page.evaluate("() => { CT.Socket.RESYNC.silent = 2000; }")  # 30 s in the page, shortened here

    _broadcasts_lost(monkeypatch)
    call(seat_join, table_id=table.pk, user=bob.user, buy_in=table.stake_level.min_buy_in, request_id="bob-joins")
    alice.page.wait_for_function(f"() => ({SEATS})() === 2", timeout=8_000)
    assert len(_syncs(alice)) == 1

    # The snapshot's state frame starts the silence again, but syncs stay 10 s apart.
    alice.page.wait_for_function("() => window.ctSyncs.length === 2", timeout=14_000)
    syncs = _syncs(alice)
    assert len(syncs) == 2 and 9.5 <= syncs[1] - syncs[0] <= 12
    assert not alice.errors
