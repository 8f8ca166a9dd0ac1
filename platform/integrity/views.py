"""Auditor-facing integrity pages inside Django admin (read-only; staff and auditors only)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.roles import is_auditor
from integrity import profiles, selectors

PERIODS = (7, 30, 90, 365)
#: The longest period a page may ask for (a hundred years): ``?days=`` past it means all of it.
MAX_DAYS = 36_500


def period_days(raw: str) -> int | None:
    """``?days=`` as a period: a positive whole number of days up to :data:`MAX_DAYS`; anything
    else (empty, zero, negative, not a number) means all time.

    >>> period_days("30"), period_days("10" * 20), period_days("-5"), period_days("x")
    (30, 36500, None, None)
    """
    try:
        days = int(raw)
    except ValueError:
        return None
    return min(days, MAX_DAYS) if days > 0 else None


def may_see_integrity(user: Any) -> bool:
    """Active staff who are superusers, auditors, or may view hand records or cases."""
    return bool(user.is_active and user.is_staff and (
        user.is_superuser or is_auditor(user) or user.has_perm("history.view_handrecord")
        or user.has_perm("integrity.view_case")))


def _context(request: HttpRequest, title: str) -> dict[str, Any]:
    if not may_see_integrity(request.user):
        raise PermissionDenied
    days = period_days(request.GET.get("days", ""))
    return {**admin.site.each_context(request), "title": title, "days": days, "periods": PERIODS,
            "min_hands": selectors.MIN_HANDS, "z_flag": selectors.Z_FLAG, "z_player": selectors.Z_PLAYER}


def pairs_view(request: HttpRequest) -> HttpResponse:
    context = _context(request, _("Integrity: pairs of players"))
    days = context["days"]
    context["pairs"] = selectors.pair_signals(days=days) if days else profiles.pair_signals_stored()
    context["flagged"] = profiles.pair_flagged_stored()
    return TemplateResponse(request, "admin/integrity/pairs.html", context)


def players_view(request: HttpRequest) -> HttpResponse:
    context = _context(request, _("Integrity: fouls and automatic play"))
    days = context["days"]
    context["players"] = selectors.player_signals(days=days) if days else profiles.player_signals_stored()
    return TemplateResponse(request, "admin/integrity/players.html", context)


def grant_flows_view(request: HttpRequest) -> HttpResponse:
    context = _context(request, _("Integrity: welcome coins passed on"))
    context["flags"] = selectors.grant_flow_flags(days=context["days"])
    context["rule"] = selectors.grant_flow_rule()
    return TemplateResponse(request, "admin/integrity/grant_flows.html", context)


def pair_view(request: HttpRequest, a: int, b: int) -> HttpResponse:
    context = _context(request, _("Integrity: hands of a pair"))
    users = {u.pk: u.username for u in User.objects.filter(pk__in=(a, b))}
    if len(users) != 2:
        raise PermissionDenied
    context.update(a_name=users[a], b_name=users[b], hands=selectors.pair_hands(a=a, b=b, days=context["days"]))
    return TemplateResponse(request, "admin/integrity/pair.html", context)


def player_view(request: HttpRequest, user_id: int) -> HttpResponse:
    context = _context(request, _("Integrity: a player"))
    player = User.objects.filter(pk=user_id).first()
    if player is None:
        raise PermissionDenied
    context.update(player=player, **profiles.player_profile(user=player))
    return TemplateResponse(request, "admin/integrity/player.html", context)
