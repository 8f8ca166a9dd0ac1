from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DisputesConfig(AppConfig):
    name = "disputes"
    verbose_name = _("Disputes")
