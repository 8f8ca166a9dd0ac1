"""The server keeps the connection slots of its open sockets alive (games.services.limits).

A slot expires ``GAMES_WS_SLOT_TTL`` seconds after its last refresh, so that the sockets of a
server that died stop counting. Refreshed only by what a client sends, a slot also expired under
a socket that was open but silent, and a user could open more than the limit by keeping each
batch quiet past the TTL. So each server process refreshes every slot it holds itself:

1. A socket that claimed its slot is kept (:func:`slot_keep`) with what to do if the slot is
   lost; a closing socket forgets it (:func:`slot_forget`).
2. A task on the server's event loop claims every kept slot again each ``GAMES_WS_SLOT_TTL / 3``
   seconds (:func:`slots_refresh`): a slot still there is refreshed; one lost (Redis restarted
   empty) is taken again if there is room, and otherwise its socket is closed as an extra one.
3. The task stops when the process holds no slot, and dies with the process: the slots of a
   dead server then expire within the TTL.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from django.conf import settings

from games.services import limits
from kernel.loop_local import LoopLocal

log = logging.getLogger(__name__)

Lost = Callable[[], Awaitable[None]]


@dataclass
class _Kept:
    """The slots kept on one event loop: channel -> (owner, what to do when lost)."""

    slots: dict[str, tuple[int | str, Lost]] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None


_loops: LoopLocal[_Kept] = LoopLocal(_Kept)


def _kept() -> _Kept:
    return _loops.get()


def slot_keep(*, owner: int | str, channel: str, lost: Lost) -> None:
    """Refresh this socket's slot from now on, until :func:`slot_forget`; ``lost`` runs if the
    slot is gone and cannot be taken again."""
    if not limits.connections_limited():
        return
    kept = _kept()
    kept.slots[channel] = (owner, lost)
    if kept.task is None or kept.task.done():
        kept.task = asyncio.get_running_loop().create_task(_refresh_while_kept(kept))


def slot_forget(*, channel: str) -> None:
    kept = _kept()
    kept.slots.pop(channel, None)
    if not kept.slots and kept.task is not None:
        kept.task.cancel()
        kept.task = None


async def slots_refresh() -> int:
    """Claim every slot kept on this loop again (module docstring, step 2); how many were lost."""
    kept = _kept()
    held = list(kept.slots.items())
    claims = await asyncio.gather(
        *(limits.connection_claim_async(user_id=owner, channel=channel) for channel, (owner, _lost) in held)
    )
    lost = [(channel, on_lost) for (channel, (_owner, on_lost)), ok in zip(held, claims, strict=True) if not ok]
    for channel, on_lost in lost:
        kept.slots.pop(channel, None)
        await on_lost()
    return len(lost)


async def _refresh_while_kept(kept: _Kept) -> None:
    while kept.slots:
        await asyncio.sleep(settings.GAMES_WS_SLOT_TTL / 3)
        try:
            await slots_refresh()
        except Exception:
            log.exception("connection slots: a refresh failed; the next one tries again")
