"""Shared fixtures."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest


@pytest.fixture
def make_user(db: Any) -> Callable[..., Any]:
    from accounts.models import User

    def make(username: str = "player", password: str = "s3cret-pass-word", **extra: Any) -> User:
        user = User.objects.create_user(username=username, password=password, **extra)
        return user

    return make


@pytest.fixture(autouse=True)
def fresh_limits(settings: Any) -> None:
    """Each test counts its own leases and limits (kernel.leases, games.services.limits): none left
    by another test, or by an earlier run in the same Redis, can fill a budget; no address told
    of its limit and no public frame kept by another test."""
    from games.public_frames import public_frames_forget
    from games.services.limits import refusals_forget

    settings.GAMES_LIMITS_PREFIX = f"test:{uuid.uuid4().hex}"
    refusals_forget()
    public_frames_forget()
