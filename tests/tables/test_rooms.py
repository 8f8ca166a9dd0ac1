"""Private rooms' own writes and reads (platform/tables/rooms.py): codes, opening, entering by
code, invitations, passes, and the sweeper's bookkeeping of empty rooms."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from accounts.models import User
from tables import rooms
from tables.models import RoomPass, Seat, StakeLevel, Table
from tables.rooms import CODE_ALPHABET, CODE_LENGTH, RoomError, room_code_clean
from tables.selectors import table_list_by_ids, table_list_open
from tables.services import table_find_or_create_free
from tests.factories import ensure_stake_levels, funded_user

_names = itertools.count(1)
pytestmark = pytest.mark.django_db
#: Codes are pure text: no database, many examples, none slow to shrink.
PURE = examples(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.function_scoped_fixture])


def _user(name: str | None = None, **fields: Any) -> User:
    name = name or f"r{next(_names)}"
    return funded_user(name, 1_000_000, display_name=fields.pop("display_name", name.title()), **fields)


def _level(game: str = "thirteen", mode: str = "") -> StakeLevel:
    ensure_stake_levels()
    level = StakeLevel.objects.filter(game=game, mode=mode).order_by("unit").first()
    assert level is not None
    return level


# --- codes -----------------------------------------------------------------------------------

def test_a_new_code_is_six_letters_of_the_unambiguous_alphabet() -> None:
    for _ in range(200):
        code = rooms.room_code_new()
        assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
    assert not set("0O1IL") & set(CODE_ALPHABET)


@PURE
@given(code=st.text(alphabet=CODE_ALPHABET, min_size=CODE_LENGTH, max_size=CODE_LENGTH),
       case=st.lists(st.booleans(), min_size=CODE_LENGTH, max_size=CODE_LENGTH),
       gaps=st.lists(st.sampled_from(["", " ", "-", "  "]), min_size=CODE_LENGTH, max_size=CODE_LENGTH))
def test_a_code_is_entered_in_any_case_with_spaces_or_dashes(code: str, case: list[bool], gaps: list[str]) -> None:
    typed = "".join(g + (c.lower() if low else c) for c, low, g in zip(code, case, gaps, strict=True))
    assert room_code_clean(f" {typed} ") == code


@PURE
@given(text=st.text(max_size=12))
def test_nothing_but_a_code_is_taken_for_one(text: str) -> None:
    clean = room_code_clean(text)
    assert clean is None or (len(clean) == CODE_LENGTH and set(clean) <= set(CODE_ALPHABET))


@pytest.mark.parametrize("typed", ["ABC2O4", "ABC214", "ABCDE", "ABCDEFG", "ABCDI3", ""])
def test_ambiguous_or_short_codes_are_no_codes(typed: str) -> None:
    assert room_code_clean(typed) is None


# --- opening ---------------------------------------------------------------------------------

def test_opening_a_room_makes_a_private_table_owned_and_not_started() -> None:
    owner = _user()
    table = rooms.room_open(owner=owner, level_id=_level().pk)
    assert table.is_room and table.room_owner_id == owner.pk and table.room_started_at is None
    assert room_code_clean(str(table.room_code)) == table.room_code
    assert RoomPass.objects.filter(table=table, user=owner, via=RoomPass.Via.OWNER).exists()
    assert rooms.rooms_open_count() == 1


def test_a_room_is_in_no_public_list_and_play_never_picks_it() -> None:
    level = _level()
    room = rooms.room_open(owner=_user(), level_id=level.pk)
    assert room not in table_list_open()
    assert list(table_list_by_ids([room.pk])) == []
    picked = table_find_or_create_free(level=level)
    assert picked.pk != room.pk and not picked.is_room


def test_a_player_owns_at_most_the_setting_s_rooms(settings: Any) -> None:
    settings.ROOMS_PER_OWNER = 2
    owner, level = _user(), _level()
    for _ in range(2):
        rooms.room_open(owner=owner, level_id=level.pk)
    with pytest.raises(RoomError) as refused:
        rooms.room_open(owner=owner, level_id=level.pk)
    assert refused.value.code == "too_many_rooms"


def test_an_inactive_stake_level_opens_no_room() -> None:
    level = _level()
    StakeLevel.objects.filter(pk=level.pk).update(active=False)
    with pytest.raises(RoomError) as refused:
        rooms.room_open(owner=_user(), level_id=level.pk)
    assert refused.value.code == "no_level"


def test_the_database_refuses_two_open_rooms_with_one_code_and_a_code_without_owner() -> None:
    level, owner = _level(), _user()
    Table.objects.create(stake_level=level, name="a", room_code="ABCDEF", room_owner=owner)
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(stake_level=level, name="b", room_code="ABCDEF", room_owner=owner)
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(stake_level=level, name="c", room_code="ABCDEG")
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(stake_level=level, name="d", room_started_at=timezone.now())


def test_a_closed_room_s_code_may_be_given_again() -> None:
    level, owner = _level(), _user()
    Table.objects.create(stake_level=level, name="a", room_code="ABCDEF", room_owner=owner, status=Table.Status.CLOSED)
    Table.objects.create(stake_level=level, name="b", room_code="ABCDEF", room_owner=owner)


# --- entering and passes ---------------------------------------------------------------------

def test_the_code_lets_a_player_in_in_any_case() -> None:
    room = rooms.room_open(owner=_user(), level_id=_level().pk)
    guest = _user()
    assert not rooms.room_allowed(table=room, user_id=guest.pk)
    assert rooms.room_access(table_id=room.pk, user_id=guest.pk) == "private"
    entered = rooms.room_enter(code=f" {str(room.room_code).lower()[:3]} {str(room.room_code).lower()[3:]}", user=guest)
    assert entered.pk == room.pk
    assert rooms.room_allowed(table=room, user_id=guest.pk)
    assert rooms.room_access(table_id=room.pk, user_id=guest.pk) == "allowed"
    assert rooms.room_access(table_id=room.pk, user_id=None) == "private"


def test_a_public_table_is_open_to_all_and_a_missing_one_is_missing() -> None:
    table = Table.objects.create(stake_level=_level(), name="public")
    assert rooms.room_access(table_id=table.pk, user_id=None) == "public"
    assert rooms.room_access(table_id=table.pk + 1000, user_id=None) == "missing"


def test_a_wrong_or_closed_room_s_code_is_refused() -> None:
    room = rooms.room_open(owner=_user(), level_id=_level().pk)
    with pytest.raises(RoomError) as refused:
        rooms.room_enter(code="ZZZZZZ" if room.room_code != "ZZZZZZ" else "YYYYYY", user=_user())
    assert refused.value.code == "no_room"
    Table.objects.filter(pk=room.pk).update(status=Table.Status.CLOSED)
    with pytest.raises(RoomError):
        rooms.room_enter(code=str(room.room_code), user=_user())


def test_a_removed_player_is_kept_out_by_the_code_and_let_back_in_by_the_owner_s_invitation() -> None:
    owner, guest = _user(), _user()
    room = rooms.room_open(owner=owner, level_id=_level().pk)
    rooms.room_enter(code=str(room.room_code), user=guest)
    rooms.room_pass_remove(table_id=room.pk, user_id=guest.pk)
    assert not rooms.room_allowed(table=room, user_id=guest.pk)
    with pytest.raises(RoomError) as refused:
        rooms.room_enter(code=str(room.room_code), user=guest)
    assert refused.value.code == "room_removed"
    rooms.room_invite(room_id=room.pk, inviter=owner, invitee=guest)
    assert rooms.room_allowed(table=room, user_id=guest.pk)


# --- invitations -----------------------------------------------------------------------------

def test_the_owner_invites_by_name_and_the_invitee_sees_it_until_opening_the_room() -> None:
    owner, guest = _user(), _user(display_name="Mei Lin")
    room = rooms.room_open(owner=owner, level_id=_level().pk)
    found = rooms.user_by_shown_name(name="ｍｅｉ　ＬＩＮ")  # width and case aside
    assert found is not None and found.pk == guest.pk
    rooms.room_invite(room_id=room.pk, inviter=owner, invitee=guest)
    [invitation] = rooms.room_invitations(user=guest)
    assert invitation.table_id == room.pk and invitation.code == room.room_code
    assert invitation.inviter == owner.shown_name
    rooms.room_seen(table=room, user=guest)
    assert rooms.room_invitations(user=guest) == []


def test_a_seated_player_may_invite_and_a_stranger_may_not() -> None:
    owner, seated, stranger, guest = _user(), _user(), _user(), _user()
    room = rooms.room_open(owner=owner, level_id=_level().pk)
    Seat.objects.create(table=room, index=0, user=seated)
    rooms.room_invite(room_id=room.pk, inviter=seated, invitee=guest)
    with pytest.raises(RoomError) as refused:
        rooms.room_invite(room_id=room.pk, inviter=stranger, invitee=_user())
    assert refused.value.code == "not_allowed"


def test_nobody_invites_themselves_the_owner_or_a_blocker(monkeypatch: pytest.MonkeyPatch) -> None:
    owner, guest = _user(), _user()
    room = rooms.room_open(owner=owner, level_id=_level().pk)
    with pytest.raises(RoomError):
        rooms.room_invite(room_id=room.pk, inviter=owner, invitee=owner)
    monkeypatch.setattr(rooms, "invite_blocked", lambda *, inviter, invitee: invitee.pk == guest.pk)
    with pytest.raises(RoomError) as refused:
        rooms.room_invite(room_id=room.pk, inviter=owner, invitee=guest)
    assert refused.value.code == "invite_refused"
    assert not rooms.room_allowed(table=room, user_id=guest.pk)


def test_nothing_blocks_an_invitation_until_the_friends_list_says_so() -> None:
    assert rooms.invite_blocked(inviter=_user(), invitee=_user()) is False


def test_invitations_are_limited_per_minute(settings: Any) -> None:
    settings.ROOMS_INVITES_PER_MINUTE = 3
    owner = _user()
    room = rooms.room_open(owner=owner, level_id=_level().pk)
    for _ in range(3):
        rooms.room_invite(room_id=room.pk, inviter=owner, invitee=_user())
    with pytest.raises(RoomError) as refused:
        rooms.room_invite(room_id=room.pk, inviter=owner, invitee=_user())
    assert refused.value.code == "rate_limited"


# --- empty rooms -----------------------------------------------------------------------------

def test_a_room_is_due_to_close_once_empty_for_the_setting(settings: Any) -> None:
    settings.ROOMS_CLOSE_EMPTY_AFTER = 600
    owner = _user()
    room = rooms.room_open(owner=owner, level_id=_level().pk)
    Table.objects.filter(pk=room.pk).update(room_empty_since=None)
    now = timezone.now()
    assert rooms.rooms_empty_mark(now=now) == []  # found empty: from now
    assert rooms.rooms_empty_mark(now=now + timedelta(seconds=599)) == []
    Seat.objects.create(table=room, index=0, user=owner)
    assert rooms.rooms_empty_mark(now=now + timedelta(seconds=700)) == []  # a seat: not empty
    Table.objects.get(pk=room.pk).seat_set.all().delete()
    later = now + timedelta(seconds=800)
    assert rooms.rooms_empty_mark(now=later) == []  # empty again, from then
    assert rooms.rooms_empty_mark(now=later + timedelta(seconds=600)) == [room.pk]


# --- pages -----------------------------------------------------------------------------------

def test_the_room_pages_open_a_room_and_let_a_code_holder_in() -> None:
    owner, guest = _user(), _user()
    level = _level()
    client = Client()
    client.force_login(owner)
    opened = client.post(reverse("room-open"), {"level": level.pk})
    room = Table.objects.get(room_owner=owner)
    assert opened.status_code == 302 and opened["Location"] == reverse("table", args=[room.pk])
    other = Client()
    other.force_login(guest)
    assert other.get(reverse("table", args=[room.pk])).status_code == 403
    entered = other.get(reverse("room-enter-form"), {"code": str(room.room_code).lower()})
    assert entered.status_code == 302 and entered["Location"] == reverse("table", args=[room.pk])
    assert other.get(reverse("table", args=[room.pk])).status_code == 200
    assert other.get(reverse("room-enter", args=["NOPE22"])).status_code == 404
    assert Client().get(reverse("table", args=[room.pk])).status_code == 302  # signed out: log in first


@pytest.mark.parametrize(("language", "heading"), [("en", "Room"), ("zh-hans", "房间"), ("zh-hant", "房間")])
def test_a_room_s_page_is_headed_by_its_code_with_the_control_that_copies_its_link(language: str, heading: str) -> None:
    owner = _user(language=language)
    room = rooms.room_open(owner=owner, level_id=_level().pk)
    client = Client()
    client.force_login(owner)
    page = client.get(reverse("table", args=[room.pk])).content.decode()
    assert f'<h1 data-testid="table-heading">{heading} {room.room_code}</h1>' in page
    assert f"{heading} {room.room_code}" in page.split("<title>")[1].split("</title>")[0]
    assert 'data-testid="room-copy"' in page and f"/rooms/{room.room_code}/" in page


def test_the_lobby_lists_no_room_and_shows_the_invitations() -> None:
    owner, guest = _user(), _user()
    room = rooms.room_open(owner=owner, level_id=_level().pk)
    rooms.room_invite(room_id=room.pk, inviter=owner, invitee=guest)
    client = Client()
    client.force_login(guest)
    page = client.get(reverse("lobby"))
    lobby = page.context["lobby"]
    assert all(t["id"] != room.pk for t in lobby["tables"])
    assert [i["table"] for i in lobby["invites"]] == [room.pk]
    assert b'data-testid="room-code-input"' in page.content
