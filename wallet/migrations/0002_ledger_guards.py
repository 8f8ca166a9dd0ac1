"""Database-level ledger guards (see docs/WALLET.md).

Entries and transactions are append-only (``kernel.append_only``: row triggers refuse UPDATE and
DELETE on PostgreSQL, UPDATE on SQLite); on PostgreSQL every transaction's entries must also sum
to zero at commit (a deferred constraint trigger on wallet_entry). A later migration that alters
wallet_entry or wallet_ledgertransaction on SQLite (which rebuilds it) must add the guards again.
``manage.py ledger_check`` reports missing guards.
"""

from django.db import migrations

from kernel.append_only import append_only

BALANCED_INSTALL = {
    "postgresql": [
        """
        CREATE OR REPLACE FUNCTION wallet_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            total numeric;
        BEGIN
            SELECT sum(amount) INTO total FROM wallet_entry WHERE transaction_id = NEW.transaction_id;
            IF total <> 0 THEN
                RAISE EXCEPTION 'wallet: transaction % does not balance (its entries sum to %)',
                    NEW.transaction_id, total USING ERRCODE = 'check_violation';
            END IF;
            RETURN NULL;
        END
        $$;
        """,
        """
        CREATE CONSTRAINT TRIGGER wallet_entry_balanced AFTER INSERT ON wallet_entry
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION wallet_check_balanced();
        """,
    ],
}
BALANCED_REMOVE = {
    "postgresql": ["DROP TRIGGER IF EXISTS wallet_entry_balanced ON wallet_entry;",
                   "DROP FUNCTION IF EXISTS wallet_check_balanced();"],
}


GUARDS = append_only("wallet", ["wallet_entry", ("wallet_transaction", "wallet_ledgertransaction")],
                     also=(BALANCED_INSTALL, BALANCED_REMOVE))
install, remove = GUARDS.code, GUARDS.reverse_code  # run again by migrations that alter the tables


class Migration(migrations.Migration):
    dependencies = [("wallet", "0001_initial")]

    operations = [GUARDS]
