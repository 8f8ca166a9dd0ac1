"""House accounts become names on their entries instead of rows.

A foreign key from every commission entry to one house row made PostgreSQL share-lock (and
rewrite) that row in every settlement; with the house named on the entry, postings touch no house
row at all. Existing house entries are moved over, the house rows dropped. The ledger guards are
taken off for the move and reinstalled (SQLite also rebuilds the tables, dropping their triggers).
"""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

GUARDS = importlib.import_module("wallet.migrations.0002_ledger_guards")
HOUSE_IDS = {"issuance": -1, "commission": -2, "penalty": -3, "banker": -4}


def _execute(schema_editor, statements):
    with schema_editor.connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)
        if schema_editor.connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending trigger events before ALTER TABLE


def entries_name_their_house(apps, schema_editor):
    _execute(schema_editor, [
        "UPDATE wallet_entry SET house = (SELECT a.house FROM wallet_account a WHERE a.id = wallet_entry.account_id),"
        " account_id = NULL, balance_after = NULL"
        " WHERE account_id IN (SELECT id FROM wallet_account WHERE kind = 'house')",
        "DELETE FROM wallet_account WHERE kind = 'house'",
    ])


def entries_point_at_house_rows(apps, schema_editor):
    statements = [
        "INSERT INTO wallet_account (id, kind, user_id, table_ref, house, balance, created_at)"
        f" VALUES ({pk}, 'house', NULL, '', '{name}', 0, CURRENT_TIMESTAMP)"
        for name, pk in HOUSE_IDS.items()
    ]
    statements += [
        f"UPDATE wallet_entry SET account_id = {pk}, house = '' WHERE house = '{name}'" for name, pk in HOUSE_IDS.items()
    ]
    _execute(schema_editor, statements)


class Migration(migrations.Migration):

    dependencies = [
        ('wallet', '0002_ledger_guards'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(GUARDS.remove, GUARDS.install),
        migrations.AddField(
            model_name='entry',
            name='house',
            field=models.CharField(blank=True, choices=[('issuance', 'issuance (the bank coins are granted from)'), ('commission', 'commission'), ('penalty', 'penalties'), ('banker', 'house-banked games')], default='', max_length=16, verbose_name='house account'),
        ),
        migrations.AlterField(
            model_name='entry',
            name='account',
            field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='wallet.account', verbose_name='account'),
        ),
        migrations.RunPython(entries_name_their_house, entries_point_at_house_rows),
        migrations.RemoveConstraint(
            model_name='account',
            name='wallet_account_balance_not_negative',
        ),
        migrations.RemoveConstraint(
            model_name='account',
            name='wallet_account_shape',
        ),
        migrations.RemoveConstraint(
            model_name='account',
            name='wallet_one_house',
        ),
        migrations.RemoveField(
            model_name='account',
            name='house',
        ),
        migrations.AlterField(
            model_name='account',
            name='kind',
            field=models.CharField(choices=[('wallet', 'wallet'), ('table', 'table money')], max_length=10, verbose_name='kind'),
        ),
        migrations.AlterField(
            model_name='account',
            name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='wallet_accounts', to=settings.AUTH_USER_MODEL, verbose_name='user'),
        ),
        migrations.AddIndex(
            model_name='entry',
            index=models.Index(condition=models.Q(('house', ''), _negated=True), fields=['house', 'id'], name='wallet_entry_house_id'),
        ),
        migrations.AddConstraint(
            model_name='account',
            constraint=models.CheckConstraint(condition=models.Q(('balance__gte', 0)), name='wallet_account_balance_not_negative'),
        ),
        migrations.AddConstraint(
            model_name='account',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind', 'wallet'), ('table_ref', '')), models.Q(('kind', 'table'), models.Q(('table_ref', ''), _negated=True)), _connector='OR'), name='wallet_account_shape'),
        ),
        migrations.AddConstraint(
            model_name='entry',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('account__isnull', False), ('balance_after__isnull', False), ('house', '')), models.Q(('account__isnull', True), ('balance_after__isnull', True), ('house__in', ['issuance', 'commission', 'penalty', 'banker'])), _connector='OR'), name='wallet_entry_account_or_house'),
        ),
        migrations.RunPython(GUARDS.install, GUARDS.remove),
    ]
