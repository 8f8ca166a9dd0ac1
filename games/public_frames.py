"""The newest public state frame (the spectators' view) each table has in this process, as the
encoded text its broadcast carried (``games.broadcast.frames_event``) or a snapshot built here.

A signed-out socket's ``sync`` is answered from it when it is as new as the table's last
broadcast version (``games.sent``): one Redis read, no database, no encoding. A frame older than
that (a broadcast this process has not heard yet, a channel layer that dropped a message) is not
used: the socket gets a snapshot read from the database, which is kept here in turn. The frame
shows the seats' ``connected`` flags as of the change it carries, as every spectator's copy of
that broadcast does.

Memory is bounded: at most :data:`TABLES_KEPT` tables, the oldest kept dropped first. Only the
event loop's tasks call these functions.
"""

from __future__ import annotations

TABLES_KEPT = 4096

_frames: dict[int, tuple[int, str]] = {}


def public_frame_keep(*, table_id: int, version: int, text: str) -> None:
    """Keep ``text``, the table's public frame at ``version``, unless a newer one is kept."""
    held = _frames.get(table_id)
    if held is not None and held[0] >= version:
        return
    if held is None and len(_frames) >= TABLES_KEPT:
        del _frames[next(iter(_frames))]
    _frames[table_id] = (version, text)


def public_frame_newest(*, table_id: int, at_least: int | None) -> tuple[int, str] | None:
    """The kept public frame of the table (its version and text) if its version is at least
    ``at_least``; None when there is none, or ``at_least`` is unknown (nothing to compare with)."""
    held = _frames.get(table_id)
    if held is None or at_least is None or held[0] < at_least:
        return None
    return held


def public_frames_forget() -> None:
    """Drop every kept frame (a test's fresh start)."""
    _frames.clear()
