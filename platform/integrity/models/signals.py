"""The integrity signals as stored aggregates (docs/INTEGRITY.md), brought up to date from the
hand records by ``integrity.services.signals`` in batches as hands settle; the pages read them
as stored. Sums of squares are statistics of the per-hand figures (the tests' denominators)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class SignalCursor(models.Model):
    """The last hand record the signals have taken in (one row, ``name="signals"``)."""

    name = models.CharField(max_length=20, unique=True)
    record_id = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.name} @ {self.record_id}"


class PairSignal(models.Model):
    """Two players (``a`` the lower id) over every settled hand they sat in together."""

    class Flag(models.TextChoices):
        FLOW = "flow", _("coins flow one way")
        GIFT = "gift", _("play below the cards pays the other")
        INFO = "info", _("play above the cards against the others")
        TABLES = "tables", _("together at several tables at once")
        FAVOUR = "favour", _("play below the cards favours one player")
        BETS = "bets", _("bets against the cards when the other banks")

    a = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                          verbose_name=_("player"))
    b = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                          verbose_name=_("other player"))
    hands = models.PositiveIntegerField(_("hands together"), default=0)
    #: Coins (minor units) ``b`` paid ``a`` by the game's own flows, less what ``a`` paid ``b``.
    flow_net = models.BigIntegerField(_("net flow"), default=0)
    flow_sq = models.BigIntegerField(default=0)
    #: What ``b``'s play below its cards' worth paid ``a``, less the same of ``a`` to ``b``.
    gift_net = models.BigIntegerField(_("net gift"), default=0)
    gift_sq = models.BigIntegerField(default=0)
    #: What the pair's play above their cards' worth took from the other seats.
    info_hands = models.PositiveIntegerField(_("hands with other players"), default=0)
    info_net = models.BigIntegerField(_("taken from the others"), default=0)
    info_sq = models.BigIntegerField(default=0)
    #: What ``a``'s play below its cards gave ``b`` beyond what it gave the other seats (over the
    #: ``info_hands``), and the same of ``b`` to ``a``.
    favour_ab_net = models.BigIntegerField(_("player's play favouring the other"), default=0)
    favour_ab_sq = models.BigIntegerField(default=0)
    favour_ba_net = models.BigIntegerField(_("other player's play favouring the player"), default=0)
    favour_ba_sq = models.BigIntegerField(default=0)
    #: How ``a``'s bets leaned against its cards in the hands ``b`` banked, and ``b``'s with ``a``.
    bet_ab_hands = models.PositiveIntegerField(_("hands the other player banked"), default=0)
    bet_ab_net = models.BigIntegerField(default=0)
    bet_ab_sq = models.BigIntegerField(default=0)
    bet_ba_hands = models.PositiveIntegerField(_("hands the player banked"), default=0)
    bet_ba_net = models.BigIntegerField(default=0)
    bet_ba_sq = models.BigIntegerField(default=0)
    tables_at_once = models.PositiveSmallIntegerField(_("most tables at once"), default=1)
    first_at = models.DateTimeField(_("first hand"))
    last_at = models.DateTimeField(_("last hand"))
    flags = models.JSONField(_("flags"), default=list, blank=True)
    flagged_at = models.DateTimeField(_("flagged"), null=True, blank=True)
    flagged_hand_id = models.BigIntegerField(_("flagged at hand"), null=True, blank=True)

    class Meta:
        verbose_name = _("pair signal")
        verbose_name_plural = _("pair signals")
        constraints = [
            models.UniqueConstraint(fields=["a", "b"], name="integrity_pair_once"),
            models.CheckConstraint(condition=Q(a__lt=F("b")), name="integrity_pair_ordered"),
            models.CheckConstraint(condition=Q(flow_sq__gte=0, gift_sq__gte=0, info_sq__gte=0),
                                   name="integrity_pair_squares"),
            models.CheckConstraint(condition=Q(favour_ab_sq__gte=0, favour_ba_sq__gte=0, bet_ab_sq__gte=0,
                                               bet_ba_sq__gte=0), name="integrity_pair_lean_squares"),
        ]
        indexes = [models.Index(fields=["b"]), models.Index(fields=["-flagged_at"])]

    def __str__(self) -> str:
        return f"{self.a_id} · {self.b_id}"

    def flag_labels(self) -> list[str]:
        """The pair's flags as their reasons, in the active language."""
        labels = dict(self.Flag.choices)
        return [str(labels.get(code, code)) for code in self.flags]


class PairTable(models.Model):
    """When a pair last sat in a hand together at one table: how many tables they share at once."""

    a = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table_id = models.BigIntegerField()
    hands = models.PositiveIntegerField(default=0)
    first_at = models.DateTimeField()
    last_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["a", "b", "table_id"], name="integrity_pair_table_once"),
            models.CheckConstraint(condition=Q(a__lt=F("b")), name="integrity_pair_table_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.a_id} · {self.b_id} @ {self.table_id}"


class PlayerSignal(models.Model):
    """One player at one stake level: hands, fouls, hands with an automatic move, and play
    against what their own cards were worth."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("player"))
    stake_level = models.ForeignKey("tables.StakeLevel", on_delete=models.CASCADE, related_name="+",
                                    verbose_name=_("stake level"))
    hands = models.PositiveIntegerField(_("hands"), default=0)
    fouls = models.PositiveIntegerField(_("fouls"), default=0)
    autos = models.PositiveIntegerField(_("automatic play"), default=0)
    coins = models.BigIntegerField(_("net coins"), default=0)
    commission = models.BigIntegerField(_("commission paid"), default=0)
    worth_hands = models.PositiveIntegerField(_("hands valued"), default=0)
    play_net = models.BigIntegerField(_("play against the cards"), default=0)
    play_sq = models.BigIntegerField(default=0)
    #: How the player's bets leaned against its cards, with any banker (``bet_lean``).
    bet_hands = models.PositiveIntegerField(_("bets on seen cards"), default=0)
    bet_net = models.BigIntegerField(_("bets against the cards"), default=0)
    bet_sq = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = _("player signal")
        verbose_name_plural = _("player signals")
        constraints = [
            models.UniqueConstraint(fields=["user", "stake_level"], name="integrity_player_level_once"),
            models.CheckConstraint(condition=Q(fouls__lte=F("hands"), autos__lte=F("hands"),
                                               worth_hands__lte=F("hands"), commission__gte=0),
                                   name="integrity_player_counts"),
            models.CheckConstraint(condition=Q(bet_hands__lte=F("hands"), bet_sq__gte=0),
                                   name="integrity_player_bets"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} @ {self.stake_level_id}"
