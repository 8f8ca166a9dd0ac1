"""django-axes (the log-in limits, docs/SECURITY.md) under a name staff read in their language:
its app would otherwise head the admin as "Axes"."""

from __future__ import annotations

from axes.apps import AppConfig as AxesAppConfig
from django.utils.translation import gettext_lazy as _


class LoginAttemptsConfig(AxesAppConfig):
    verbose_name = _("Log-in attempts")
