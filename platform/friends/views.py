"""Friends' pages: the friends page (add by name, requests, friends, blocks), the lobby's
friends panel as a fragment its script refreshes, and one form post per action, each going back
where it came from with what happened (or why not)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from accounts.requests import AuthenticatedHttpRequest
from friends import services
from friends.selectors import (
    block_list,
    friend_list,
    friend_requests_incoming,
    friend_requests_outgoing,
    viewer_table,
)
from kernel.errors import AppError


def _back(request: AuthenticatedHttpRequest) -> str:
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return reverse("friends:friends")


def panel_context(request: AuthenticatedHttpRequest, *, next_path: str) -> dict[str, Any]:
    table = viewer_table(user=request.user)
    return {"friends": friend_list(user=request.user), "viewer_table": table, "next": next_path}


class FriendsView(LoginRequiredMixin, TemplateView):
    template_name = "friends/friends.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        request = cast("AuthenticatedHttpRequest", self.request)  # LoginRequiredMixin let only a player in
        user = request.user
        context.update(panel_context(request, next_path=request.get_full_path()))
        context.update(incoming=friend_requests_incoming(user=user), outgoing=friend_requests_outgoing(user=user),
                       blocked=block_list(user=user))
        return context


class FriendsPanelView(LoginRequiredMixin, View):
    """The lobby's friends panel, for its script to refresh (``static/js/ct-friends.js``)."""

    def get(self, request: AuthenticatedHttpRequest) -> HttpResponse:
        next_path = request.GET.get("next", "")
        if not url_has_allowed_host_and_scheme(next_path, allowed_hosts={request.get_host()}):
            next_path = reverse("lobby")
        return render(request, "friends/_panel.html", panel_context(request, next_path=next_path))


def _action(run: Callable[[AuthenticatedHttpRequest, dict[str, Any]], str]) -> type[View]:
    """A view that runs one service on a form post and goes back with its message."""

    class ActionView(LoginRequiredMixin, View):
        http_method_names = ["post"]

        def post(self, request: AuthenticatedHttpRequest, **kwargs: Any) -> HttpResponse:
            try:
                done = run(request, kwargs)
            except AppError as refusal:  # the friends list's refusals and a room invitation's
                messages.error(request, refusal.localized())
            else:
                messages.success(request, done)
            return HttpResponseRedirect(_back(request))

    return ActionView


def _send(request: AuthenticatedHttpRequest, kw: dict[str, Any]) -> str:
    row = services.friend_request_send(user=request.user, name=request.POST.get("name", ""))
    if row.accepted_at is not None:
        return _("You are friends now.")
    return _("Friend request sent.")


def _accept(request: AuthenticatedHttpRequest, kw: dict[str, Any]) -> str:
    services.friend_request_accept(user=request.user, request_id=kw["pk"])
    return _("You are friends now.")


def _decline(request: AuthenticatedHttpRequest, kw: dict[str, Any]) -> str:
    services.friend_request_decline(user=request.user, request_id=kw["pk"])
    return _("Request removed.")


def _remove(request: AuthenticatedHttpRequest, kw: dict[str, Any]) -> str:
    services.friend_remove(user=request.user, friend_id=kw["user_id"])
    return _("Removed from your friends.")


def _block(request: AuthenticatedHttpRequest, kw: dict[str, Any]) -> str:
    if "user_id" in kw:
        services.friend_block(user=request.user, other_id=kw["user_id"])
    else:
        services.friend_block_by_name(user=request.user, name=request.POST.get("name", ""))
    return _("Blocked: they can no longer send you requests or invitations.")


def _unblock(request: AuthenticatedHttpRequest, kw: dict[str, Any]) -> str:
    services.friend_unblock(user=request.user, other_id=kw["user_id"])
    return _("Unblocked.")


def _invite(request: AuthenticatedHttpRequest, kw: dict[str, Any]) -> str:
    services.friend_invite(user=request.user, friend_id=kw["user_id"])
    return _("Invitation sent.")


FriendRequestSendView = _action(_send)
FriendRequestAcceptView = _action(_accept)
FriendRequestDeclineView = _action(_decline)
FriendRemoveView = _action(_remove)
FriendBlockView = _action(_block)
FriendUnblockView = _action(_unblock)
FriendInviteView = _action(_invite)
