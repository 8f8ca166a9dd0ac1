"""Our changes to third-party internals, each in one module of this package.

Each module here subclasses or replaces a private part of an installed library (a class, a
method, a parser) for a figure a benchmark measured, named in the module's docstring. A private
part can change in any release, so each module states the versions it was written and measured
against, as ``WRITTEN_FOR`` (distribution name → version); a test per module fails when the
installed version differs (``tests/kernel/patches/``), so an upgrade of one of these libraries
is a review of its patch: read the library's changes to the parts the patch touches, run the
patch's tests and its benchmark, then set the new version.

- ``channel_layer`` (channels-redis): the pub/sub layer's subscriptions read by one lean stream;
  its host and group channel names for the broadcasts a thread publishes itself.
- ``redis_parsers`` (redis): the asyncio parser, less a debug line built for every message.
- ``broker`` (kombu): the Redis transport, one client per channel; a closed channel raises
  ``ConnectionError``.
- ``cache`` (Django): the Redis cache, one client per pool, not one per call.
- ``postgresql`` (Django, psycopg-pool): the PostgreSQL backend's pool, checking a connection
  only when it sat idle.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import version


def installed_versions(written_for: Mapping[str, str]) -> dict[str, str]:
    """The installed version of each distribution ``written_for`` names."""
    return {name: version(name) for name in written_for}
