"""Integrity signals: the figures against an independent sum of the records' seats, a seeded
dumping pair flagged, honest play not, and who may see the pages."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone

from games.adapters import engine
from games.engine.cards import cards_str
from games.models import Hand
from games.services import seating
from games.services.hands import hand_act, hand_start_if_ready
from history.models import HandRecordSeat
from integrity import selectors
from integrity.services.signals import signals_update
from tests.factories import funded_user, table_at


def _foul(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Rows in the wrong order (the three highest cards in front, the lowest five at the back):
    a foul unless the deal makes it a legal arrangement."""
    cards = sorted(state["seats"][seat]["cards"], key=lambda c: (c % 13 if isinstance(c, int) else 0), reverse=True)
    return {"type": "arrange", "front": cards_str(cards[:3]), "middle": cards_str(cards[3:8]),
            "back": cards_str(cards[8:])}


def _play(table: Any, users: list[Any], hands: int, dumper: Any = None) -> None:
    by_id = {u.pk: u for u in users}
    eng = engine("thirteen")
    for _ in range(hands):
        hand = hand_start_if_ready(table_id=table.pk)
        assert hand is not None
        for _step in range(10):
            hand.refresh_from_db()
            if hand.status != Hand.Status.ACTIVE:
                break
            seat = next(s for s in range(len(hand.players)) if eng.legal_actions(hand.state, s))
            user = by_id[hand.players[seat]["user"]]
            action = _foul(hand.state, seat) if user == dumper else dict(eng.auto_action(hand.state, seat))
            assert hand_act(table_id=table.pk, user=user, action=action)["status"] == "applied"


def _table(names: list[str]) -> tuple[Any, list[Any]]:
    table = table_at("thirteen")
    users = [funded_user(n, 10_000_000) for n in names]
    for i, u in enumerate(users):
        seating.seat_join(table_id=table.pk, user=u, buy_in=table.stake_level.min_buy_in * 5, request_id=f"j{n}{i}"
                          if (n := u.username) else "")
    return table, users


@pytest.mark.django_db
def test_pair_figures_equal_an_independent_netting_of_the_records_seats() -> None:
    table, users = _table(["ann", "bob", "cat"])
    _play(table, users, 6)
    expected: dict[tuple[int, int], list[int]] = defaultdict(list)
    by_record: dict[int, list[HandRecordSeat]] = defaultdict(list)
    for s in HandRecordSeat.objects.all():
        by_record[s.record_id].append(s)
    for seats in by_record.values():
        won = sum(s.coins for s in seats if s.coins > 0)
        for x in seats:
            for y in seats:
                if x.user_id < y.user_id:
                    flow = 0
                    if x.coins > 0 > y.coins:
                        flow = x.coins * -y.coins // won
                    elif y.coins > 0 > x.coins:
                        flow = -(y.coins * -x.coins // won)
                    expected[(x.user_id, y.user_id)].append(flow)
    got = {(p.a, p.b): p for p in selectors.pair_signals()}
    assert set(got) == set(expected) and len(got) == 3
    for key, flows in expected.items():
        assert (got[key].hands, got[key].net, got[key].squares) == (6, sum(flows), sum(f * f for f in flows))
    hands = selectors.pair_hands(a=users[0].pk, b=users[1].pk)
    assert len(hands) == 6
    assert sum(h["flow"] for h in hands) == got[(users[0].pk, users[1].pk)].net


@pytest.mark.django_db
def test_a_two_seat_flow_is_what_one_player_paid_the_other() -> None:
    table, users = _table(["dan", "eve"])
    _play(table, users, 3)
    a, b = users[0].pk, users[1].pk
    for hand in selectors.pair_hands(a=a, b=b):
        coins = dict(HandRecordSeat.objects.filter(record__hand_id=hand["hand"]).values_list("user_id", "coins"))
        # What the loser lost, all of it to the winner (the winner's coins are less the commission).
        paid_by_b = -coins[b] if coins[b] < 0 else coins[a] if coins[a] < 0 else 0
        assert hand["flow"] == paid_by_b


@pytest.mark.django_db
def test_a_partner_who_fouls_on_purpose_is_flagged_and_honest_players_are_not() -> None:
    honest_table, honest = _table(["h1", "h2", "h3", "h4"])
    _play(honest_table, honest, selectors.MIN_HANDS)
    assert selectors.pair_flagged() == []
    # The dumper fouls every hand (losing to everyone), so its partner's share stays positive.
    two, two_users = _table(["dump2", "mate2"])
    _play(two, two_users, selectors.MIN_HANDS, dumper=two_users[0])
    flagged = selectors.pair_flagged()
    assert [(p.payer, p.receiver) for p in flagged] == [("dump2", "mate2")]
    players = {r.name: r for r in selectors.player_signals()}
    assert players["dump2"].fouls >= selectors.MIN_HANDS // 2 and players["dump2"].marked
    assert players["mate2"].fouls == 0 and not players["mate2"].marked
    assert players["h1"].fouls == 0 and players["h1"].autos == 0 and players["h1"].hands == selectors.MIN_HANDS


@pytest.fixture
def people(db: Any) -> dict[str, Any]:
    from accounts.models import User
    from accounts.roles import roles_sync

    roles_sync()
    auditor = User.objects.create_user(username="aud", password="x" * 12, is_staff=True)
    auditor.groups.add(Group.objects.get(name=settings.AUDITORS_GROUP))
    return {
        "player": User.objects.create_user(username="pl", password="x" * 12),
        "bare": User.objects.create_user(username="bare", password="x" * 12, is_staff=True),
        "auditor": auditor,
        "staff": User.objects.create_superuser(username="boss", password="x" * 12),
    }


@pytest.mark.parametrize("page", ["integrity:pairs", "integrity:players"])
def test_only_auditors_and_staff_see_the_integrity_pages(client: Any, people: dict[str, Any], page: str) -> None:
    table, users = _table(["p1", "p2"])
    _play(table, users, 1)
    signals_update(settled_before=timezone.now() + timedelta(hours=1))  # what the beat runs
    url = reverse(page)
    assert client.get(url).status_code == 302  # anonymous: the admin's log-in
    client.force_login(people["player"])
    response = client.get(url)
    assert response.status_code == 302 and b"p1" not in response.content
    client.force_login(people["bare"])
    assert client.get(url).status_code == 403
    for who in ("auditor", "staff"):
        client.force_login(people[who])
        response = client.get(url)
        assert response.status_code == 200 and b"p1" in response.content


def test_the_pair_page_links_every_hand_to_its_history_page(client: Any, people: dict[str, Any]) -> None:
    table, users = _table(["q1", "q2"])
    _play(table, users, 2)
    client.force_login(people["auditor"])
    response = client.get(reverse("integrity:pair", args=[users[0].pk, users[1].pk]))
    assert response.status_code == 200
    for s in HandRecordSeat.objects.filter(user=users[0]).select_related("record"):
        assert reverse("history-hand", args=[s.record.hand_id]).encode() in response.content
