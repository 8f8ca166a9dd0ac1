"""Admin building blocks shared by the apps."""

from typing import Any


class ReadOnlyAdminMixin:
    """View only, for everyone: rows that change only through the services (ledger entries,
    hands) are never added, changed or deleted by hand in admin."""

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False
