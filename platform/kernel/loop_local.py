"""State that belongs to one event loop (a server's; a test's ends with the test): made on the
loop's first ask, gone with the loop. What a server keeps for its own sockets (their slots, their
online marks, their watcher changes) lives here rather than in module globals, because an asyncio
task or client belongs to the loop it started on."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class LoopLocal(Generic[T]):
    """One value per running event loop, made by ``factory``."""

    def __init__(self, factory: Callable[[], T]) -> None:
        self._factory = factory
        self._values: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, T] = weakref.WeakKeyDictionary()

    def get(self) -> T:
        """The running loop's value."""
        loop = asyncio.get_running_loop()
        value = self._values.get(loop)
        if value is None:
            value = self._values[loop] = self._factory()
        return value
