from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from accounts.roles import sync_roles_after_migrate  # reads models: once the app registry is ready

        post_migrate.connect(sync_roles_after_migrate, dispatch_uid="accounts.sync_roles")
