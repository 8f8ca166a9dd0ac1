from django.contrib import admin

from tables.models import Seat, StakeLevel, Table


@admin.register(StakeLevel)
class StakeLevelAdmin(admin.ModelAdmin):
    list_display = (
        "name", "game", "mode", "unit", "commission_percent", "min_buy_in", "min_table_money", "seats", "active",
    )
    list_filter = ("game", "mode", "active")
    list_editable = ("active",)
    search_fields = ("name",)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ("index", "user", "status", "joined_at", "last_seen", "disconnected")
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:  # seats change through play only
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("name", "stake_level", "status", "hands_played", "created_at")
    list_filter = ("status", "stake_level__game")
    search_fields = ("name",)
    readonly_fields = ("carry", "hands_played", "version", "created_at")
    inlines = [SeatInline]
