"""Errors a player can read. Consumers turn them into error frames, APIs into 400s."""

from __future__ import annotations

from kernel.errors import AppError


class PlayError(AppError):
    """A refused request; ``code`` is stable for clients, ``str(self)`` is the reason, as the
    service raised it (in the player's language where the service translates it)."""


class NotSeated(PlayError):
    code = "not_seated"


class TableFull(PlayError):
    code = "table_full"


class NoActiveHand(PlayError):
    code = "no_hand"
