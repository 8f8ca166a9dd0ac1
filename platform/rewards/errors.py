"""Refusals of the daily bonus, each with its reason's code (``rewards.selectors.REFUSALS``)."""

from __future__ import annotations

from kernel.errors import AppError


class BonusRefused(AppError):
    """A claim the player may not make now; nothing was posted."""

    code = "bonus_refused"
