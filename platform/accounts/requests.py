"""Request types for views only signed-in players reach (annotations: nothing changes at run time).

``LoginRequiredMixin`` (pages) and DRF's ``IsAuthenticated`` (the API default) turn anonymous
visitors away before the view runs, so there ``request.user`` is always a :class:`~accounts.models.User`.
"""

from __future__ import annotations

from django.http import HttpRequest
from rest_framework.request import Request

from accounts.models import User


class AuthenticatedHttpRequest(HttpRequest):
    """An ``HttpRequest`` past ``LoginRequiredMixin`` or ``login_required``."""

    user: User


class AuthenticatedRequest(Request):
    """A DRF ``Request`` past ``IsAuthenticated``."""

    user: User
