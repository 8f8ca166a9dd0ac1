"""The friends page and the lobby's friends panel (friends.views): every action is a form post
that goes back with what happened, or one clear reason why not."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from friends.models import Block, Friendship

pytestmark = pytest.mark.django_db


def _signed_in(name: str, display: str) -> tuple[User, Client]:
    user = User.objects.create_user(username=name, password="x" * 12, display_name=display, language="en")
    client = Client()
    client.force_login(user)
    return user, client


def test_add_accept_remove_and_block_through_the_pages() -> None:
    ann, ann_client = _signed_in("ann", "Ann")
    bo, bo_client = _signed_in("bo", "Bo")
    page = reverse("friends:friends")
    sent = ann_client.post(reverse("friends:request"), {"name": "Bo", "next": page}, follow=True)
    assert "Friend request sent." in sent.content.decode()
    incoming = bo_client.get(page).content.decode()
    assert 'data-testid="friend-incoming"' in incoming and "Ann" in incoming
    row = Friendship.objects.get()
    accepted = bo_client.post(reverse("friends:accept", args=[row.pk]), {"next": page}, follow=True).content.decode()
    assert "You are friends now." in accepted and 'data-testid="friend-name">Ann<' in accepted
    lobby = ann_client.get(reverse("lobby")).content.decode()
    assert 'data-testid="friends-panel"' in lobby and 'data-testid="friend-name">Bo<' in lobby
    assert 'data-testid="friend-invite"' not in lobby  # ann sits at no table
    ann_client.post(reverse("friends:remove", args=[bo.pk]))
    assert not Friendship.objects.exists()
    blocked = bo_client.post(reverse("friends:block-name"), {"name": "Ann"}, follow=True).content.decode()
    assert "Blocked" in blocked and Block.objects.filter(blocker=bo, blocked=ann).exists()
    refused = ann_client.post(reverse("friends:request"), {"name": "Bo"}, follow=True).content.decode()
    assert "No player is called Bo." in refused and not Friendship.objects.exists()


def test_the_panel_fragment_is_the_players_own_list() -> None:
    _ann, client = _signed_in("ann", "Ann")
    fragment = client.get(reverse("friends:panel"), {"next": "/lobby/"}).content.decode()
    assert 'data-testid="friend-list"' in fragment and 'data-testid="friends-none"' in fragment
    assert client.get(reverse("friends:panel"), {"next": "https://evil.example/"}).status_code == 200


def test_the_pages_need_a_log_in() -> None:
    client = Client()
    assert client.get(reverse("friends:friends")).status_code == 302
    assert client.post(reverse("friends:request"), {"name": "x"}).status_code == 302
    assert 'data-testid="friends-panel"' not in client.get(reverse("lobby")).content.decode()
