"""The platform's user model (custom from day one)."""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.names import name_key


def user_name_key(*, display_name: str) -> str | None:
    """The key of a display name (``accounts.names.name_key``), None for none. A player without
    one is shown by their username; the forms compare those (``accounts.forms.name_taken``)."""
    return name_key(display_name) if display_name else None


class PlayerManager(UserManager["User"]):
    """``create_user`` and ``create_superuser`` store the name key with the account."""

    def create_user(self, username: str, email: str | None = None, password: str | None = None,
                    **extra_fields: Any) -> User:
        extra_fields["name_key"] = user_name_key(display_name=extra_fields.get("display_name", ""))
        return super().create_user(username, email, password, **extra_fields)

    def create_superuser(self, username: str, email: str | None = None, password: str | None = None,
                         **extra_fields: Any) -> User:
        extra_fields["name_key"] = user_name_key(display_name=extra_fields.get("display_name", ""))
        return super().create_superuser(username, email, password, **extra_fields)


class User(AbstractUser):
    # Stored as accounts.names.name_clean makes it (NFKC, trimmed); its name_key is unique, so no
    # player can take the name another is known by at the tables.
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(
        _("language"), max_length=10, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    # user_name_key of the display name, unique: the database itself refuses a second player whose
    # display name reads the same (case, width, look-alike letters aside). Written by the forms,
    # the admin and create_user; NULL without a display name, or for rows written around them.
    name_key = models.TextField(_("name key"), null=True, blank=True, unique=True, editable=False,
                                error_messages={"unique": _("This name is already used by another player.")})

    objects: ClassVar[PlayerManager] = PlayerManager()

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

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


class Footprint(models.Model):
    """Where an account was made: the client address (``kernel.client_ip``) and the browser
    (the site's long-lived signed cookie, ``accounts.browser``) of its sign-up, and what became of
    its welcome coins. Sign-up limits count these rows; staff see accounts sharing a browser or an
    address as linked (``accounts.selectors.accounts_linked``). Written by ``accounts.services``."""

    class Welcome(models.TextChoices):
        GRANTED = "granted", _("given")
        OFF = "off", _("switched off")
        ADDRESS_LIMIT = "address_limit", _("refused: welcome limit of the address")
        BROWSER_LIMIT = "browser_limit", _("refused: welcome limit of the browser")
        LINKED = "linked", _("refused: linked to a self-excluded or banned account")

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="footprint")
    address = models.CharField(_("address"), max_length=45, db_index=True)
    browser = models.CharField(_("browser"), max_length=64, blank=True, db_index=True)
    welcome = models.CharField(_("welcome coins"), max_length=16, choices=Welcome.choices)
    created_at = models.DateTimeField(_("signed up"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("sign-up footprint")
        verbose_name_plural = _("sign-up footprints")

    def __str__(self) -> str:
        return f"{self.user} {self.address} {self.browser[:8]}"
