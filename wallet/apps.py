from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class WalletConfig(AppConfig):
    name = "wallet"
    verbose_name = _("Wallet")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from wallet.services import house_accounts_ensure_after_migrate

        # After every migrate and every flush (tests), so postings can rely on HOUSE_IDS.
        post_migrate.connect(house_accounts_ensure_after_migrate, sender=self, dispatch_uid="wallet.house_accounts")
