"""The 三公 stake levels were named with their mode's code ("三公 all_compare 1"), and so were the
tables opened at them and the hand records' names: named with the mode's own word instead
("三公 通比 1"), as the other games' levels are, in Chinese. Names staff changed are left alone.
Players see translated titles (tables/titles.py); these names are what admin and exports keep."""

from django.db import migrations

MODE_WORDS = {"all_compare": "通比", "banker_bid": "抢庄", "banker_rotate": "轮庄", "pairwise": "两两比牌", "house": "庄家场"}


def rename(apps, schema_editor, words):
    StakeLevel = apps.get_model("tables", "StakeLevel")
    Table = apps.get_model("tables", "Table")
    for level in StakeLevel.objects.filter(game="samgong", mode__in=list(words)):
        old_word, new_word = words[level.mode]
        prefix = f"三公 {old_word} "
        if not level.name.startswith(prefix):
            continue
        old, new = level.name, f"三公 {new_word} {level.name.removeprefix(prefix)}"
        level.name = new
        level.save(update_fields=["name"])
        for table in Table.objects.filter(stake_level=level, name__startswith=f"{old} · "):
            table.name = new + table.name.removeprefix(old)
            table.save(update_fields=["name"])


def forwards(apps, schema_editor):
    rename(apps, schema_editor, {code: (code, word) for code, word in MODE_WORDS.items()})


def backwards(apps, schema_editor):
    rename(apps, schema_editor, {code: (word, code) for code, word in MODE_WORDS.items()})


class Migration(migrations.Migration):
    dependencies = [("tables", "0004_table_current_hand")]
    operations = [migrations.RunPython(forwards, backwards)]
