"""A hand record's canonical text compressed with LZ4 (kernel/lz4.py)."""

from django.db import migrations

from kernel.lz4 import lz4_columns


class Migration(migrations.Migration):

    dependencies = [
        ("history", "0002_append_only_guards"),
    ]

    operations = [lz4_columns(("history_handrecord", "canonical"))]
