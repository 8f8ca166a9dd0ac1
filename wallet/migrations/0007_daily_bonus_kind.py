"""The transaction kind ``daily_bonus`` (rewards: the daily bonus, docs/WALLET.md "Daily bonus").

SQLite rebuilds wallet_ledgertransaction to change its CHECK constraint, which drops its
triggers: the ledger guards are taken off for the change and reinstalled after it.
"""

import importlib

from django.conf import settings
from django.db import migrations, models

GUARDS = importlib.import_module("wallet.migrations.0002_ledger_guards")


class Migration(migrations.Migration):

    dependencies = [
        ('wallet', '0006_entry_house_lines_index'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(GUARDS.remove, GUARDS.install),
        migrations.RemoveConstraint(
            model_name='ledgertransaction',
            name='wallet_transaction_kind_known',
        ),
        migrations.AlterField(
            model_name='ledgertransaction',
            name='kind',
            field=models.CharField(choices=[('grant', 'grant'), ('adjustment', 'adjustment'), ('buy_in', 'buy-in'), ('cash_out', 'cash-out'), ('settlement', 'settlement'), ('commission', 'commission'), ('penalty', 'penalty'), ('dispute_compensation', 'dispute compensation'), ('daily_bonus', 'daily bonus'), ('reversal', 'reversal')], max_length=24, verbose_name='kind'),
        ),
        migrations.AddConstraint(
            model_name='ledgertransaction',
            constraint=models.CheckConstraint(condition=models.Q(('kind__in', ['grant', 'adjustment', 'buy_in', 'cash_out', 'settlement', 'commission', 'penalty', 'dispute_compensation', 'daily_bonus', 'reversal'])), name='wallet_transaction_kind_known'),
        ),
        migrations.RunPython(GUARDS.install, GUARDS.remove),
    ]
