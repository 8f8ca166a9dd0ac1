"""Dispute events refuse UPDATE and DELETE in the database too (``DisputeEvent`` is append-only
in Python already): ``kernel.append_only``."""

from django.db import migrations

from kernel.append_only import append_only


class Migration(migrations.Migration):
    dependencies = [("disputes", "0002_voided_hands")]

    operations = [append_only("disputes", ["disputes_disputeevent"])]
