"""Nobody, a superuser included, sees a hand's hidden cards or its server seed in admin before
the hand ends; once it is settled (or voided) its admin page shows everything.

Hidden, for every game without naming its fields: every list of the full engine state that
the public (spectator) view does not hold, every card the public view does not show, and the
server seed. Pages are fetched through Django's test client as a superuser."""

from __future__ import annotations

import datetime as dt
import html
import itertools
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.adapters import engine
from games.engine.cards import card_str
from games.models import Hand
from games.services.hands import hand_act, hand_expire, hand_start_if_ready
from games.services.seating import seat_join
from tests.factories import funded_user, table_at
from tests.games.live.helpers import cards_in

pytestmark = pytest.mark.django_db

CASES = [
    ("thirteen", "", 3),
    ("thirteen_trio", "", 3),
    ("samgong", "all_compare", 3),
    ("samgong", "banker_bid", 4),
    ("samgong", "banker_rotate", 4),
    ("samgong", "pairwise", 3),
    ("samgong", "house", 3),
]
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][shcd](?![A-Za-z0-9])")
PRE = re.compile(r"<pre[^>]*>(.*?)</pre>", re.S)
SVG = re.compile(r"<svg.*?</svg>", re.S)  # icon paths ("v2h-3") are no cards
_names = itertools.count(1)


def _lists(value: Any) -> set[str]:
    """Every list of two or more items nested in a JSON value, as canonical JSON."""
    found: set[str] = set()
    if isinstance(value, list):
        if len(value) >= 2:
            found.add(json.dumps(value, sort_keys=True))
        for item in value:
            found |= _lists(item)
    elif isinstance(value, dict):
        for item in value.values():
            found |= _lists(item)
    return found


def _shown_json(page: str) -> set[str]:
    """The lists inside every JSON block of an admin page."""
    shown: set[str] = set()
    for block in PRE.findall(page):
        shown |= _lists(json.loads(html.unescape(block)))
    return shown


def _hidden_cards(hand: Hand, public: dict[str, Any]) -> set[str]:
    return {card_str(card) for card in range(52)} - cards_in(public)


def _deal(game: str, mode: str, players: int) -> tuple[Hand, dict[int, User]]:
    table = table_at(game, mode, name=f"admin {game} {mode} {next(_names)}")
    level = table.stake_level
    users = {}
    for _ in range(players):
        user = funded_user(f"adm{next(_names)}", 50_000_000)
        seat_join(table_id=table.pk, user=user, buy_in=max(level.min_buy_in, 40 * level.unit), request_id="join")
        users[user.pk] = user
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    return hand, users


def _next_seat(hand: Hand) -> int | None:
    eng = engine(hand.game)
    return next((s for s in range(len(hand.players)) if eng.legal_actions(hand.state, s)), None)


def _step_would_finish(hand: Hand) -> bool:
    eng, seat = engine(hand.game), _next_seat(hand)
    if seat is None:
        assert hand.deadline is not None
        state, _events = eng.on_deadline(hand.state, now=hand.deadline.timestamp() + 1)
    else:
        state, _events = eng.apply(hand.state, seat, dict(eng.auto_action(hand.state, seat)), now=0)
    return eng.result(state) is not None


def _step(hand: Hand, users: dict[int, User], clock: Any) -> None:
    """One seat plays the server's own move, or the phase times out (the engine auto-plays)."""
    eng, seat = engine(hand.game), _next_seat(hand)
    if seat is None:
        assert hand.deadline is not None
        clock.move_to(max(hand.deadline, timezone.now()) + dt.timedelta(seconds=1), tick=False)
        hand_expire(hand_id=hand.pk, phase_seq=hand.phase_seq)
    else:
        user = users[hand.players[seat]["user"]]
        hand_act(table_id=hand.table_id, user=user, action=dict(eng.auto_action(hand.state, seat)))
    hand.refresh_from_db()


@pytest.fixture
def boss(client: Client) -> Client:
    client.force_login(User.objects.create_user(
        username="boss", password="x" * 12, is_staff=True, is_superuser=True, language="en"))
    return client


@pytest.mark.parametrize("game,mode,players", CASES)
def test_a_hand_in_play_shows_staff_only_what_a_spectator_sees(
    game: str, mode: str, players: int, boss: Client, time_machine: Any
) -> None:
    time_machine.move_to(timezone.now(), tick=False)
    hand, users = _deal(game, mode, players)
    _step(hand, users, time_machine)  # an action in the log (an arrangement carries cards)
    while not _step_would_finish(hand) and not any(
        engine(hand.game).view(hand.state, s)["seats"][s].get("cards") for s in range(len(hand.players))
    ):
        _step(hand, users, time_machine)  # until cards are dealt (三公 deals after the bets)
    assert hand.status == Hand.Status.ACTIVE
    public = engine(hand.game).view(hand.state, None)
    secret = _lists(hand.state) - _lists(public)
    assert secret, "the full state holds lists the spectators do not see (cards, the deck)"

    page = boss.get(reverse("admin:games_hand_change", args=[hand.pk])).content.decode()
    listing = boss.get(reverse("admin:games_hand_changelist")).content.decode()
    searched = boss.get(reverse("admin:games_hand_changelist"), {"q": hand.server_seed}).content.decode()

    for shown in (page, listing):
        assert hand.server_seed not in shown
        assert not set(CARD_TOKEN.findall(SVG.sub("", shown))) & _hidden_cards(hand, public)
    assert not _shown_json(page) & secret
    assert "hidden until the hand ends" in page
    change_url = reverse("admin:games_hand_change", args=[hand.pk])
    assert change_url in listing and change_url not in searched  # searching by the seed finds nothing
    assert "0 results" in searched

    while hand.status == Hand.Status.ACTIVE:
        _step(hand, users, time_machine)
    page = boss.get(reverse("admin:games_hand_change", args=[hand.pk])).content.decode()
    assert hand.server_seed in page
    assert _lists(hand.state) <= _shown_json(page)  # the complete state, cards and deck included
    assert "hidden until the hand ends" not in page
