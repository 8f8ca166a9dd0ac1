from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.models import User


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]  # inherited at run time; the stubs omit it
        model = User
        fields = ("username", "display_name", "language")


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "language")
