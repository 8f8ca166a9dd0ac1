"""An action a bot sent and has not yet seen acknowledged (bench/harness/client.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Pending:
    """An action sent and not yet acknowledged."""

    action: dict[str, Any]
    key: tuple[int, int, str]  # (hand id, phase_seq, phase) it was chosen for
    version: int  # the table version it acted on
    sent_at: float = 0.0
    measured: bool = False
    connection: int = 0  # the connection it was last sent on (0: never sent)
    resent: int = 0  # how many times it was sent again (after a reconnect or a server_error)
    resend_at: float | None = None
