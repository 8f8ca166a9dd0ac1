"""The platform's user model (custom from day one)."""

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(
        _("language"), max_length=10, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def __str__(self) -> str:
        return self.display_name or self.username

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username
