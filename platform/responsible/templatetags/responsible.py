"""``{% session_reminder %}`` on the table page: the reminder a player chose, due a number of
seconds from the page's rendering (counted from when they sat down, or from now if not seated)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from responsible.selectors import limits_current, session_started

register = template.Library()


@register.inclusion_tag("responsible/reminder.html", takes_context=True)
def session_reminder(context: dict[str, Any]) -> dict[str, Any]:
    user = context["request"].user
    if not user.is_authenticated:
        return {"minutes": None}
    now = timezone.now()
    minutes = limits_current(user=user, now=now).reminder_minutes
    if minutes is None:
        return {"minutes": None}
    started = session_started(user=user) or now
    due_in = max(0, int((started - now).total_seconds()) + minutes * 60)
    return {"minutes": minutes, "due_in": due_in, "started": started}
