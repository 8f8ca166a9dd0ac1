"""Load demo data idempotently: an admin, demo players with coins, an auditor."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.demo import demo_fund_players
from accounts.models import User
from accounts.roles import roles_sync

DEMO_PASSWORD = "demo-pass-2026"  # noqa: S105 - published demo logins, printed by make run
ADMIN = ("admin", "管理员")
AUDITOR = ("auditor", "审计员")
PLAYERS = (("alice", "阿丽"), ("bob", "阿宝"), ("carol", "小凯"), ("dave", "大伟"), ("erin", "小恩"), ("frank", "阿发"))


def _user(username: str, display_name: str, **flags: bool) -> User:
    user, created = User.objects.get_or_create(username=username, defaults={"display_name": display_name, **flags})
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save(update_fields=["password"])
    return user


class Command(BaseCommand):
    help = "Create the demo accounts (idempotent) and print their logins."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        _user(*ADMIN, is_staff=True, is_superuser=True)
        auditor = _user(*AUDITOR, is_staff=True)
        auditors: Group = roles_sync()
        auditor.groups.add(auditors)
        players = [_user(name, shown) for name, shown in PLAYERS]
        demo_fund_players(players)
        names = ", ".join(p.username for p in players)
        self.stdout.write(f"Demo logins (password {DEMO_PASSWORD}): admin (staff), auditor, players {names}")
