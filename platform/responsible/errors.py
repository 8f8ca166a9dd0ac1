"""Refusals of responsible play: a loss limit reached, or the player's self-exclusion."""

from __future__ import annotations

from kernel.errors import AppError


class LimitRefused(AppError):
    """A buy-in or top-up the player's own limits refuse (``loss_limit`` or ``self_excluded``)."""

    code = "loss_limit"


class SettingRefused(AppError):
    """A change of the settings that is not allowed (lifting a self-exclusion early)."""

    code = "setting_refused"
