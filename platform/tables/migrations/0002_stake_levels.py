"""Stake levels from RULES.md's schedules (editable in Django admin afterwards)."""

from django.db import migrations

C = 100  # minor units per coin

THIRTEEN = [  # unit (minor) -> commission %, minimum buy-in (coins) — RULES.md section 1
    (50, 5, 15), (100, 5, 30), (250, 4, 75), (500, 3, 150), (1000, 3, 300), (2000, 3, 600), (5000, 2, 2500),
]
TRIO_BASES = [100, 200, 300, 500, 1000]  # coins per 墩 — RULES.md section 2
SAMGONG_BASES = [1, 5, 20]  # coins per base A (RULES.md gives no schedule; our choice)
SAMGONG_MODES = {  # mode -> (seats, fee %)
    "all_compare": (5, 5),
    "banker_bid": (4, 0),
    "banker_rotate": (4, 0),
    "pairwise": (6, 0),
    "house": (6, 0),
}


def money(unit: int) -> str:
    return f"{unit // C}.{unit % C:02d}"


def load(apps, schema_editor):
    StakeLevel = apps.get_model("tables", "StakeLevel")
    sort = 0
    for unit, commission, min_buy_in in THIRTEEN:
        sort += 1
        StakeLevel.objects.update_or_create(
            game="thirteen", mode="", unit=unit,
            defaults=dict(name=f"十三张 {money(unit)}", commission_percent=commission, min_buy_in=min_buy_in * C,
                          min_table_money=5 * unit, seats=4, sort=sort),
        )
    for base in TRIO_BASES:
        sort += 1
        StakeLevel.objects.update_or_create(
            game="thirteen_trio", mode="", unit=base * C,
            defaults=dict(name=f"三人十三支 {base}", commission_percent=5, min_buy_in=30 * base * C,
                          min_table_money=11 * base * C, seats=3, sort=sort),
        )
    for mode, (seats, fee) in SAMGONG_MODES.items():
        for base in SAMGONG_BASES:
            sort += 1
            StakeLevel.objects.update_or_create(
                game="samgong", mode=mode, unit=base * C,
                defaults=dict(name=f"三公 {mode} {base}", commission_percent=fee, min_buy_in=100 * base * C,
                              min_table_money=base * C, seats=seats, sort=sort),
            )


class Migration(migrations.Migration):
    dependencies = [("tables", "0001_initial")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
