"""Roles: players (everyone), staff (Django admin) and the read-only ``auditors`` group.

Staff and auditors do not play: a staff account holds a seat only in the ``players`` group
(``settings.PLAYERS_GROUP``, no permissions; ``games.services.seating`` asks
``accounts.selectors.account_standing``).

Auditors are staff accounts whose only permissions are the ``view_*`` permissions of the
models listed in :data:`AUDITOR_VIEW_MODELS`, so Django admin shows them everything read-only.
Apps that add auditable models (hands, ledger, disputes) add them to this list.
"""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig, apps
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, Permission
from django.contrib.contenttypes.models import ContentType

from accounts.models import User

AUDITOR_VIEW_MODELS: tuple[str, ...] = (
    "accounts.user",
    "wallet.account",
    "wallet.ledgertransaction",
    "wallet.entry",
    "wallet.welcomegrant",
    "tables.stakelevel",
    "tables.table",
    "history.handrecord",
    "disputes.dispute",
    "disputes.disputeevent",
    "operations.staffaction",
    "operations.approvalrequest",
    "responsible.limitchange",
    "responsible.limitrefusal",
    "integrity.case",
    "integrity.casenote",
    "integrity.caseaction",
)


def is_auditor(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Whether a signed-in user is in the auditors group (an anonymous visitor never is)."""
    if not isinstance(user, User):  # AnonymousUser
        return False
    return user.groups.filter(name=settings.AUDITORS_GROUP).exists()


def auditor_permissions() -> list[Permission]:
    """The view permissions of every installed model in AUDITOR_VIEW_MODELS."""
    perms: list[Permission] = []
    for label in AUDITOR_VIEW_MODELS:
        app_label, model_name = label.split(".")
        try:
            model = apps.get_model(app_label, model_name)
        except LookupError:
            continue  # the app is not installed (yet)
        ctype = ContentType.objects.get_for_model(model)
        perms.extend(Permission.objects.filter(content_type=ctype, codename=f"view_{model_name}"))
    return perms


def roles_sync() -> Group:
    """Create the auditors group and give it exactly the view permissions, and the players group
    (idempotent)."""
    Group.objects.get_or_create(name=settings.PLAYERS_GROUP)
    group, _ = Group.objects.get_or_create(name=settings.AUDITORS_GROUP)
    group.permissions.set(auditor_permissions())
    return group


def sync_roles_after_migrate(sender: Any, **kwargs: Any) -> None:
    """post_migrate is sent once per app with models, in INSTALLED_APPS order, each after that
    app's permissions are made: the roles name permissions of every app, so they are synced once,
    after the last app (a flush sends the signal too)."""
    if sender is _last_app_with_models():
        roles_sync()


def _last_app_with_models() -> AppConfig:
    return [config for config in apps.get_app_configs() if config.models_module is not None][-1]
