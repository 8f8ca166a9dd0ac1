"""The base of every refusal the apps raise for a person to read: play, wallet and dispute errors.

An :class:`AppError` carries a stable ``code`` for clients, a message a person can read
(:meth:`AppError.localized`, in the active language) and the HTTP status an API answers with
(``kernel.api.exception_handler`` turns any of them into a response). WebSocket consumers
send the code and the message in an ``error`` frame (docs/PROTOCOL.md).

This module depends on nothing (the wallet, the lowest app, imports it): keep it that way.
"""

from __future__ import annotations

HTTP_BAD_REQUEST = 400
HTTP_FORBIDDEN = 403


class AppError(Exception):
    """A refused request; nothing was changed.

    ``code`` is stable for clients; ``str(self)`` is the message as raised (apps that raise
    with a translated message make it the localized one); ``status_code`` is the API's answer:
    400, or 403 for "not allowed"."""

    code = "refused"
    status_code = HTTP_BAD_REQUEST

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code:
            self.code = code

    def localized(self) -> str:
        """The message in the active language (subclasses whose ``str()`` is English override it)."""
        return str(self)
