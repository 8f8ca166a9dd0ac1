"""Limit changes (a player's history of their own limits) refuse UPDATE and DELETE in the
database: ``kernel.append_only``."""

from django.db import migrations

from kernel.append_only import append_only


class Migration(migrations.Migration):
    dependencies = [("responsible", "0002_cool_off")]

    operations = [append_only("responsible", ["responsible_limitchange"])]
