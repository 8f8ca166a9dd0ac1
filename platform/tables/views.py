"""Pages: the lobby, a table page per game, and "play" (find or open a table at a stake level).

The pages are thin shells: the lobby and the table render live from their WebSockets
(docs/PROTOCOL.md) with the scripts under static/js/.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from accounts.requests import AuthenticatedHttpRequest
from games.adapters import player_limits
from games.engine.registry import engine_for, game_codes
from responsible.selectors import play_refusal
from tables import ui_rooms, ui_rules, ui_showdown, ui_strings
from tables.models import Seat, StakeLevel, Table
from tables.room_views import room_link, room_refused
from tables.rooms import room_allowed, room_invitations, room_seen
from tables.rules_panel import rules_panel
from tables.selectors import stake_level_list, table_list_open, table_summary
from tables.services import table_find_or_create_free
from wallet.selectors import wallet_balance

RANKS, SUITS = "23456789TJQKA", "shcd"


def card_urls() -> dict[str, str]:
    """Static URLs of the 52 card faces, keyed by card ("As", "Td"): hashed names in production."""
    return {r + s: static(f"vendor/playing-cards/{r}{s.upper()}.svg") for r in RANKS for s in SUITS}


def _level_row(level: StakeLevel) -> dict[str, Any]:
    return {
        "id": level.pk, "game": level.game, "mode": level.mode, "name": level.name, "unit": level.unit,
        "commission_percent": level.commission_percent, "min_buy_in": level.min_buy_in, "seats": level.seats,
        "play": reverse("table-play", args=[level.pk]), "stake_word": engine_for(level.game).stake_word,
        "players": list(player_limits(level)),
    }


def _wallet_balance(request: HttpRequest) -> int | None:
    if not request.user.is_authenticated:
        return None
    return wallet_balance(user=request.user)


class LobbyView(TemplateView):
    """Games, stake levels and open tables; live through ws/lobby/."""

    template_name = "tables/lobby.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        game, codes = self.request.GET.get("game", ""), game_codes()
        context["lobby"] = {
            "games": list(codes),
            "glyphs": {code: engine_for(code).glyph for code in codes},
            "game": game if game in codes else "",
            "levels": [_level_row(level) for level in stake_level_list()],
            "tables": [table_summary(t) for t in table_list_open()],
            "ws": "/ws/lobby/",
            "table_url": reverse("table", args=[0]),
            "wallet": _wallet_balance(self.request),
            "invites": _invitations(self.request),
        }
        context["room_levels"] = list(stake_level_list())
        context["strings"] = ui_strings.strings(
            ui_strings.COMMON, ui_strings.game_strings(), ui_rules.LOBBY_PLAYERS, ui_rooms.LOBBY_ROOMS
        )
        return context


class TableView(TemplateView):
    """One table: anyone may watch; a signed-in player may sit down while it is open (a closed
    table's page says so, with its last state and no seat to take)."""

    def get_template_names(self) -> list[str]:
        return [f"tables/table_{engine_for(self.table.stake_level.game).page}.html"]

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        self.table = get_object_or_404(Table.objects.select_related("stake_level"), pk=kwargs["table_id"])
        if self.table.is_room:  # docs/RULES.md "Private rooms": only its pass holders watch or sit
            if not request.user.is_authenticated:
                return redirect(f"{reverse('login')}?next={request.path}")
            if not room_allowed(table=self.table, user_id=request.user.pk):
                return room_refused(request, str(_("This room is private: enter its code or ask for an invitation.")),
                                    status=403)
            room_seen(table=self.table, user=request.user)
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        table, level = self.table, self.table.stake_level
        user = self.request.user
        context["table"] = table
        context["level"] = level
        panel = rules_panel(level)
        context["rules_lines"] = panel["lines"]
        context["config"] = {
            "table": table.pk,
            "name": table.name,
            "closed": table.status != Table.Status.OPEN,
            "game": level.game,
            "mode": level.mode,
            "ws": f"/ws/tables/{table.pk}/?watchers=1",  # with the count of watchers (docs/PROTOCOL.md)
            "user": user.pk if user.is_authenticated else None,
            "wallet": _wallet_balance(self.request),
            "min_buy_in": level.min_buy_in,
            "stake_word": engine_for(level.game).stake_word,
            "cards": card_urls(),
            "login": f"{reverse('login')}?next={self.request.path}",
            "lobby": reverse("lobby"),
            "rules": panel["figures"],
            "wallet_url": reverse("wallet:wallet"),
            "away_minutes": max(1, settings.GAMES_AWAY_STAND_UP_AFTER // 60),  # an away seat stands up
            "room_link": room_link(self.request, table) if table.is_room else None,
        }
        context["strings"] = ui_strings.strings(
            ui_strings.COMMON, ui_strings.game_strings(), ui_strings.TABLE, ui_showdown.SHOWDOWN, ui_rules.RULES,
            ui_rooms.ROOM,
        )
        return context


class TablePlayView(LoginRequiredMixin, View):
    """"Play" at a stake level: the table the player already sits at there; else, when the
    wallet holds the minimum buy-in, the open table with the most players that has a free seat
    (or a new table when every one is full); else (and on GET) a page that says why not, with the
    stakes the wallet does cover and how to get more coins: no empty table is opened. A player
    who may not sit down (banned, self-excluded, cooling off) is told so at once, on the lobby."""

    def post(self, request: AuthenticatedHttpRequest, level_id: int) -> HttpResponse:
        level = get_object_or_404(StakeLevel, pk=level_id, active=True)
        refusal = play_refusal(user=request.user, now=timezone.now())
        if refusal is not None:  # banned, self-excluded or cooling off: no table is picked
            messages.error(request, refusal)
            return redirect(f"{reverse('lobby')}?game={level.game}")
        seated = _seated_at(request, level)
        if seated is not None:
            return redirect("table", table_id=seated)
        if (_wallet_balance(request) or 0) < level.min_buy_in:
            return redirect("table-play", level_id=level.pk)  # the page below, with its own address
        return redirect("table", table_id=table_find_or_create_free(level=level).pk)

    def get(self, request: AuthenticatedHttpRequest, level_id: int) -> HttpResponse:
        level = get_object_or_404(StakeLevel, pk=level_id, active=True)
        seated = _seated_at(request, level)
        if seated is not None:
            return redirect("table", table_id=seated)
        balance = _wallet_balance(request) or 0
        if balance >= level.min_buy_in:
            return redirect(f"{reverse('lobby')}?game={level.game}")
        affordable = StakeLevel.objects.filter(game=level.game, active=True, min_buy_in__lte=balance)
        return render(request, "tables/play_short.html",
                      {"level": level, "balance": balance, "affordable": list(affordable)})


def _invitations(request: HttpRequest) -> list[dict[str, Any]]:
    """The signed-in player's invitations to open rooms, each with the address that lets them in."""
    if not request.user.is_authenticated:
        return []
    return [{**i.as_dict(), "url": reverse("table", args=[i.table_id])} for i in room_invitations(user=request.user)]


def _seated_at(request: AuthenticatedHttpRequest, level: StakeLevel) -> int | None:
    """The open public table at ``level`` the player sits at, if any (a room is no "Play" pick)."""
    return (Seat.objects.filter(user=request.user, table__stake_level=level, table__status=Table.Status.OPEN,
                                table__room_code__isnull=True)
            .values_list("table_id", flat=True).first())
