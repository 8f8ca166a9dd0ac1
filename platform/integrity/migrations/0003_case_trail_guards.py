"""Database guards: a case's notes and actions refuse UPDATE and DELETE, as hand records do
(``kernel.append_only``)."""

from django.db import migrations

from kernel.append_only import append_only


class Migration(migrations.Migration):
    dependencies = [("integrity", "0002_signals_and_cases")]

    operations = [append_only("integrity", ["integrity_casenote", "integrity_caseaction"])]
