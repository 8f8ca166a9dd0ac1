"""Private rooms and watchers in the chaos run and the stall hunt (bench/harness/rooms.py,
watcher.py, checks.py): a bot opens a room through the pages and the others enter its code; the
watchers' check passes every frame a watcher is sent and catches a seat's cards in one."""

from __future__ import annotations

from typing import Any

import pytest

from bench.harness import checks
from bench.harness.fleet import TablePlan, is_room, rooms_default, session_for
from bench.harness.rooms import http_url, owner_request, room_enter, room_open
from bench.harness.watcher import watchers_open
from games.adapters import player_limits
from games.frames import frame_for
from games.models import Hand
from games.services.hands import hand_start_if_ready
from games.services.seating import seat_join
from tables.models import RoomPass, Table
from tests.factories import ensure_stake_levels, funded_user, table_at

GAMES = [("thirteen", ""), ("thirteen_trio", ""), ("samgong", "all_compare"), ("samgong", "banker_bid"),
         ("samgong", "house")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("game", "mode"), GAMES)
def test_the_watchers_check_passes_the_public_frame_and_catches_a_seat_s_cards(game: str, mode: str) -> None:
    table = table_at(game, mode)
    players = [funded_user(f"w{game}{mode}{i}", 10_000_000) for i in range(player_limits(table.stake_level)[1])]
    for i, user in enumerate(players):
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in * 3, request_id=f"w-{i}")
    assert Hand.objects.filter(table=table, status=Hand.Status.ACTIVE).exists() or hand_start_if_ready(
        table_id=table.pk) is not None
    public = frame_for(table.pk, None)
    assert public["hand"]["status"] == "active" and checks.watcher_frame_problems(public) == []
    assert any("seated" in p for p in checks.watcher_frame_problems(frame_for(table.pk, players[0].pk)))
    seat = public["hand"]["view"]["seats"][1]
    cards = seat["cards"]  # every card of the seat face up, as a leak would show them
    seat["cards"] = ["As"] * len(cards) if isinstance(cards, list) and len(cards) > 2 else ["As"] * 13
    assert any("shows seat 1" in p for p in checks.watcher_frame_problems(public))


def test_a_room_s_owner_starts_it_once_enough_players_sit_and_closes_it_winding_down() -> None:
    frame: dict[str, Any] = {"you": 0, "closed": False, "room": {"code": "K7M2QP", "owner": 1, "started": False},
                             "waiting": {"reason": "room_start", "ready": 1, "min": 2}}
    assert owner_request(frame, stopping=False) is None  # too few players
    frame["waiting"]["ready"] = 2
    assert owner_request(frame, stopping=False) == "room_start"
    assert owner_request({**frame, "room": {**frame["room"], "started": True}}, stopping=False) is None
    assert owner_request(frame, stopping=True) == "room_close"
    assert owner_request({**frame, "closed": True}, stopping=True) is None
    assert owner_request({**frame, "room": None}, stopping=True) is None  # a public table


def test_a_third_of_the_tables_are_rooms_spread_evenly() -> None:
    assert rooms_default(1) == 0 and rooms_default(2) == 1 and rooms_default(8) == 2 and rooms_default(20) == 6
    for tables, rooms in ((8, 2), (20, 6), (3, 1), (5, 5)):
        assert sum(is_room(t, tables, rooms) for t in range(tables)) == rooms


def test_a_bot_opens_a_room_through_the_pages_and_the_others_enter_its_code(server: Any) -> None:
    ensure_stake_levels()
    owner, guest, watcher = (funded_user(name, 10_000_000) for name in ("ro", "rg", "rw"))
    level = table_at("samgong", "all_compare").stake_level
    table_id, code = room_open(base=http_url(server.url), session=session_for(owner), level_id=level.pk)
    room = Table.objects.get(pk=table_id)
    assert room.room_owner_id == owner.pk and room.room_code == code
    assert room_enter(base=http_url(server.url), session=session_for(guest), code=code.lower()) == table_id
    assert RoomPass.objects.filter(table=room, user=guest, removed_at__isnull=True).exists()
    plan = [TablePlan(table_id, "samgong", "all_compare", level.min_buy_in, [], room_code=code)]
    watchers = watchers_open(plan, 1, [server.url])
    assert [(w.table_id, w.room) for w in watchers] == [(table_id, True)]
    assert RoomPass.objects.filter(table=room, user__username="watcher-001").exists()  # entered the code
    assert watcher.pk  # a player with no pass is not let in: the table's own tests say so
