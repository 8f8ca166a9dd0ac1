"""State per event loop (platform/kernel/loop_local.py): one value a loop, made on its first ask."""

from __future__ import annotations

import asyncio

from kernel.loop_local import LoopLocal


def test_each_loop_has_its_own_value_made_once() -> None:
    made: list[dict[str, int]] = []

    def make() -> dict[str, int]:
        made.append({})
        return made[-1]

    local = LoopLocal(make)

    async def twice() -> tuple[dict[str, int], dict[str, int]]:
        return local.get(), local.get()

    first, again = asyncio.run(twice())
    other, _ = asyncio.run(twice())
    assert first is again and other is not first and len(made) == 2
