"""``{% friends_panel %}``: the player's friends in the lobby, who is online and at which table."""

from __future__ import annotations

from typing import Any

from django import template

from friends.views import panel_context

register = template.Library()


@register.inclusion_tag("friends/_lobby.html", takes_context=True)
def friends_panel(context: dict[str, Any]) -> dict[str, Any]:
    request = context["request"]
    if not request.user.is_authenticated:
        return {"shown": False}
    return {"shown": True, "csrf_token": context.get("csrf_token"),
            **panel_context(request, next_path=request.get_full_path())}
