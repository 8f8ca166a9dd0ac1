"""``{% daily_bonus_panel %}``: the daily bonus on the wallet page and in the lobby, a claim
button while the player may claim, else why not and until when."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from rewards.selectors import daily_bonus_status

register = template.Library()


@register.inclusion_tag("rewards/_daily_bonus.html", takes_context=True)
def daily_bonus_panel(context: dict[str, Any]) -> dict[str, Any]:
    request = context["request"]
    if not request.user.is_authenticated:
        return {"status": None}
    status = daily_bonus_status(user=request.user, now=timezone.now())
    if status.reason == "off":
        return {"status": None}
    return {"status": status, "message": status.message(), "next": request.get_full_path(),
            "csrf_token": context.get("csrf_token")}
