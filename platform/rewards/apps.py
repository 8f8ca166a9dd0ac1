from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RewardsConfig(AppConfig):
    name = "rewards"
    verbose_name = _("Rewards")
