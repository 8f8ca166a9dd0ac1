"""Stake levels, tables and seats (docs/RULES.md "Stake levels", "Money", each game's minimums)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.engine.registry import games

if TYPE_CHECKING:
    from accounts.models import User


def game_choices() -> list[tuple[str, Any]]:
    """Every registered game with its label, translated when shown. A callable, so the choices
    follow the registry (games/engine/registry.py) and a new game needs no migration."""
    return [(engine.name, _(engine.label)) for engine in games()]


def mode_choices() -> list[tuple[str, Any]]:
    """Every game's modes (``""`` for a game without modes), each code once, in game order; a
    callable like :func:`game_choices`."""
    labels: dict[str, str] = {}
    for engine in games():
        for code, label in engine.modes.items():
            labels.setdefault(code, label)
    return [(code, _(label)) for code, label in labels.items()]


#: Every table's ``wallet_ref`` is this prefix and its id.
WALLET_REF_PREFIX = "table:"


class StakeLevel(models.Model):
    """One stake level of a game (and Sam Gong mode): unit or base, commission, minimums.

    ``unit`` is the coin value of one unit (十三张), one 墩 (the trio's base) or the base stake A
    (三公), in minor units. ``rules`` holds extra engine rule overrides (timers, multipliers)."""

    game = models.CharField(_("game"), max_length=20, choices=game_choices)
    mode = models.CharField(_("mode"), max_length=20, choices=mode_choices, blank=True, default="")
    name = models.CharField(_("name"), max_length=60)
    unit = models.PositiveBigIntegerField(_("unit / base (minor units)"))
    commission_percent = models.PositiveSmallIntegerField(_("commission %"))
    min_buy_in = models.PositiveBigIntegerField(_("minimum buy-in (minor units)"))
    min_table_money = models.PositiveBigIntegerField(_("minimum table money to be dealt in (minor units)"))
    seats = models.PositiveSmallIntegerField(_("seats per table"))
    rules = models.JSONField(_("rule overrides"), default=dict, blank=True)
    active = models.BooleanField(_("active"), default=True)
    sort = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ("game", "mode", "sort", "unit")
        verbose_name = _("stake level")
        verbose_name_plural = _("stake levels")
        constraints = [
            models.UniqueConstraint(fields=["game", "mode", "unit"], name="stake_level_unique_unit"),
            models.CheckConstraint(
                condition=models.Q(commission_percent__lte=100), name="stake_level_commission_le_100"
            ),
            models.CheckConstraint(condition=models.Q(seats__gte=2, seats__lte=6), name="stake_level_seats_2_6"),
        ]

    def __str__(self) -> str:
        return self.name


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    stake_level = models.ForeignKey(StakeLevel, on_delete=models.PROTECT, related_name="tables")
    name = models.CharField(_("name"), max_length=60)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    #: What the engine's carry_over returned after the last hand (dealer button, table head,
    #: set counter, banker...). Written only by games.services under the table lock.
    carry = models.JSONField(default=dict, blank=True)
    hands_played = models.PositiveIntegerField(default=0)
    #: +1 on every change at this table (seats or hand); every state frame carries it.
    version = models.PositiveBigIntegerField(default=0)
    #: The table's latest hand (in play, or the last one finished): read with the table row in
    #: the one query that locks it. Written only by games.services, at the deal.
    current_hand = models.ForeignKey(
        "games.Hand", on_delete=models.SET_NULL, null=True, blank=True, related_name="+", editable=False,
    )
    #: Who closed the table, when and why (``games.services.seating.table_close``).
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("closed by"),
    )
    close_reason = models.CharField(_("reason for closing"), max_length=200, blank=True, default="")
    #: A private room (docs/RULES.md "Private rooms"): its code, unique among open rooms; null at
    #: a public table. Only the owner, players invited by name and those who entered the code may
    #: watch or sit (``tables.rooms``).
    room_code = models.CharField(  # noqa: DJ001 - null: a public table; "" would collide in the unique index
        _("room code"), max_length=8, null=True, blank=True, editable=False,
    )
    room_owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="rooms_owned",
        verbose_name=_("room owner"), editable=False,
    )
    #: When the owner pressed Start: a room deals no hand before it.
    room_started_at = models.DateTimeField(_("room started at"), null=True, blank=True, editable=False)
    #: Since when the sweeper has found the room without a seat; it closes the room
    #: ROOMS_CLOSE_EMPTY_AFTER seconds later.
    room_empty_since = models.DateTimeField(null=True, blank=True, editable=False)
    room_guests: models.ManyToManyField[User, RoomPass] = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="RoomPass", through_fields=("table", "user"), related_name="rooms_allowed",
        blank=True, verbose_name=_("room guests"),
    )

    class Meta:
        ordering = ("stake_level", "id")
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(
                fields=["room_code"], condition=models.Q(status="open"), name="table_room_code_unique_open",
            ),
            models.CheckConstraint(
                condition=models.Q(room_code__isnull=True, room_owner__isnull=True)
                | models.Q(room_code__isnull=False, room_owner__isnull=False),
                name="table_room_code_with_owner",
            ),
            models.CheckConstraint(
                condition=models.Q(room_started_at__isnull=True) | models.Q(room_code__isnull=False),
                name="table_room_started_only_rooms",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def game(self) -> str:
        return self.stake_level.game

    @property
    def is_room(self) -> bool:
        """A private room (a table with a room code)."""
        return self.room_code is not None

    @property
    def wallet_ref(self) -> str:
        """The reference the wallet keys this table's seat escrow accounts by."""
        return f"{WALLET_REF_PREFIX}{self.pk}"


class Seat(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        SITTING_OUT = "sitting_out", _("sitting out")
        #: Sitting out because the player was away (auto-played, not connected) at the end of a
        #: hand (docs/RULES.md "Away players"); one tap deals them in again.
        AWAY = "away", _("sitting out: away")
        LEAVING = "leaving", _("leaving after this hand")

    #: PROTECT: a table with seats is closed, never deleted (its seats' table money would be stranded).
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seat_set")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PLAYING)
    joined_at = models.DateTimeField(auto_now_add=True)
    #: Presence from heartbeats (a consumer's disconnect handler is not guaranteed to run).
    last_seen = models.DateTimeField(null=True, blank=True)
    #: Set when heartbeats stopped; the seat is auto-played and marked as such to the others.
    disconnected = models.BooleanField(default=False)
    #: When the seat began sitting out (voluntarily or away); after GAMES_AWAY_STAND_UP_AFTER
    #: seconds the sweeper stands it up. None while it plays.
    sat_out_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("table", "index")
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_unique_index"),
            models.UniqueConstraint(fields=["table", "user"], name="seat_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.index}: {self.user}"


class RoomPass(models.Model):
    """Who may watch and sit in a private room besides its owner: a player who entered its code,
    or one invited by name (docs/RULES.md "Private rooms"). Written by ``tables.rooms`` only."""

    class Via(models.TextChoices):
        OWNER = "owner", _("owner")
        CODE = "code", _("room code")
        INVITE = "invite", _("invitation")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="room_passes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="room_passes")
    via = models.CharField(_("how"), max_length=10, choices=Via.choices)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("invited by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    #: The owner removed the player: the code no longer lets them in (an invitation does again).
    removed_at = models.DateTimeField(_("removed at"), null=True, blank=True)
    #: An invitation's lobby notice is shown until the invitee opens the room.
    seen_at = models.DateTimeField(_("seen at"), null=True, blank=True)

    class Meta:
        verbose_name = _("room pass")
        verbose_name_plural = _("room passes")
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="room_pass_unique_user"),
            models.CheckConstraint(condition=models.Q(via__in=["owner", "code", "invite"]), name="room_pass_via_known"),
            models.CheckConstraint(
                condition=models.Q(invited_by__isnull=True) | models.Q(via="invite"), name="room_pass_inviter_invites",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.user} ({self.via})"
