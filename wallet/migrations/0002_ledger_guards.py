"""Database-level ledger guards (see docs/WALLET.md).

PostgreSQL: entries and transactions refuse UPDATE and DELETE (row triggers); every transaction's
entries must sum to zero at commit (a deferred constraint trigger on wallet_entry).
SQLite: UPDATE of entries and transactions is refused. DELETE stays possible there because
Django's test flush empties tables with DELETE (PostgreSQL flushes with TRUNCATE, which row
triggers do not see: revoke TRUNCATE from the application role in production).

SQLite rebuilds a table (and drops its triggers) when a migration alters it: a later migration
that alters wallet_entry or wallet_ledgertransaction must run these statements again.
``manage.py ledger_check`` reports missing guards.
"""

from django.db import migrations

POSTGRES_INSTALL = [
    """
    CREATE OR REPLACE FUNCTION wallet_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'wallet: % is append-only, % refused', TG_TABLE_NAME, TG_OP
            USING ERRCODE = 'restrict_violation';
    END
    $$;
    """,
    """
    CREATE TRIGGER wallet_entry_append_only BEFORE UPDATE OR DELETE ON wallet_entry
        FOR EACH ROW EXECUTE FUNCTION wallet_refuse_change();
    """,
    """
    CREATE TRIGGER wallet_transaction_append_only BEFORE UPDATE OR DELETE ON wallet_ledgertransaction
        FOR EACH ROW EXECUTE FUNCTION wallet_refuse_change();
    """,
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
]
POSTGRES_REMOVE = [
    "DROP TRIGGER IF EXISTS wallet_entry_balanced ON wallet_entry;",
    "DROP TRIGGER IF EXISTS wallet_entry_append_only ON wallet_entry;",
    "DROP TRIGGER IF EXISTS wallet_transaction_append_only ON wallet_ledgertransaction;",
    "DROP FUNCTION IF EXISTS wallet_check_balanced();",
    "DROP FUNCTION IF EXISTS wallet_refuse_change();",
]
SQLITE_INSTALL = [
    """
    CREATE TRIGGER IF NOT EXISTS wallet_entry_append_only BEFORE UPDATE ON wallet_entry
    BEGIN SELECT RAISE(ABORT, 'wallet: wallet_entry is append-only, UPDATE refused'); END;
    """,
    """
    CREATE TRIGGER IF NOT EXISTS wallet_transaction_append_only BEFORE UPDATE ON wallet_ledgertransaction
    BEGIN SELECT RAISE(ABORT, 'wallet: wallet_ledgertransaction is append-only, UPDATE refused'); END;
    """,
]
SQLITE_REMOVE = [
    "DROP TRIGGER IF EXISTS wallet_entry_append_only;",
    "DROP TRIGGER IF EXISTS wallet_transaction_append_only;",
]


def _run(schema_editor, statements_by_vendor):
    # A cursor without parameters: the PL/pgSQL bodies contain literal % signs.
    with schema_editor.connection.cursor() as cursor:
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, []):
            cursor.execute(statement)


def install(apps, schema_editor):
    _run(schema_editor, {"postgresql": POSTGRES_INSTALL, "sqlite": SQLITE_INSTALL})


def remove(apps, schema_editor):
    _run(schema_editor, {"postgresql": POSTGRES_REMOVE, "sqlite": SQLITE_REMOVE})


class Migration(migrations.Migration):
    dependencies = [("wallet", "0001_initial")]

    operations = [migrations.RunPython(install, remove)]
