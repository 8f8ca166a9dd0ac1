"""DRF permissions for the roles."""

from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from accounts.roles import is_auditor


class IsAuditorOrStaff(BasePermission):
    """Read-only access for the auditors group; staff may also read."""

    message = "Only auditors and staff may see this."

    def has_permission(self, request: Request, view: Any) -> bool:
        user = request.user
        if not user.is_authenticated:
            return False
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            return bool(user.is_superuser)
        return bool(user.is_superuser or is_auditor(user) or user.is_staff)
