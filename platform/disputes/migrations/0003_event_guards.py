"""Dispute events refuse UPDATE and DELETE in the database too (``DisputeEvent`` is append-only
in Python already): PostgreSQL row triggers refuse both; SQLite refuses UPDATE (DELETE stays
possible there for Django's test flush; PostgreSQL flushes with TRUNCATE, which row triggers do
not see: revoke TRUNCATE from the application role in production). A later migration that
alters this table on SQLite (which rebuilds it, dropping its triggers) must run these again.
"""

from django.db import migrations

TABLE = "disputes_disputeevent"
INSTALL = {
    "postgresql": [
        """
        CREATE OR REPLACE FUNCTION disputes_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'disputes: % is append-only, % refused', TG_TABLE_NAME, TG_OP
                USING ERRCODE = 'restrict_violation';
        END
        $$;
        """,
        f"CREATE TRIGGER {TABLE}_append_only BEFORE UPDATE OR DELETE ON {TABLE} "
        "FOR EACH ROW EXECUTE FUNCTION disputes_refuse_change();",
    ],
    "sqlite": [f"CREATE TRIGGER IF NOT EXISTS {TABLE}_append_only BEFORE UPDATE ON {TABLE} "
               f"BEGIN SELECT RAISE(ABORT, 'disputes: {TABLE} is append-only, UPDATE refused'); END;"],
}
REMOVE = {
    "postgresql": [f"DROP TRIGGER IF EXISTS {TABLE}_append_only ON {TABLE};",
                   "DROP FUNCTION IF EXISTS disputes_refuse_change();"],
    "sqlite": [f"DROP TRIGGER IF EXISTS {TABLE}_append_only;"],
}


def _run(schema_editor, statements):
    # A cursor without parameters: the PL/pgSQL body contains literal % signs.
    with schema_editor.connection.cursor() as cursor:
        for statement in statements.get(schema_editor.connection.vendor, []):
            cursor.execute(statement)


def install(apps, schema_editor):
    _run(schema_editor, INSTALL)


def remove(apps, schema_editor):
    _run(schema_editor, REMOVE)


class Migration(migrations.Migration):
    dependencies = [("disputes", "0002_voided_hands")]

    operations = [migrations.RunPython(install, remove)]
