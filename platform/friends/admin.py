"""Admin: friendships and blocks, read-only (players make and end them)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from friends.models import Block, Friendship


class _ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object | None = None) -> bool:
        return False


@admin.register(Friendship)
class FriendshipAdmin(_ReadOnly):
    list_display = ("from_user", "to_user", "status", "created_at", "accepted_at")
    list_filter = ("status",)
    search_fields = ("from_user__username", "from_user__display_name", "to_user__username", "to_user__display_name")


@admin.register(Block)
class BlockAdmin(_ReadOnly):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocker__display_name", "blocked__username", "blocked__display_name")
