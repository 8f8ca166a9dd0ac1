"""Friends and blocks (docs/FRIENDS.md).

A friendship begins as a request one player sends and the other accepts; one row holds it, from
the sender to the receiver, pending until accepted. A pair of players has at most one row,
whoever sent it (a unique index on the pair, smaller id first). A block is one player's, alone:
it ends any friendship or request between the two, and the blocked player cannot send the
blocker a request or an invitation."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Greatest, Least
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Friendship(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("request sent")
        ACCEPTED = "accepted", _("friends")

    from_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                                  verbose_name=_("sent by"))
    to_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                                verbose_name=_("sent to"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(_("sent"), default=timezone.now)
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        indexes = [models.Index(fields=["to_user", "status"], name="friends_to_user_status")]
        constraints = [
            models.CheckConstraint(condition=~Q(from_user=F("to_user")), name="friends_not_self"),
            models.CheckConstraint(condition=Q(status__in=["pending", "accepted"]), name="friends_status_known"),
            models.CheckConstraint(
                condition=Q(status="pending", accepted_at__isnull=True)
                | Q(status="accepted", accepted_at__isnull=False),
                name="friends_accepted_when",
            ),
            models.UniqueConstraint(Least("from_user", "to_user"), Greatest("from_user", "to_user"),
                                    name="friends_one_row_per_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.from_user_id} → {self.to_user_id} ({self.status})"


class Block(models.Model):
    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                                verbose_name=_("blocked by"))
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                                verbose_name=_("blocked player"))
    created_at = models.DateTimeField(_("blocked"), default=timezone.now)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="friends_block_not_self"),
            models.UniqueConstraint(fields=["blocker", "blocked"], name="friends_block_once"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} ⊘ {self.blocked_id}"
