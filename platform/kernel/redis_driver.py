"""What every Redis connection of ours tells the server of its client, found once per process.

redis-py 8.1 names itself to the server on each new connection (``CLIENT SETINFO``: library name
and version). Unless given that, every new connection looks its own version up in the installed
package's metadata, a read and a parse of the file on disk: 0.6 ms of CPU each. Pools open their
connections as calls come at once, so a burst (every socket of a restarted server, a room's
players arriving together) would pay it up to a hundred times per process, on the event loop, in
the same second (bench/session_cpu.py --at-once). One :class:`redis.DriverInfo` made once carries
the same name and version to every pool of ours: the loop's clients (``kernel.loop_redis``), the
channel layer's, and the database threads' clients.
"""

from __future__ import annotations

from functools import cache

from redis.driver_info import DriverInfo


@cache
def driver_info() -> DriverInfo:
    return DriverInfo()
