"""Waiting on an event in a test: poll a condition until it holds, up to a deadline, instead of
sleeping a fixed time that is too long on a fast machine and too short on a slow one."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")


def wait_until(condition: Callable[[], T], timeout: float = 10, every: float = 0.02, what: Any = "") -> T:
    """The condition's first truthy value, polled every ``every`` seconds; AssertionError once
    ``timeout`` seconds pass without one, saying ``what`` (or what ``what()`` returns then)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {_said(what) or condition}")
        time.sleep(every)


async def wait_until_async(
    condition: Callable[[], Awaitable[T]], timeout: float = 10, every: float = 0.02, what: Any = ""
) -> T:
    """:func:`wait_until` on an event loop: the loop runs on between polls."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = await condition()
        if value:
            return value
        if loop.time() > deadline:
            raise AssertionError(f"not within {timeout} s: {_said(what) or condition}")
        await asyncio.sleep(every)


def _said(what: Any) -> Any:
    return what() if callable(what) else what
