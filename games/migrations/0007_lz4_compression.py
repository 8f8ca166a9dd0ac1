"""A hand's state (written on every action) and result compressed with LZ4 (kernel/lz4.py)."""

from django.db import migrations

from kernel.lz4 import lz4_columns


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0006_hand_ledger_transaction_index"),
    ]

    operations = [lz4_columns(("games_hand", "state"), ("games_hand", "result"))]
