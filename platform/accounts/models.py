"""The platform's user model (custom from day one)."""

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    # Stored as accounts.names.name_clean makes it (NFKC, trimmed); unique without regard to case,
    # so no player can take the name another is known by at the tables.
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(
        _("language"), max_length=10, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints = [
            models.UniqueConstraint(
                Lower("display_name"),
                condition=~models.Q(display_name=""),
                name="accounts_user_display_name_ci_unique",
                violation_error_code="display_name_taken",
                violation_error_message=_("This name is already used by another player."),
            ),
        ]

    def __str__(self) -> str:
        return self.display_name or self.username

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username


class LoginThrottle(models.Model):
    """Failed log-ins of one username from every address together (credential stuffing).

    Written by ``accounts.services`` only. The failures of a window are counted; reaching the
    limit locks the username until ``locked_until`` and starts a new window after it. Failures
    while it is locked are refused before any password is checked and do not count, so an
    attacker cannot keep a real user out for longer than one cool-off per round of guesses.
    """

    username_key = models.CharField(max_length=150, unique=True)
    window_started = models.DateTimeField()
    failures = models.PositiveIntegerField(default=0)
    locked_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("log-in throttle")
        verbose_name_plural = _("log-in throttles")

    def __str__(self) -> str:
        return self.username_key
