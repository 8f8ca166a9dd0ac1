from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.names import name_clean

NAME_TAKEN = _("This name is already used by another player.")


def name_taken(name: str, *, exclude_pk: int | None = None) -> bool:
    """Whether ``name`` (as ``name_clean`` stores it) is, case aside, another user's display
    name, or the username another user without a display name is shown by."""
    others = User.objects.exclude(pk=exclude_pk) if exclude_pk else User.objects.all()
    lowered = name.lower()
    return (
        others.annotate(shown=Lower("display_name")).filter(shown=lowered).exists()
        or others.filter(display_name="", username__iexact=name).exists()
    )


class DisplayNameMixin(forms.ModelForm[User]):
    """Display names are stored cleaned (NFKC, trimmed) and must not be another player's."""

    def clean_display_name(self) -> str:
        name = name_clean(self.cleaned_data.get("display_name") or "")
        if name and name_taken(name, exclude_pk=self.instance.pk):
            raise forms.ValidationError(NAME_TAKEN, code="display_name_taken")
        return name


class SignUpForm(DisplayNameMixin, UserCreationForm):
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]  # inherited at run time; the stubs omit it
        model = User
        fields = ("username", "display_name", "language")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data
        username = data.get("username") or ""
        if username and not data.get("display_name") and name_taken(name_clean(username)):
            self.add_error("username", forms.ValidationError(NAME_TAKEN, code="display_name_taken"))
        return data


class ProfileForm(DisplayNameMixin):
    class Meta:
        model = User
        fields = ("display_name", "language")
