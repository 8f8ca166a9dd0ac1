from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = _("Tables")

    def ready(self) -> None:
        """Tell the ledger audit whose table money this app keeps: every seat's, at its table's
        ``wallet_ref`` (the wallet itself knows nothing of tables)."""
        # Models, and what reads them, import once the app registry is ready (AppConfig.ready).
        from tables.models import WALLET_REF_PREFIX
        from tables.selectors import seat_holders
        from wallet.audit import escrow_owner_register

        escrow_owner_register(prefix=WALLET_REF_PREFIX, holders=seat_holders)
