"""What the log shows at the default level: start-up, errors, hands settled and faults — not the
platform's routine ticks (README.md "Logs").

Routine lines come from libraries: Celery's beat ("Sending due task") and worker ("Task …
received", "… succeeded in …") for the sweeper, the lobby feed and the worker heartbeat every
second or few; django-axes' lines around every successful log-in; uvicorn's access line for
every ``/healthz`` probe, metrics scrape and static file, and a line for every WebSocket opened
or closed. ``LOGGING`` (settings) sets those loggers to ``ROUTINE_LOG_LEVEL`` (WARNING unless
``LOG_LEVEL`` is DEBUG); uvicorn configures its own loggers before Django starts, so
:func:`quiet_server_logs` puts a filter on them from the ASGI entry point instead.
"""

from __future__ import annotations

import logging

#: Loggers whose INFO lines are routine ticks (LOGGING sets them to ROUTINE_LOG_LEVEL).
ROUTINE_LOGGERS = (
    "celery.beat",  # "Scheduler: Sending due task games-sweep (games.sweep)"
    "celery.app.trace",  # "Task games.sweep[…] succeeded in 0.02s: None" (failures are ERROR)
    "celery.worker.strategy",  # "Task games.sweep[…] received"
    "celery.worker.request",  # "Discarding revoked task" (a sweep dropped for a newer one)
    "websockets",  # "connection open", "connection closed"
    "axes",  # four lines per successful log-in; failures and lock-outs are WARNING and stay
)
#: Paths whose successful requests are probes, scrapes and assets, not anything an operator reads.
ROUTINE_PATHS = ("/healthz", "/metrics", "/static/", "/favicon.ico")
HTTP_ERROR = 400
WEBSOCKET_LINES = ("connection open", "connection closed")


def routine_request(record: logging.LogRecord) -> bool:
    """An access line (uvicorn's: client, method, path, version, status) of a routine request
    answered without an error, or the line of a WebSocket accepted."""
    args = record.args if isinstance(record.args, tuple) else ()
    if record.name == "uvicorn.error":  # uvicorn's WebSocket lines, and the websockets library's through it
        message = str(record.msg)
        return record.levelno <= logging.INFO and ("[accepted]" in message or message in WEBSOCKET_LINES)
    if record.name != "uvicorn.access" or len(args) < 5:
        return False
    path, status = str(args[2]), args[4]
    return isinstance(status, int) and status < HTTP_ERROR and path.startswith(ROUTINE_PATHS)


class RoutineRequestFilter(logging.Filter):
    """Drops routine request lines unless the logger is set to DEBUG."""

    def filter(self, record: logging.LogRecord) -> bool:
        if logging.getLogger(record.name).getEffectiveLevel() <= logging.DEBUG:
            return True
        return not routine_request(record)


_FILTER = RoutineRequestFilter()


def quiet_server_logs() -> None:
    """Filter uvicorn's routine lines (idempotent; called by the ASGI entry point)."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
