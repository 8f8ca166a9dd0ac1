"""Model rows read and written by hand-written SQL, for the few statements of the live path.

The ORM compiles a queryset into SQL on every call and builds its rows through a general
machinery; on the path every action takes, that was most of what a statement cost in Python
(docs/SCALING.md "What one action costs"). A :class:`Rows` names a model's columns once and
turns a row of them into a model instance as the ORM would (``Model.from_db`` after Django's
own converters for the connection's database), and a model's values into statement
parameters (``get_db_prep_save``). JSON columns go through orjson both ways: the same values
as the standard library's ``json`` (keys that are not strings become strings, as ``json.dumps``
makes them), several times faster.

The statements themselves are written where they are used, in SQL both PostgreSQL and SQLite
run (the embedded default); ``UPDATE … RETURNING`` needs SQLite 3.35 or newer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

import orjson
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field, JSONField, Model, QuerySet

M = TypeVar("M", bound=Model)
Converter = Callable[[Any], Any]

_JSON_OPTIONS = orjson.OPT_NON_STR_KEYS


def json_text(value: Any) -> str:
    """``value`` as compact JSON text (non-ASCII kept as it is, keys made strings)."""
    return orjson.dumps(value, option=_JSON_OPTIONS).decode()


def _json_bytes(value: Any) -> bytes:
    return orjson.dumps(value, option=_JSON_OPTIONS)


def json_param(value: Any) -> Any:
    """A JSON column's statement parameter: psycopg's ``Jsonb`` on PostgreSQL, text elsewhere."""
    if value is None:
        return None
    if connection.vendor == "postgresql":
        from psycopg.types.json import Jsonb  # psycopg is loaded on PostgreSQL only

        return Jsonb(value, dumps=_json_bytes)
    return json_text(value)


def _json_load(value: Any) -> Any:
    return orjson.loads(value) if isinstance(value, str | bytes) else value


def quote(name: str) -> str:
    return str(connection.ops.quote_name(name))


class Rows(Generic[M]):
    """The concrete columns of ``model`` (or just ``fields``), in order: SQL to select them and
    the instance a row of them makes."""

    def __init__(self, model: type[M], fields: Iterable[str] | None = None) -> None:
        self.model = model
        concrete = {f.name: f for f in model._meta.concrete_fields}
        names = list(fields) if fields is not None else list(concrete)
        self.fields: list[Field[Any, Any]] = [concrete[name] for name in names]
        self.attnames = [f.attname for f in self.fields]
        #: The fields an insert writes (every one but the primary key, which the database sets).
        self.insert_names = [f.name for f in self.fields if not f.primary_key]
        self.table = model._meta.db_table
        self.width = len(self.fields)
        self._converters: dict[str, list[Converter | None]] = {}

    def columns(self, alias: str | None = None) -> str:
        """``"alias"."column", …`` (unqualified without ``alias``: for RETURNING)."""
        prefix = f"{quote(alias)}." if alias else ""
        return ", ".join(f"{prefix}{quote(f.column)}" for f in self.fields)

    def field(self, name: str) -> Field[Any, Any]:
        return next(f for f in self.fields if f.name == name)

    def load(self, values: Sequence[Any]) -> M:
        """The model instance of one row of :meth:`columns` (as the ORM builds it)."""
        converters = self._converters_here()
        converted = [v if c is None or v is None else c(v) for c, v in zip(converters, values, strict=True)]
        return self.model.from_db(connection.alias, self.attnames, converted)

    def params(self, instance: M, names: Sequence[str]) -> list[Any]:
        """The statement parameters of these fields' values on ``instance``."""
        out = []
        for name in names:
            field = self.field(name)
            value = getattr(instance, field.attname)
            out.append(json_param(value) if isinstance(field, JSONField) else field.get_db_prep_save(value, connection))
        return out

    def _converters_here(self) -> list[Converter | None]:
        vendor = connection.vendor
        if vendor not in self._converters:
            self._converters[vendor] = [self._converter(f) for f in self.fields]
        return self._converters[vendor]

    def _converter(self, field: Field[Any, Any]) -> Converter | None:
        if isinstance(field, JSONField):
            return _json_load
        col = field.get_col(self.table)
        django_converters = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
        if not django_converters:
            return None

        def convert(value: Any) -> Any:
            for converter in django_converters:
                value = converter(value, col, connection)
            return value

        return convert


@contextmanager
def _cursor() -> Iterator[Any]:
    """A cursor for one of the statements below: the one kept for the current database session
    (made once per session, where Django makes a new cursor, with its wrapper, for every
    statement: half of what a small statement cost in Python), or, while queries are being
    logged (``DEBUG``, a test counting statements), a new one as Django makes it."""
    db = connections[DEFAULT_DB_ALIAS]  # the thread's own (``connection`` looks it up on every use)
    if db.queries_logged:
        with db.cursor() as cursor:
            yield cursor
        return
    if db.connection is None:
        db.ensure_connection()
    kept = db.__dict__.get("_rows_cursor")
    if kept is None or kept[0] is not db.connection:  # a new session (from the pool)
        kept = db.__dict__["_rows_cursor"] = (db.connection, db.cursor())
    yield kept[1]


def fetch_one(sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    with _cursor() as cursor:
        cursor.execute(sql, params)
        row: tuple[Any, ...] | None = cursor.fetchone()
        return row


def fetch_all(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    with _cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def execute(sql: str, params: Sequence[Any]) -> int:
    """Run one statement; the rows it changed."""
    with _cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


class Compiled:
    """A queryset's SQL, compiled by the ORM once per database and then run with new values.

    ``build`` makes the queryset from stand-in values (one keyword each, values that appear
    nowhere else in its parameters); :meth:`rows` runs its SQL with each stand-in's parameter
    replaced by the value given for it. Compiling a queryset is most of what a small read costs
    when it is compiled on every call.
    """

    def __init__(self, build: Callable[..., QuerySet[Any, Any]], **stand_ins: Any) -> None:
        self.build, self.stand_ins = build, stand_ins
        self._compiled: dict[str, tuple[str, tuple[Any, ...]]] = {}

    def rows(self, **values: Any) -> list[tuple[Any, ...]]:
        return fetch_all(*self.sql_and_params(**values))

    def sql_and_params(self, **values: Any) -> tuple[str, list[Any]]:
        """The SQL and its parameters for these values (to run, or to put inside a statement)."""
        sql, template = self._sql()
        return sql, [self._value(p, values) for p in template]

    def _value(self, param: Any, values: dict[str, Any]) -> Any:
        for name, stand_in in self.stand_ins.items():
            if type(param) is type(stand_in) and param == stand_in:
                return values[name]
        return param

    def _sql(self) -> tuple[str, tuple[Any, ...]]:
        vendor = connection.vendor
        if vendor not in self._compiled:
            sql, params = self.build(**self.stand_ins).query.sql_with_params()
            self._compiled[vendor] = (sql, tuple(params))
        return self._compiled[vendor]
