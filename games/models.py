"""Live-play state: one row per hand (the engine state, its version and its deadline) and
the log of every action applied to it. The database row is the truth; timers and
broadcasts are derived from it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Hand(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("in play")
        SETTLED = "settled", _("settled")
        VOIDED = "voided", _("voided")

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="hands", verbose_name=_("table"))
    number = models.PositiveIntegerField(_("hand number"))
    game = models.CharField(_("game"), max_length=20)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    state = models.JSONField()
    #: +1 on every change of ``state``; every frame carries it.
    version = models.PositiveIntegerField(default=1)
    #: The engine's phase sequence number: timers carry it and do nothing once it moved on.
    phase_seq = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    #: Hand seat index -> {"user": id, "seat": table seat index, "name": shown name}.
    players = models.JSONField()
    # Actions logged so far (the next one's seq is this + 1), kept on the row the action saves anyway.
    action_count = models.PositiveIntegerField(default=0)
    # Users dealt in who have left the table: a phase waiting only on them ends at once.
    leavers = models.JSONField(default=list, blank=True)
    server_seed = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    client_seeds = models.JSONField(default=list, blank=True)
    rules = models.JSONField()
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    ledger_transaction_id = models.BigIntegerField(_("ledger transaction"), null=True, blank=True)
    result = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ("-id",)
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        indexes = [
            # The house dashboard joins the ledger's commission entries to their hands.
            models.Index(fields=["ledger_transaction_id"], name="hand_ledger_transaction",
                         include=["table", "finished_at"]),
        ]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_unique_number"),
            models.UniqueConstraint(
                fields=["table"], condition=models.Q(status="active"), name="hand_one_active_per_table"
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(table)s · hand %(number)s") % {"table": self.table, "number": self.number}

    def seat_of(self, user_id: int) -> int | None:
        for index, player in enumerate(self.players):
            if player["user"] == user_id:
                return index
        return None


class HandAction(models.Model):
    """Every action applied to a hand, with its time and whether it was automatic."""

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.SmallIntegerField(null=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    action = models.JSONField()
    # NULL (not "") for server actions: the unique constraint below ignores them.
    client_id = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    auto = models.BooleanField(default=False)
    at = models.DateTimeField(auto_now_add=True)
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ("hand", "seq")
        verbose_name = _("hand action")
        verbose_name_plural = _("hand actions")
        constraints = [
            models.UniqueConstraint(fields=["hand", "seq"], name="hand_action_unique_seq"),
            models.UniqueConstraint(
                fields=["hand", "user", "client_id"], condition=models.Q(client_id__isnull=False),
                name="hand_action_unique_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"hand {self.hand_id} action {self.seq}"


class Clock(models.Model):
    """A single row the sweeper ticks: a gap between ticks means the platform was down, and
    deadlines that passed during the gap are extended rather than enforced."""

    name = models.CharField(max_length=20, unique=True)
    last_tick = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} @ {self.last_tick:%Y-%m-%d %H:%M:%S}"


class ClientRequest(models.Model):
    """A client request id a user has spent, with the reply it got (docs/PROTOCOL.md "Ids").

    Written in the same transaction as the request's effect, so an id has at most one effect:
    the unique constraint refuses a second row even to a concurrent request at another table.
    The sweeper deletes rows older than GAMES_CLIENT_ID_RETENTION."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    client_id = models.CharField(max_length=64)
    type = models.CharField(max_length=16)
    #: SHA-256 of the request's canonical JSON (type, table and fields): the same id for
    #: another request is told apart from a resend.
    fingerprint = models.CharField(max_length=64)
    reply = models.JSONField()
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "client_id"], name="client_request_unique_id"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.client_id} ({self.type})"


class Repair(models.Model):
    """Something the liveness watchdog had to put right (``games.services.watchdog``): a phase
    past its deadline whose timer never fired, a table that should have dealt, a hand that could
    not advance (voided, stakes returned), a broadcast that never went out. Each row says why;
    ``/healthz`` counts the last hour's by kind. A live room in good health writes none."""

    class Kind(models.TextChoices):
        LOST_TIMER = "lost_timer", _("phase past its deadline")
        MISSED_DEAL = "missed_deal", _("table that should have dealt")
        STUCK_HAND = "stuck_hand", _("hand that could not advance, voided")
        MISSED_BROADCAST = "missed_broadcast", _("state not broadcast")

    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    cause = models.CharField(_("cause"), max_length=300)
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, null=True, related_name="+")
    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ("-at",)
        verbose_name = _("watchdog repair")
        verbose_name_plural = _("watchdog repairs")

    def __str__(self) -> str:
        return f"{self.kind} @ {self.at:%Y-%m-%d %H:%M:%S}"
