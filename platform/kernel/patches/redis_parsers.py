"""redis-py's asyncio reply parser, less a debug line built for every pub/sub message.

redis-py 8.1's parsers build ``"Push response: " + str(response)`` for each pub/sub message
before handing it to ``logger.debug``, whatever the log level: the whole message turned into
text and thrown away. On a server's channel layer (every state frame of every table it holds
a connection at) that would be a sixth of the server's CPU (benchmark: the servers' CPU of
``bash bench/live_load.sh``). Fixed upstream in
redis-py's pull request 4231, not yet in a release; until then the channel layer's connections
use this parser (``CHANNEL_LAYERS`` in the settings). Written against redis-py's private
``redis._parsers._AsyncHiredisParser`` / ``_AsyncRESP3Parser`` and their
``handle_pubsub_push_response``.
"""

from __future__ import annotations

from typing import Any

from redis._parsers import _AsyncHiredisParser, _AsyncRESP3Parser
from redis.utils import HIREDIS_AVAILABLE

#: The versions this module was written and measured against (a test compares the installed ones).
WRITTEN_FOR = {"redis": "8.1.0"}

_Base: Any = _AsyncHiredisParser if HIREDIS_AVAILABLE else _AsyncRESP3Parser


class PubSubParser(_Base):  # type: ignore[misc]
    async def handle_pubsub_push_response(self, response: Any) -> Any:
        return response
