"""Append-only tables, enforced by the database: the migration operation every app's guards use
(the ledger, the hand record, dispute events, limit changes, the staff trail, case notes).

PostgreSQL: a row trigger refuses UPDATE and DELETE, raising ``restrict_violation`` from the app's
``<app>_refuse_change()`` function. SQLite: a trigger refuses UPDATE; DELETE stays possible there
because Django's test flush empties tables with DELETE. PostgreSQL's TRUNCATE is not seen by row
triggers: production revokes it from the application's role (docs/OPERATIONS.md "Staff trail").
SQLite rebuilds a table (dropping its triggers) when a migration alters it: a later migration that
alters a guarded table must add the same operation again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.db import migrations

Statements = Mapping[str, Sequence[str]]  # database vendor -> raw SQL, run in order


def refuse_function(app: str) -> str:
    """``<app>_refuse_change()``: the PostgreSQL trigger function that refuses the row's change."""
    return f"""
    CREATE OR REPLACE FUNCTION {app}_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION '{app}: % is append-only, % refused', TG_TABLE_NAME, TG_OP
            USING ERRCODE = 'restrict_violation';
    END
    $$;
    """


def _named(tables: Sequence[str | tuple[str, str]]) -> list[tuple[str, str]]:
    """(trigger prefix, table) pairs: a table's own name is its trigger's prefix by default."""
    return [(t, t) if isinstance(t, str) else t for t in tables]


def append_only_sql(app: str, tables: Sequence[str | tuple[str, str]], *,
                    function: bool = True) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The statements that install and remove the guards of ``tables`` (a name, or a
    ``(trigger prefix, table)`` pair), by vendor. ``function=False``: the app's function exists
    already (installed by an earlier migration of the app, which also removes it)."""
    named = _named(tables)
    install: dict[str, list[str]] = {
        "postgresql": [
            *([refuse_function(app)] if function else []),
            *[f"CREATE TRIGGER {name}_append_only BEFORE UPDATE OR DELETE ON {table} "
              f"FOR EACH ROW EXECUTE FUNCTION {app}_refuse_change();" for name, table in named],
        ],
        "sqlite": [f"CREATE TRIGGER IF NOT EXISTS {name}_append_only BEFORE UPDATE ON {table} "
                   f"BEGIN SELECT RAISE(ABORT, '{app}: {table} is append-only, UPDATE refused'); END;"
                   for name, table in named],
    }
    remove: dict[str, list[str]] = {
        "postgresql": [
            *[f"DROP TRIGGER IF EXISTS {name}_append_only ON {table};" for name, table in named],
            *([f"DROP FUNCTION IF EXISTS {app}_refuse_change();"] if function else []),
        ],
        "sqlite": [f"DROP TRIGGER IF EXISTS {name}_append_only;" for name, _table in named],
    }
    return install, remove


def _runner(statements: Statements) -> Callable[[Any, Any], None]:
    def run(apps: Any, schema_editor: Any) -> None:
        # A cursor without parameters: the PL/pgSQL bodies contain literal % signs.
        with schema_editor.connection.cursor() as cursor:
            for statement in statements.get(schema_editor.connection.vendor, []):
                cursor.execute(statement)
    return run


def vendor_sql(install: Statements, remove: Statements) -> migrations.RunPython:
    """A migration operation running raw statements for the database in use (none for another)."""
    return migrations.RunPython(_runner(install), _runner(remove))


def append_only(app: str, tables: Sequence[str | tuple[str, str]], *, function: bool = True,
                also: tuple[Statements, Statements] | None = None) -> migrations.RunPython:
    """The migration operation guarding ``tables``; ``also``: more statements (install, remove)
    run after the guards are installed and before they are removed."""
    install, remove = append_only_sql(app, tables, function=function)
    if also is not None:
        more_install, more_remove = also
        for vendor, statements in more_install.items():
            install.setdefault(vendor, []).extend(statements)
        for vendor, statements in more_remove.items():
            remove[vendor] = [*statements, *remove.get(vendor, [])]
    return vendor_sql(install, remove)
