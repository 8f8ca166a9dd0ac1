"""The Celery broker transport: kombu's Redis transport, made to survive a Redis restart.

When the worker loses its broker connection it closes the connection, and closing a channel
puts the messages it holds unacknowledged (the phase timers waiting for their ETA) back on the
queue. With kombu 5.7 that restore runs again after the connection has already dropped its
client, fails with ``AttributeError`` instead of a connection error, and the worker exits
("Unrecoverable error") at every Redis restart, so no timer fires and no hand is dealt until
someone restarts it. Here a channel whose connection is gone skips the restore: there is nothing
to put back into (a restarted Redis keeps nothing; a surviving one hands the messages out again
after the visibility timeout), and the sweeper fires every overdue phase whose timer was lost
(docs/ARCHITECTURE.md "Timers, presence and the sweeper").
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis


class QoS(redis.QoS):
    def restore_unacked(self, client: Any = None) -> None:
        transport = getattr(self.channel, "connection", None)
        if client is None and getattr(transport, "client", None) is None:
            if self._delivered is not None:
                self._delivered.clear()  # the connection is gone: nothing to restore to
            return
        super().restore_unacked(client)


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
