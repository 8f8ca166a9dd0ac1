from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.models import LoginThrottle, User
from accounts.services import login_throttle_reset


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (*(BaseUserAdmin.fieldsets or ()), (_("Profile"), {"fields": ("display_name", "language")}))
    list_display = ("username", "display_name", "language", "is_staff", "is_active", "date_joined")
    list_filter = ("is_staff", "is_superuser", "is_active", "groups", "language")
    search_fields = ("username", "display_name", "email")


@admin.register(LoginThrottle)
class LoginThrottleAdmin(admin.ModelAdmin[LoginThrottle]):
    """Failed log-ins per username (accounts.services); staff may lift a lock, nothing else."""

    list_display = ("username_key", "failures", "window_started", "locked_until")
    search_fields = ("username_key",)
    readonly_fields = ("username_key", "failures", "window_started", "locked_until")
    actions = ["lift"]

    @admin.action(description=_("Lift the log-in lock"))
    def lift(self, request: HttpRequest, queryset: QuerySet[LoginThrottle]) -> None:
        for throttle in queryset:
            login_throttle_reset(username=throttle.username_key)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: LoginThrottle | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: LoginThrottle | None = None) -> bool:
        return False
