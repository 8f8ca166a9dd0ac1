from django.db import migrations, models


def count_actions(apps, schema_editor):
    """Hands already in the database: their action count is what they have logged."""
    Hand = apps.get_model("games", "Hand")
    HandAction = apps.get_model("games", "HandAction")
    counts = models.Subquery(
        HandAction.objects.filter(hand=models.OuterRef("pk"))
        .values("hand").annotate(n=models.Count("pk")).values("n")[:1]
    )
    Hand.objects.update(action_count=models.functions.Coalesce(counts, 0))


class Migration(migrations.Migration):
    dependencies = [("games", "0004_watchdog_repair")]

    operations = [
        migrations.AddField(model_name="hand", name="action_count", field=models.PositiveIntegerField(default=0)),
        migrations.AddField(model_name="hand", name="leavers", field=models.JSONField(blank=True, default=list)),
        migrations.RunPython(count_actions, migrations.RunPython.noop),
    ]
