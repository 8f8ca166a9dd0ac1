"""Stake levels from docs/RULES.md's schedules (editable in Django admin afterwards).

The 十三张 schedule (unit, commission %, minimum buy-in; docs/RULES.md section 1) and the trio's
bases (docs/RULES.md section 2) are the engines' own, in minor units.
"""

from django.db import migrations

from games.engine.thirteen import STAKE_LEVELS
from games.engine.thirteen_trio import BASES

C = 100  # minor units per coin

SAMGONG_BASES = [1, 5, 20]  # coins per base A (docs/RULES.md gives no schedule; our choice)
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
    for level in STAKE_LEVELS:
        sort += 1
        unit = level["unit"]
        StakeLevel.objects.update_or_create(
            game="thirteen", mode="", unit=unit,
            defaults=dict(name=f"十三张 {money(unit)}", commission_percent=level["commission_percent"],
                          min_buy_in=level["min_buy_in"], min_table_money=5 * unit, seats=4, sort=sort),
        )
    for base in BASES:
        sort += 1
        StakeLevel.objects.update_or_create(
            game="thirteen_trio", mode="", unit=base,
            defaults=dict(name=f"三人十三支 {base // C}", commission_percent=5, min_buy_in=30 * base,
                          min_table_money=11 * base, seats=3, sort=sort),
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
