"""Database guards: hand records and their seat rows refuse UPDATE and DELETE.

PostgreSQL: row triggers refuse UPDATE and DELETE. SQLite: UPDATE is refused; DELETE stays
possible there because Django's test flush empties tables with DELETE (PostgreSQL flushes
with TRUNCATE, which row triggers do not see: revoke TRUNCATE from the application role in
production). SQLite rebuilds a table (dropping its triggers) when a migration alters it: a
later migration that alters these tables must run these statements again.
"""

from django.db import migrations

TABLES = ("history_handrecord", "history_handrecordseat")

POSTGRES_INSTALL = [
    """
    CREATE OR REPLACE FUNCTION history_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'history: % is append-only, % refused', TG_TABLE_NAME, TG_OP
            USING ERRCODE = 'restrict_violation';
    END
    $$;
    """,
    *[
        f"""
        CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}
            FOR EACH ROW EXECUTE FUNCTION history_refuse_change();
        """
        for table in TABLES
    ],
]
POSTGRES_REMOVE = [
    *[f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};" for table in TABLES],
    "DROP FUNCTION IF EXISTS history_refuse_change();",
]
SQLITE_INSTALL = [
    f"""
    CREATE TRIGGER IF NOT EXISTS {table}_append_only BEFORE UPDATE ON {table}
    BEGIN SELECT RAISE(ABORT, 'history: {table} is append-only, UPDATE refused'); END;
    """
    for table in TABLES
]
SQLITE_REMOVE = [f"DROP TRIGGER IF EXISTS {table}_append_only;" for table in TABLES]


def _run(schema_editor, statements_by_vendor):
    with schema_editor.connection.cursor() as cursor:
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, []):
            cursor.execute(statement)


def install(apps, schema_editor):
    _run(schema_editor, {"postgresql": POSTGRES_INSTALL, "sqlite": SQLITE_INSTALL})


def remove(apps, schema_editor):
    _run(schema_editor, {"postgresql": POSTGRES_REMOVE, "sqlite": SQLITE_REMOVE})


class Migration(migrations.Migration):
    dependencies = [("history", "0001_initial")]

    operations = [migrations.RunPython(install, remove)]
