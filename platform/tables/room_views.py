"""Pages of private rooms (docs/RULES.md "Private rooms"): open one, enter one by its code or its
link. Thin: each calls one service of ``tables.rooms`` and sends the player to the room's table
page, or says why not."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views import View

from accounts.requests import AuthenticatedHttpRequest
from tables.models import Table
from tables.rooms import RoomError, room_enter, room_open

HTTP_NOT_FOUND = 404


def room_link(request: HttpRequest, table: Table) -> str:
    """The address that lets its holder into the room: the code in it."""
    return request.build_absolute_uri(reverse("room-enter", args=[table.room_code]))


def room_refused(request: HttpRequest, message: str, *, code: str = "", status: int = HTTP_NOT_FOUND) -> HttpResponse:
    """The "join a room by code" page with why the player is not in (a private room without its
    pass, a code no open room has, a player the owner removed)."""
    return render(request, "tables/room_join.html", {"error": message, "code": code}, status=status)


class RoomOpenView(LoginRequiredMixin, View):
    """Open a room at a stake level (the lobby's form) and go to it."""

    def post(self, request: AuthenticatedHttpRequest) -> HttpResponse:
        level = request.POST.get("level", "")
        try:
            table = room_open(owner=request.user, level_id=int(level) if level.isdigit() else 0)
        except RoomError as exc:
            messages.error(request, str(exc))
            return redirect("lobby")
        return redirect("table", table_id=table.pk)


class RoomEnterView(LoginRequiredMixin, View):
    """Enter a room by its code: ``/rooms/<code>/`` (the link to share) or ``/rooms/?code=``
    (the lobby's box, any case, spaces allowed)."""

    def get(self, request: AuthenticatedHttpRequest, code: str = "") -> HttpResponse:
        code = code or request.GET.get("code", "")
        if not code.strip():
            return render(request, "tables/room_join.html", {"error": "", "code": ""})
        try:
            table = room_enter(code=code, user=request.user)
        except RoomError as exc:
            return room_refused(request, str(exc), code=code[:20], status=exc.status_code
                                if exc.code == "room_removed" else HTTP_NOT_FOUND)
        return redirect("table", table_id=table.pk)
