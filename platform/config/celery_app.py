"""The Celery app. Tasks are thin: one call into a service.

Database connections in a worker follow the pool, as they do in a web request. Celery's Django
fixup closes every connection before and after each task and, in a prefork child, closes the
whole psycopg pool with them, so each task opened a new pool and its connections (about three
PostgreSQL sessions a task). ``CELERY_DB_REUSE_MAX`` (settings) switches that per-task closing
off, and the handlers below do what Django does around a request instead:

1. Before and after a task, ``close_old_connections``: with ``CONN_MAX_AGE = 0`` the task's
   connection goes back to the pool (the pool rolls back anything left open and discards a
   broken connection); one that failed in the task is checked first and closed if unusable.
2. The pool keeps its connections from task to task and checks each one as it leaves
   (``CONN_HEALTH_CHECKS``), so one that died with a PostgreSQL restart is replaced, not used.
3. A forked child never uses its parent's connections: the fixup's ``worker_process_init``
   still drops what the child inherited, pool included, whatever ``CELERY_DB_REUSE_MAX`` says;
   the child then opens a pool of its own at its first task.
4. A child that shuts down closes its pool, so its sessions end cleanly.

Eager tasks (``task.apply``) run inside their caller's transaction and are left alone.
"""

import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

from celery import Celery, Task, signals
from django.conf import settings
from django.db import close_old_connections, connections

from kernel.background import lower_this_process
from kernel.gc_tuning import gc_tune

# `celery -A config` runs from platform/: the project root (games, wallet) must be importable too.
_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(1, _ROOT)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")


class DjangoCelerySettings(Mapping[str, Any]):
    """Django's ``CELERY_*`` settings, read once when Celery first asks for its configuration.

    Celery wraps a settings object (``"django.conf:settings"``) in an attribute view, and its
    every lookup tries several names of each key in turn: on Django's lazy settings each miss is
    a ``__getattr__`` that raises, some twenty of them in every task sent (about 60 µs of a
    task's 290, bench/redis_calls.py). A plain mapping answers the same lookups from a dict.
    The settings are read after Django's are configured (Celery reads its configuration
    lazily) and not again: nothing changes a ``CELERY_*`` setting at run time.

    Each setting answers to its name (``CELERY_BROKER_URL``, which Celery asks first) and to
    Celery's own (``broker_url``); the mapping lists the latter only, as Celery would name them:
    listed, a few prefixed names read as Celery's old-style ones (``CELERY_IMPORTS``) and draw
    its deprecation warnings."""

    PREFIX = "CELERY_"

    @cached_property
    def _values(self) -> dict[str, Any]:
        values = {name: getattr(settings, name) for name in dir(settings) if name.startswith(self.PREFIX)}
        return values | {name.removeprefix(self.PREFIX).lower(): value for name, value in values.items()}

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return (name for name in self._values if not name.startswith(self.PREFIX))

    def __len__(self) -> int:
        return len(self._values) // 2


app = Celery("config")
# The process's default app, whatever thread asks: the apps send tasks through
# ``celery.app.default_app`` and declare them with ``shared_task`` (they never import this module),
# also from the database threads. Celery's Django fix-up does the same as it installs; the apps rely
# on it, so it is said here too.
app.set_default()
app.config_from_object(DjangoCelerySettings(), namespace="CELERY")
app.autodiscover_tasks()


def _eager(task: Task | None) -> bool:
    return bool(task is not None and getattr(task.request, "is_eager", False))


@signals.task_prerun.connect
@signals.task_postrun.connect
def connections_tidy(sender: Task | None = None, **kwargs: Any) -> None:
    """Hand a task's connection back to the pool, or close it if it broke (module docstring)."""
    if not _eager(sender):
        close_old_connections()


@signals.worker_process_init.connect
def channel_layer_loop(**kwargs: Any) -> None:
    """A prefork child sends its broadcasts on one loop of its own (games/groups.py)."""
    # An app's module, imported in the child only: this module is imported while the settings load.
    from games.groups import use_own_loop

    use_own_loop()


@signals.worker_process_init.connect
def collector_tuned(**kwargs: Any) -> None:
    """A prefork child's garbage collector tuned as a server's (kernel/gc_tuning.py)."""
    gc_tune()


def serves_background_only(queues: Iterable[str]) -> bool:
    """Whether a worker consuming ``queues`` serves the background queue and nothing else."""
    return set(queues) == {settings.BACKGROUND_QUEUE}


@signals.celeryd_after_setup.connect
def background_lowered(sender: str | None = None, instance: Any = None, **kwargs: Any) -> None:
    """A worker started on the background queue alone runs at a low CPU priority, its prefork
    children with it (kernel/background.py): no player waits for its work."""
    if instance is not None and serves_background_only(instance.app.amqp.queues.consume_from):
        lower_this_process()


@signals.worker_process_shutdown.connect
def connection_pools_close(**kwargs: Any) -> None:
    """End a prefork child's pooled sessions as the child exits, not by a dropped socket."""
    for conn in connections.all(initialized_only=True):
        close_pool = getattr(conn, "close_pool", None)
        if close_pool is not None:
            close_pool()
