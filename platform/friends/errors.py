"""Refusals of friends' requests, blocks and invitations; nothing was changed."""

from __future__ import annotations

from kernel.errors import AppError


class FriendRefused(AppError):
    code = "friend_refused"
