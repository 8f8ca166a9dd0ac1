"""People for the integrity tests: a case worker (may change cases, ban, void and confiscate) and
an auditor (the read-only group)."""

from __future__ import annotations

from itertools import count
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.db.models import Q

_names = count()


@pytest.fixture
def crew(db: Any) -> dict[str, Any]:
    from accounts.models import User
    from accounts.roles import roles_sync

    group = roles_sync()
    n = next(_names)
    worker = User.objects.create_user(username=f"worker{n}", password="x" * 12, is_staff=True)
    worker.user_permissions.set(Permission.objects.filter(
        Q(content_type__app_label="integrity", codename__in=["view_case", "change_case", "confiscate_coins"])
        | Q(content_type__app_label="operations", codename__in=["ban_player", "correct_table"])))
    auditor = User.objects.create_user(username=f"auditor{n}", password="x" * 12, is_staff=True)
    auditor.groups.add(group)
    return {"worker": User.objects.get(pk=worker.pk), "auditor": User.objects.get(pk=auditor.pk)}
