import django.db.models.deletion
from django.db import migrations, models


def point_at_latest_hands(apps, schema_editor):
    """Tables already in the database: their current hand is the latest one dealt there."""
    Table = apps.get_model("tables", "Table")
    Hand = apps.get_model("games", "Hand")
    latest = Hand.objects.filter(table=models.OuterRef("pk")).order_by("-number").values("pk")[:1]
    Table.objects.update(current_hand=models.Subquery(latest))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_hand_action_count_leavers"),
        ("tables", "0003_table_closing"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="current_hand",
            field=models.ForeignKey(
                blank=True, editable=False, null=True, on_delete=django.db.models.deletion.SET_NULL,
                related_name="+", to="games.hand",
            ),
        ),
        migrations.RunPython(point_at_latest_hands, migrations.RunPython.noop),
    ]
