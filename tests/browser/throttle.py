"""A slow network between a browser and the test server: a TCP proxy that holds every chunk, in
each direction, for ``delay`` seconds before passing it on, in order, and can cut every
connection through it (the server side closing the sockets).

Chromium's own network emulation (CDP ``Network.emulateNetworkConditions``) delays a WebSocket's
handshake but not its frames, so a page's pings keep their round trip under it; a delay in the
path itself is what a player on a slow network has.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from typing import Any


class LatencyProxy:
    """``LatencyProxy(target_port)``: listens on ``self.port`` of 127.0.0.1 and forwards to
    ``target_port``; ``delay`` (seconds, each way) applies to what is read from then on."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.delay = 0.0
        self.loop = asyncio.new_event_loop()
        self.writers: set[asyncio.StreamWriter] = set()
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        started = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(started,), daemon=True)
        self.thread.start()
        if not started.wait(10):
            raise RuntimeError("the proxy did not start")

    def _run(self, started: threading.Event) -> None:
        self.server = self.loop.run_until_complete(asyncio.start_server(self._connection, "127.0.0.1", self.port))
        started.set()
        self.loop.run_forever()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        self.writers |= {writer, up_writer}
        await asyncio.gather(self._pump(reader, up_writer), self._pump(up_reader, writer), return_exceptions=True)
        self.writers -= {writer, up_writer}

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            try:
                while True:
                    due, data = await queue.get()
                    if not data:
                        break
                    await asyncio.sleep(max(0.0, due - self.loop.time()))
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                writer.close()

        delivering = self.loop.create_task(deliver())
        try:
            while data := await reader.read(65536):
                queue.put_nowait((self.loop.time() + self.delay, data))
        except (ConnectionError, OSError):
            pass
        queue.put_nowait((0.0, b""))
        await delivering

    def cut(self) -> None:
        """Close every connection through the proxy, both sides, as a server going away would."""
        def close_all() -> None:
            for writer in list(self.writers):
                writer.transport.abort()
        self.loop.call_soon_threadsafe(close_all)

    def close(self) -> None:
        async def stop() -> None:
            self.server.close()
            for writer in list(self.writers):
                writer.transport.abort()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LatencyProxy:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
