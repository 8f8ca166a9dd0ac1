"""Django's PostgreSQL backend, its connection pool checking only connections that were idle
(kernel/db_pool.py says why). Everything else is Django's own.

Benchmark ``bash bench/live_load.sh``: about two PostgreSQL transactions an action with this
check (1.9–2.5, docs/SCALING.md), five with psycopg_pool's empty query on every checkout.
Written against Django's private ``DatabaseWrapper._connection_pools`` and
``_configure_connection`` and the way its ``pool`` property builds psycopg_pool's
``ConnectionPool``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db.backends.base.base import NO_DB_ALIAS
from django.db.backends.postgresql import base

from kernel.db_pool import check_if_idle

#: The versions this module was written and measured against (a test compares the installed ones).
WRITTEN_FOR = {"Django": "5.2.19", "psycopg-pool": "3.3.3"}


class DatabaseWrapper(base.DatabaseWrapper):
    # Django's, untyped: its pools per process, and what it runs on each new connection
    _connection_pools: dict[str, Any]
    _configure_connection: Callable[..., Any]

    @property
    def pool(self) -> Any:
        """Django's pool (``OPTIONS["pool"]``), made as Django makes it but with
        :func:`kernel.db_pool.check_if_idle` as its check, whatever ``CONN_HEALTH_CHECKS`` says."""
        options = self.settings_dict["OPTIONS"].get("pool")
        if self.alias == NO_DB_ALIAS or not options:
            return None
        pools = self._connection_pools
        if self.alias not in pools:
            if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
                raise ImproperlyConfigured("Pooling doesn't support persistent connections.")
            from psycopg_pool import ConnectionPool  # as Django's backend: loaded only when a pool is configured

            kwargs = self.get_connection_params()
            kwargs["autocommit"] = True  # as Django opens them; it sets autocommit itself later
            configure = self._configure_connection
            pool = ConnectionPool(
                kwargs=kwargs, open=False, configure=configure, check=check_if_idle,
                **({} if options is True else options),
            )
            pools.setdefault(self.alias, pool)  # the first thread's pool wins, as in Django
        return pools[self.alias]
