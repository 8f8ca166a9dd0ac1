"""Hand after hand at one table: the engine's carry-over (dealer button, table head, set
counter, banker) is kept between hands; the lobby follows live."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from games.engine.cards import cards_str, parse_cards
from games.lobby import lobby_publish
from games.models import Hand
from games.services import seating
from games.services.hands import hand_act, hand_expire, hand_start_if_ready
from tables.models import Seat, Table
from tests.games.live.helpers import db, sent_frames
from wallet import selectors

pytestmark = pytest.mark.django_db(transaction=True)


def _play_out(hand: Hand, users: list) -> Hand:
    """Every dealt-in player plays the server's own suggestion until the hand settles."""
    from games.adapters import engine

    eng = engine(hand.game)
    for _ in range(40):
        hand = Hand.objects.get(pk=hand.pk)
        if hand.status != Hand.Status.ACTIVE:
            return hand
        acting = [(s, p) for s, p in enumerate(hand.players) if eng.legal_actions(hand.state, s)]
        acting = [(s, p) for s, p in acting if any(u.pk == p["user"] for u in users)]
        if not acting:  # the others are away: their time runs out
            with time_machine.travel(hand.deadline + timedelta(seconds=1)):
                hand_expire(hand_id=hand.pk, phase_seq=hand.phase_seq)
            continue
        seat, player = acting[0]
        user = next(u for u in users if u.pk == player["user"])
        hand_act(table_id=hand.table_id, user=user, action=eng.auto_action(hand.state, seat))
    raise AssertionError("hand did not settle")


def _seat_all(table: Table, users: list) -> None:
    for i, user in enumerate(users):
        seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in * 3, request_id=f"s{i}")


def test_the_dealer_button_moves_one_seat_clockwise_each_hand(funded, table_for):
    table = table_for("thirteen")
    users = [funded() for _ in range(3)]
    _seat_all(table, users)
    dealers = []
    for _ in range(4):
        hand = hand_start_if_ready(table_id=table.pk)
        dealers.append(hand.state["dealer"])
        _play_out(hand, users)
    assert dealers == [0, 1, 2, 0]


def test_the_trio_counts_games_in_a_set_and_passes_the_table_head(funded, table_for):
    table = table_for("thirteen_trio")
    users = [funded() for _ in range(3)]
    _seat_all(table, users)
    games = []
    for _ in range(3):
        hand = _play_out(hand_start_if_ready(table_id=table.pk), users)
        games.append(hand.state["game_in_set"])
        next_head = hand.result["next_head"]
        table.refresh_from_db()
        assert table.carry["engine"]["head"] == next_head
    assert games == [1, 2, 3]


def test_a_trio_player_who_leaves_mid_set_is_auto_played_to_its_end(funded, table_for):
    table = table_for("thirteen_trio")
    users = [funded() for _ in range(3)]
    _seat_all(table, users)
    _play_out(hand_start_if_ready(table_id=table.pk), users)  # game 1 of the set
    assert seating.seat_leave(table_id=table.pk, user=users[2]) is False  # stays until the set ends
    penalties = []
    for game in range(2, 7):
        hand = hand_start_if_ready(table_id=table.pk)
        assert hand is not None and len(hand.players) == 3 and hand.state["game_in_set"] == game
        assert hand.players[2]["user"] == users[2].pk
        hand = _play_out(hand, users[:2])  # the leaver never acts: it is auto-played on time
        penalties.append(hand.result["penalty"])
        if game < 6:
            assert Seat.objects.filter(table=table, user=users[2]).exists()
    charged = [p for p in penalties if p]
    assert len(charged) == 1 and charged[0]["seat"] == 2  # charged once, in the game it left
    assert not Seat.objects.filter(table=table, user=users[2]).exists()  # cashed out after the set
    assert selectors.table_money(user=users[2], table_ref=table.wallet_ref) == 0


