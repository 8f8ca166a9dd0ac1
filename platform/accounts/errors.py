"""Refusals of the accounts app."""

from __future__ import annotations

from kernel.errors import AppError


class SignUpRefused(AppError):
    """A sign-up over the limit of its address (``signup_address_limit``) or its browser
    (``signup_browser_limit``); no account was made."""

    code = "signup_limit"
