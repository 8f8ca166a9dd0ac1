"""Who may read and change what outside the Django admin: the API, the replay and dispute pages.

One rule for both: the API and the pages grant exactly what the admin grants. The admin lets in
active staff only, and then shows a model to those holding its ``view_`` or ``change_``
permission (a superuser holds every permission); the auditors group holds the ``view_``
permissions of the audited models (``accounts.roles``) and so reads everything and changes
nothing. Staff without a permission read, as players do, their own hands and disputes only.

* complete hand records (seeds, every card, the auditors' export, the chains):
  :func:`can_read_hands` — ``history.view_handrecord``;
* every dispute with the reviewers' internal notes: :func:`can_read_disputes` —
  ``disputes.view_dispute`` or ``disputes.change_dispute``;
* reviewing and resolving disputes: :func:`can_review_disputes` — ``disputes.change_dispute``,
  never an auditor (read-only by role).

The DRF permission classes below are the API's only ones besides DRF's ``AllowAny`` and
``IsAuthenticated``; ``tests/accounts/test_permissions.py`` walks every endpoint for every role.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from accounts.models import User
from accounts.roles import is_auditor

AnyUser = AbstractBaseUser | AnonymousUser

HAND_READ = ("history.view_handrecord", "history.change_handrecord")
DISPUTE_READ = ("disputes.view_dispute", "disputes.change_dispute")
DISPUTE_REVIEW = "disputes.change_dispute"


def is_admin_user(user: AnyUser) -> bool:
    """Whether the admin site lets ``user`` in at all: signed in, active, staff."""
    return bool(user.is_authenticated and user.is_active and getattr(user, "is_staff", False))


def _holds_any(user: AnyUser, perms: tuple[str, ...]) -> bool:
    return isinstance(user, User) and is_admin_user(user) and any(user.has_perm(perm) for perm in perms)


def can_read_hands(user: AnyUser) -> bool:
    """Complete hand records of every hand, as the admin's Hand records pages show them."""
    return _holds_any(user, HAND_READ)


def can_read_disputes(user: AnyUser) -> bool:
    """Every dispute with its whole log (reviewers' notes included), as the admin's Disputes pages."""
    return _holds_any(user, DISPUTE_READ)


def can_review_disputes(user: AnyUser) -> bool:
    """Take disputes under review, note and resolve them: staff who may change disputes, never an auditor."""
    return _holds_any(user, (DISPUTE_REVIEW,)) and not is_auditor(user)


class CanReadHands(BasePermission):
    """Reads of complete hand records; nobody writes through the history API."""

    message = _("Only auditors and staff allowed to view hand records may see this.")

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS and can_read_hands(request.user)


class CanReviewDisputes(BasePermission):
    message = _("Only staff who review disputes may change them.")

    def has_permission(self, request: Request, view: Any) -> bool:
        return can_review_disputes(request.user)
