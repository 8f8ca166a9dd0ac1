"""The daily bonus's terms: one row staff edit in admin (docs/WALLET.md "Daily bonus").

The claims themselves are ledger transactions (kind ``daily_bonus``), one per player and day by
their idempotency key: the ledger is the record, and its unique key the once-a-day rule."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

#: 3,000.00 coins: the minimum buy-in of the lowest stake level of every game as shipped (三人十三支's),
#: so a player who claims the bonus can sit down at any game.
DAILY_BONUS_AMOUNT_DEFAULT = 300_000
#: A player holding less than this (wallet and table money) may claim: 3,000.00 coins, the same.
DAILY_BONUS_FLOOR_DEFAULT = 300_000


class DailyBonus(models.Model):
    """What a player short of coins may claim once a day: ``amount``, when their wallet and
    table money together hold less than ``floor``; an amount of 0 switches the bonus off."""

    amount = models.PositiveBigIntegerField(
        _("daily bonus (minor units)"), default=DAILY_BONUS_AMOUNT_DEFAULT,
        help_text=_("Given once a day to a player short of coins, in minor units (100 = 1.00 coin); 0 gives nothing."),
    )
    floor = models.PositiveBigIntegerField(
        _("floor (minor units)"), default=DAILY_BONUS_FLOOR_DEFAULT,
        help_text=_("A player may claim while their wallet and table money hold less than this."),
    )
    updated_at = models.DateTimeField(_("changed"), auto_now=True)

    class Meta:
        verbose_name = _("daily bonus")
        verbose_name_plural = _("daily bonus")
        constraints = [models.CheckConstraint(condition=Q(id=1), name="rewards_daily_bonus_one_row")]

    def __str__(self) -> str:
        return str(_("Daily bonus"))

    @classmethod
    def current(cls) -> DailyBonus:
        """The one row, created with the defaults on first use."""
        row, _created = cls.objects.get_or_create(pk=1)
        return row
