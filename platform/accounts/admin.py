from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from accounts.forms import StaffUserForm
from accounts.models import Footprint, LoginThrottle, User, user_name_key
from accounts.selectors import accounts_linked
from accounts.services import login_throttle_reset
from operations.models import StaffAction
from operations.trail import staff_act

#: The admin is headed by the site's own name, in the staff member's language.
admin.site.site_header = _("Card Tables administration")
admin.site.site_title = _("Card Tables administration")


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    form = StaffUserForm
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        (_("Profile"), {"fields": ("display_name", "language")}),
        (_("Sign-up"), {"fields": ("signed_up_from", "linked_accounts")}),
        (_("Staff trail"), {"fields": ("staff_reason",)}),
    )
    readonly_fields = ("signed_up_from", "linked_accounts")
    list_display = ("username", "display_name", "language", "is_staff", "is_active", "date_joined")
    list_filter = ("is_staff", "is_superuser", "is_active", "groups", "language")
    search_fields = ("username", "display_name", "email")

    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        """Staff editing a display name keep its name key with it (``User.name_key``)."""
        if change:
            form.trail_before = _powers(User.objects.get(pk=obj.pk))
        obj.name_key = user_name_key(display_name=obj.display_name)
        super().save_model(request, obj, form, change)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """Once roles and permissions are saved too: a change of the account's standing or powers
        is one row of the staff trail, with the values before and after and the reason."""
        super().save_related(request, form, formsets, change)
        before = getattr(form, "trail_before", None)
        after = _powers(form.instance)
        if before is None or before == after or not isinstance(request.user, User):
            return
        changed = sorted(k for k in after if before[k] != after[k])
        staff_act(actor=request.user, kind=StaffAction.Kind.ACCOUNT, reason=form.cleaned_data.get("staff_reason", ""),
                  target_user=form.instance, subject_type="user", subject_id=form.instance.pk,
                  before={k: before[k] for k in changed}, after={k: after[k] for k in changed})

    @admin.display(description=_("signed up from"))
    def signed_up_from(self, obj: User) -> str:
        footprint = Footprint.objects.filter(user=obj).first()
        if footprint is None:
            return "—"
        return _("address %(address)s, browser %(browser)s; welcome coins: %(welcome)s") % {
            "address": footprint.address, "browser": footprint.browser[:8] or "—",
            "welcome": footprint.get_welcome_display()}

    @admin.display(description=_("linked accounts"))
    def linked_accounts(self, obj: User) -> str:
        """Accounts signed up in the same browser or from the same address, and why."""
        now = timezone.now()
        links = accounts_linked(user=obj)
        if not links:
            return str(_("None."))
        return format_html_join(
            mark_safe("<br>"), '<a href="{}">{}</a> ({})',  # noqa: S308 - a constant separator
            ((reverse("admin:accounts_user_change", args=[link.user.pk]), link.user.username, link.why(now))
             for link in links),
        )


def _powers(user: User) -> dict[str, Any]:
    """What the staff trail keeps of an account's standing and powers (``POWER_FIELDS``)."""
    return {
        "is_active": user.is_active, "is_staff": user.is_staff, "is_superuser": user.is_superuser,
        "groups": sorted(user.groups.values_list("name", flat=True)),
        "user_permissions": sorted(f"{app}.{code}" for app, code in
                                   user.user_permissions.values_list("content_type__app_label", "codename")),
    }


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
