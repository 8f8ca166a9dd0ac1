"""A hand's state (written on every action) and result compressed with LZ4 (config/lz4.py)."""

from django.db import migrations

from config.lz4 import lz4_columns


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0006_hand_ledger_transaction_index"),
    ]

    operations = [lz4_columns(("games_hand", "state"), ("games_hand", "result"))]
