"""People for the operations tests: a player, a staff member with the staff-action
permissions, an auditor (the read-only group) and a staff member with no permission at all."""

from collections.abc import Iterator
from itertools import count
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.utils import translation

_names = count()


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield


@pytest.fixture
def people(db: Any) -> dict[str, Any]:
    from django.conf import settings

    from accounts.models import User
    from accounts.roles import roles_sync

    roles_sync()
    n = next(_names)
    player = User.objects.create_user(username=f"player{n}", password="x" * 12)
    staff = User.objects.create_user(username=f"staff{n}", password="x" * 12, is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(
        content_type__app_label="operations",
        codename__in=["grant_coins", "correct_table", "close_table", "ban_player", "view_staffaction",
                      "view_dashboard"],
    ))
    bare = User.objects.create_user(username=f"bare{n}", password="x" * 12, is_staff=True)
    auditor = User.objects.create_user(username=f"auditor{n}", password="x" * 12, is_staff=True)
    auditor.groups.add(Group.objects.get(name=settings.AUDITORS_GROUP))
    return {"player": player, "staff": staff, "bare": bare, "auditor": auditor}
