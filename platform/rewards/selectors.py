"""Reads of the daily bonus: whether a player may claim it now, and if not, why and until when
(docs/WALLET.md "Daily bonus")."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts.models import User
from responsible.selectors import player_barred
from rewards.models import DailyBonus
from wallet.models import LedgerTransaction, daily_bonus_key
from wallet.money import format_coins
from wallet.selectors import wallet_holdings

#: Why a player may not claim now, as they read it (``%(next)s``: when they may next claim;
#: ``%(floor)s``: the floor in coins).
REFUSALS: dict[str, str] = {
    "off": gettext_noop("There is no daily bonus at the moment."),
    "banned": gettext_noop("This account is banned."),
    "self_excluded": gettext_noop("You have excluded yourself from play: no daily bonus until the exclusion ends."),
    "cooling_off": gettext_noop("You are taking a break from play: no daily bonus until the break ends."),
    "claimed": gettext_noop("You have claimed today's bonus. The next one is yours from %(next)s."),
    "enough": gettext_noop("The daily bonus is for players holding less than %(floor)s coins."),
}


@dataclass(frozen=True)
class BonusStatus:
    """The daily bonus as one player sees it at one moment."""

    amount: int
    floor: int
    day: dt.date
    next_at: dt.datetime  # the start of the platform's next calendar day
    reason: str | None  # None: the player may claim now; else a key of REFUSALS

    @property
    def eligible(self) -> bool:
        return self.reason is None

    def message(self) -> str:
        """Why the player may not claim, in the active language ("" when they may)."""
        if self.reason is None:
            return ""
        when = date_format(timezone.localtime(self.next_at, timezone.get_default_timezone()), "DATETIME_FORMAT")
        return _(REFUSALS[self.reason]) % {"next": when, "floor": format_coins(self.floor, grouping=True)}


def bonus_day(*, now: dt.datetime) -> tuple[dt.date, dt.datetime]:
    """The platform's calendar day at ``now`` (settings.TIME_ZONE, whatever the player's) and
    when the next one begins."""
    zone = timezone.get_default_timezone()
    day = timezone.localtime(now, zone).date()
    next_at = dt.datetime.combine(day + dt.timedelta(days=1), dt.time.min, tzinfo=zone)
    return day, next_at


def daily_bonus_status(*, user: User, now: dt.datetime) -> BonusStatus:
    """Whether ``user`` may claim the daily bonus at ``now``: the bonus is on, the player may
    play (not banned, self-excluded or cooling off; read fresh), has not claimed it this
    platform day, and holds less than the floor in wallet and table money together."""
    terms = DailyBonus.current()
    day, next_at = bonus_day(now=now)
    fresh = User.objects.select_related("play_limits").get(pk=user.pk)
    reason = "off" if terms.amount <= 0 else player_barred(user=fresh, now=now)
    key = daily_bonus_key(user.pk, day.isoformat())
    if reason is None and LedgerTransaction.objects.filter(idempotency_key=key).exists():
        reason = "claimed"
    if reason is None and wallet_holdings(user=user) >= terms.floor:
        reason = "enough"
    return BonusStatus(amount=terms.amount, floor=terms.floor, day=day, next_at=next_at, reason=reason)
