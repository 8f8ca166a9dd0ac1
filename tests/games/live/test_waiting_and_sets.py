"""What a state frame says besides seats and hand (games/table_facts.py, docs/PROTOCOL.md): what
the table waits for, where the trio's set stands, and what leaving mid-set would cost — every
figure the engine's, in minor units, and nothing of anyone's cards."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.adapters import engine, engine_rules
from games.engine.cards import cards_str
from games.frames import frame_for, table_frames
from games.models import Hand
from games.services import seating
from games.services.hands import hand_start_if_ready
from tests.games.live.helpers import cards_in

pytestmark = pytest.mark.django_db(transaction=True)


def _sit(table, users, start: int = 0) -> None:
    for i, user in enumerate(users, start):
        seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in * 3, request_id=f"w{i}")


def test_a_banker_bid_table_with_three_players_says_it_needs_one_more_of_four(funded, table_for):
    table = table_for("samgong", "banker_bid")
    users = [funded() for _ in range(3)]
    _sit(table, users)
    assert hand_start_if_ready(table_id=table.pk) is None
    frame = frame_for(table.pk, users[0].pk)
    assert frame["hand"] is None
    assert frame["waiting"] == {"reason": "players", "ready": 3, "min": 4, "need": 1, "sitting_out": 0}
    assert frame["set"] is None and frame["leave"] is None
    seating.seat_sit_out(table_id=table.pk, user=users[1], out=True)
    assert frame_for(table.pk, None)["waiting"] == {"reason": "players", "ready": 2, "min": 4, "need": 2,
                                                   "sitting_out": 1}
    seating.seat_sit_out(table_id=table.pk, user=users[1], out=False)
    fourth = funded()
    _sit(table, [fourth], 3)
    assert frame_for(table.pk, None)["waiting"] == {"reason": "next_hand"}  # enough: the deal is due
    assert hand_start_if_ready(table_id=table.pk) is not None
    assert frame_for(table.pk, fourth.pk)["waiting"] is None


def test_after_a_hand_the_frame_says_when_the_showdown_pause_ends(funded, table_for, settings):
    from tests.factories import hand_play_out

    table = table_for("thirteen")
    users = [funded() for _ in range(2)]
    _sit(table, users)
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    hand = hand_play_out(hand, users)
    assert hand.status == Hand.Status.SETTLED and hand.finished_at is not None
    due = hand.finished_at.timestamp() + settings.GAMES_NEXT_HAND_DELAY
    for user in (users[0].pk, None):
        assert frame_for(table.pk, user)["waiting"] == {"reason": "next_hand", "at": due}
    private, public = table_frames(table.pk)
    assert public["waiting"]["at"] == private[users[1].pk]["waiting"]["at"] == due


def test_the_trio_frame_shows_the_set_and_the_leave_figures_from_the_engine(funded, table_for):
    table = table_for("thirteen_trio")
    users = [funded() for _ in range(3)]
    _sit(table, users)
    hand = hand_start_if_ready(table_id=table.pk)
    base = engine_rules(table.stake_level)["base"]
    private, public = table_frames(table.pk)
    assert public["set"] == {"game": 1, "size": 6, "in_play": True} and public["leave"] is None
    assert frame_for(table.pk, None)["leave"] is None
    me = private[users[1].pk]
    assert me["set"] == public["set"]
    assert me["leave"] == {"games_left": 6, "game": 1, "size": 6, "penalty": base // 2}
    assert isinstance(me["leave"]["penalty"], int) and me["leave"]["penalty"] > 0
    # nothing in the new parts shows a card: only the seat's own view holds its cards
    mine = set(hand.state["seats"][hand.seat_of(users[1].pk)]["cards"])
    others = {c for s in hand.state["seats"] for c in s["cards"]} - mine
    assert cards_in(json.loads(json.dumps(me))) & set(cards_str(sorted(others))) == set()
    assert cards_in({k: me[k] for k in ("waiting", "set", "leave")}) == set()

    assert seating.seat_leave(table_id=table.pk, user=users[1]) is False  # bound to the set
    after = frame_for(table.pk, users[1].pk)
    assert after["leave"] == {"games_left": 6, "game": 1, "size": 6, "penalty": 0}  # charged once already
    assert Hand.objects.get(pk=hand.pk).state["first_disconnect"] == hand.seat_of(users[1].pk)


def test_a_trio_table_between_sets_waits_for_a_third_player(funded, table_for):
    table = table_for("thirteen_trio")
    users = [funded() for _ in range(2)]
    _sit(table, users)
    frame = frame_for(table.pk, users[0].pk)
    assert frame["waiting"] == {"reason": "players", "ready": 2, "min": 3, "need": 1, "sitting_out": 0}
    assert frame["set"] == {"game": 1, "size": 6, "in_play": False} and frame["leave"] is None


def test_thirteen_has_no_set_and_leaving_binds_to_nothing(funded, table_for):
    table = table_for("thirteen")
    users = [funded() for _ in range(2)]
    _sit(table, users)
    hand_start_if_ready(table_id=table.pk)
    frame = frame_for(table.pk, users[0].pk)
    assert frame["set"] is None and frame["leave"] is None and frame["waiting"] is None


def test_the_lobby_gives_each_stake_level_its_players_from_the_engine(client, table_for):
    table_for("samgong", "banker_bid")
    levels = client.get(reverse("lobby")).context["lobby"]["levels"]
    by_mode = {(level["game"], level["mode"]): level["players"] for level in levels}
    assert by_mode[("samgong", "banker_bid")] == [4, 4]
    assert by_mode[("samgong", "all_compare")] == [2, 5]
    assert by_mode[("thirteen_trio", "")] == [3, 3]
    assert by_mode[("thirteen", "")] == [2, 4]


def test_the_table_page_carries_the_translated_rules_and_the_house_payouts(client, table_for):
    table = table_for("samgong", "house")
    client.cookies["django_language"] = "zh-hans"
    response = client.get(reverse("table", args=[table.pk]))
    text = response.content.decode()
    assert "和赔 8:1" in text and "边注（闲牌按三张扑克计）：同花顺 40:1，三条 30:1" in text
    config = response.context["config"]
    assert config["rules"]["payouts"] == {"player": [1], "banker": [1], "tie": [8], "sangong": [16],
                                          "side": [40, 30, 6, 3, 1]}
    assert "lines" not in config["rules"]
    assert engine(table.stake_level.game).rule_sheet(engine_rules(table.stake_level), 6)["payouts"] == \
        config["rules"]["payouts"]
