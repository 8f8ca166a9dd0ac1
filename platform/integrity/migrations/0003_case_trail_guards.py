"""Database guards: a case's notes and actions refuse UPDATE and DELETE, as hand records do
(history migration 0002 says why SQLite still allows DELETE and how TRUNCATE is handled)."""

from django.db import migrations

TABLES = ("integrity_casenote", "integrity_caseaction")

POSTGRES_INSTALL = [
    """
    CREATE OR REPLACE FUNCTION integrity_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'integrity: % is append-only, % refused', TG_TABLE_NAME, TG_OP
            USING ERRCODE = 'restrict_violation';
    END
    $$;
    """,
    *[
        f"""
        CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}
            FOR EACH ROW EXECUTE FUNCTION integrity_refuse_change();
        """
        for table in TABLES
    ],
]
POSTGRES_REMOVE = [
    *[f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};" for table in TABLES],
    "DROP FUNCTION IF EXISTS integrity_refuse_change();",
]
SQLITE_INSTALL = [
    f"""
    CREATE TRIGGER IF NOT EXISTS {table}_append_only BEFORE UPDATE ON {table}
    BEGIN SELECT RAISE(ABORT, 'integrity: {table} is append-only, UPDATE refused'); END;
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
    dependencies = [("integrity", "0002_signals_and_cases")]

    operations = [migrations.RunPython(install, remove)]
