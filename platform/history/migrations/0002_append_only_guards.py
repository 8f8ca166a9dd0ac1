"""Database guards: hand records and their seat rows refuse UPDATE and DELETE
(``kernel.append_only``: row triggers on PostgreSQL, UPDATE refused on SQLite)."""

from django.db import migrations

from kernel.append_only import append_only


class Migration(migrations.Migration):
    dependencies = [("history", "0001_initial")]

    operations = [append_only("history", ["history_handrecord", "history_handrecordseat"])]
