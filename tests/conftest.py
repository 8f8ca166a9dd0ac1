"""Shared fixtures."""

from __future__ import annotations

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