def test_samgong_banker_keeps_the_bank_until_a_zero_point_hand(funded, table_for):
    table = table_for("samgong", "banker_bid")
    users = [funded() for _ in range(4)]
    _seat_all(table, users)
    for _ in range(4):
        hand = _play_out(hand_start_if_ready(table_id=table.pk), users)
        banker = hand.result["banker"]
        table.refresh_from_db()
        carry = table.carry["engine"]
        zero = hand.result["hands"][banker] == "point_0"
        assert carry["keep_bank"] is (not zero) or hand.result.get("banker_broke")


@pytest.mark.asyncio
async def test_the_lobby_socket_lists_tables_then_hears_the_changes_once_a_second(funded, table_for):
    import json

    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from tables.routing import websocket_urlpatterns

    table = await db(table_for)("thirteen")
    lobby = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    assert (await lobby.connect())[0]
    first = json.loads(await lobby.receive_from())
    assert first["type"] == "lobby" and table.pk in [t["id"] for t in first["tables"]]
    users = [await db(funded)() for _ in range(2)]
    for i, user in enumerate(users):
        await db(seating.seat_join)(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id=f"l{i}")
    assert await lobby.receive_nothing(0.3)  # two changes, nothing sent yet: the lobby hears once a second
    assert await db(lobby_publish)() >= 1  # the beat's task, every GAMES_LOBBY_EVERY seconds
    update = json.loads(await lobby.receive_from())
    assert update["type"] == "tables"
    summary = next(t for t in update["tables"] if t["id"] == table.pk)  # with any other table changed since
    assert [p["name"] for p in summary["players"]] == [u.shown_name for u in users]
    assert {0, 1}.isdisjoint(summary["free_seats"])
    assert await db(lobby_publish)() == 0 and await lobby.receive_nothing(0.3)  # nothing changed since
    await lobby.disconnect()


def test_lobby_api_lists_open_tables_with_free_seats(client, funded, table_for):
    table = table_for("thirteen")
    user = funded()
    seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="api")
    rows = client.get("/api/tables/?game=thirteen").json()
    row = next(r for r in rows if r["id"] == table.pk)
    assert row["free_seats"] == [1, 2, 3] and row["players"][0]["seat"] == 0
    levels = client.get("/api/stake-levels/?game=thirteen").json()
    assert [lv["unit"] for lv in levels] == [50, 100, 250, 500, 1000, 2000, 5000]


__all__ = ["cards_str", "parse_cards"]


def test_a_start_timer_set_before_a_deal_does_not_cut_the_next_showdown_pause_short(funded, table_for):
    from games.tasks import start_hand

    table = table_for("thirteen")
    users = [funded() for _ in range(2)]
    _seat_all(table, users)
    stale = Table.objects.get(pk=table.pk).hands_played  # a timer set by a join, before the deal
    _play_out(hand_start_if_ready(table_id=table.pk), users)
    start_hand(table.pk, stale)  # fires after the first hand already settled
    assert Hand.objects.filter(table=table).count() == 1
    start_hand(table.pk, Table.objects.get(pk=table.pk).hands_played)  # the settlement's own timer
    assert Hand.objects.filter(table=table).count() == 2


def test_with_no_showdown_pause_the_settled_hand_goes_out_before_the_next_deal(funded, table_for, settings,
                                                                               monkeypatch):
    """The next hand dealt at once (in the settling commit's wake) must not hide the result:
    every player is sent the settled hand, then the new one, in version order."""
    from games import broadcast

    settings.GAMES_NEXT_HAND_DELAY = 0
    sent: list = []
    monkeypatch.setattr(broadcast, "group_send", lambda *pairs, **_kw: sent.extend(pairs))
    table = table_for("thirteen")
    users = [funded() for _ in range(2)]
    _seat_all(table, users)
    first = hand_start_if_ready(table_id=table.pk)
    sent.clear()
    _play_out(first, users)
    frames = [frame for user, frame in sent_frames(sent) if user == users[0].pk]
    hands = [(f["hand"]["id"], f["hand"]["status"]) for f in frames]
    assert (first.pk, "settled") in hands
    nxt = Hand.objects.filter(table=table).exclude(pk=first.pk).get()  # dealt at once
    assert hands.index((first.pk, "settled")) < hands.index((nxt.pk, "active"))
    versions = [f["version"] for f in frames]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
