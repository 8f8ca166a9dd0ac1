"""The API's one exception handler (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``).

Any :class:`kernel.errors.AppError` a service raises becomes a response with the error's
status (400, or 403 for "not allowed"; 429 for a budget's refusal, with ``Retry-After`` when the
error says how long to wait) and the body ``{"detail": <localized message>}``;
everything else goes to DRF's own handler (validation errors, 404, permission checks).
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import APIException
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from kernel.errors import AppError


def api_exception(error: AppError) -> APIException:
    """The DRF exception answering for ``error``: its status, its code, its localized message."""
    exc = APIException(detail=error.localized(), code=error.code)
    exc.status_code = error.status_code
    return exc


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    retry_after = getattr(exc, "retry_after", None) if isinstance(exc, AppError) else None
    if isinstance(exc, AppError):
        exc = api_exception(exc)
    response = drf_exception_handler(exc, context)
    if response is not None and retry_after is not None:
        response["Retry-After"] = str(int(retry_after))
    return response
