from typing import Any

from django import forms
from django.contrib.auth.forms import UserChangeForm, UserCreationForm
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from accounts.models import User, user_name_key
from accounts.names import name_clean, name_key, name_problem

NAME_TAKEN = _("This name is already used by another player.")


def name_taken(name: str, *, exclude_pk: int | None = None) -> bool:
    """Whether ``name`` reads as (``accounts.names.name_key``) the name another player is shown
    by: their display name, or the username of a player without one."""
    others = User.objects.exclude(pk=exclude_pk) if exclude_pk else User.objects.all()
    lowered = name.lower()
    return (
        others.filter(name_key=name_key(name)).exists()
        or others.annotate(shown=Lower("display_name")).filter(shown=lowered).exists()
        or others.filter(display_name="", username__iexact=name).exists()
    )


def display_name_checked(raw: str, *, user: User) -> str:
    """``raw`` cleaned for ``user``'s display name, or a ValidationError saying why it may not be."""
    problem = name_problem(raw)
    if problem:
        raise forms.ValidationError(problem, code="display_name_refused")
    name = name_clean(raw)
    if name and name_taken(name, exclude_pk=user.pk):
        raise forms.ValidationError(NAME_TAKEN, code="display_name_taken")
    return name


class DisplayNameMixin(forms.ModelForm[User]):
    """Display names are stored cleaned (NFKC, trimmed), refused when they hide characters or mix
    look-alike scripts, and must not read as another player's name; the account's name key is
    saved with it (the database refuses a taken one, ``User.name_key``)."""

    def clean_display_name(self) -> str:
        return display_name_checked(self.cleaned_data.get("display_name") or "", user=self.instance)

    def save(self, commit: bool = True) -> User:
        user = self.instance
        user.name_key = user_name_key(display_name=user.display_name)
        return super().save(commit=commit)


class SignUpForm(DisplayNameMixin, UserCreationForm):
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]  # inherited at run time; the stubs omit it
        model = User
        fields = ("username", "display_name", "language")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data
        username = data.get("username") or ""
        if username and not data.get("display_name") and "display_name" not in self.errors:
            problem = name_problem(username)
            if problem:
                self.add_error("username", forms.ValidationError(problem, code="display_name_refused"))
            elif name_taken(name_clean(username)):
                self.add_error("username", forms.ValidationError(NAME_TAKEN, code="display_name_taken"))
        return data


class ProfileForm(DisplayNameMixin):
    class Meta:
        model = User
        fields = ("display_name", "language")

    def clean(self) -> dict[str, Any]:
        """Clearing the display name shows the username, which must not be another player's name."""
        data = super().clean() or self.cleaned_data
        if "display_name" in data and not data["display_name"] and name_taken(
                name_clean(self.instance.username), exclude_pk=self.instance.pk):
            self.add_error("display_name", forms.ValidationError(NAME_TAKEN, code="display_name_taken"))
        return data


#: The fields of an account whose change is a staff act the staff trail keeps, with a reason.
POWER_FIELDS = ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")


class StaffUserForm(UserChangeForm[User]):
    """The admin's change form: a display name staff set passes the players' checks; a change
    of the account's standing or powers (``POWER_FIELDS``) needs a reason, for the staff trail."""

    staff_reason = forms.CharField(
        label=_("reason for this edit"), required=False, max_length=500, widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Required when the account is activated or deactivated, or its roles or permissions change."),
    )

    class Meta(UserChangeForm.Meta):  # type: ignore[name-defined]  # inherited at run time; the stubs omit it
        model = User
        fields = "__all__"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if any(name in self.changed_data for name in POWER_FIELDS) and not (data.get("staff_reason") or "").strip():
            self.add_error("staff_reason", _("A reason is required."))
        return data

    def clean_display_name(self) -> str:
        return display_name_checked(self.cleaned_data.get("display_name") or "", user=self.instance)
