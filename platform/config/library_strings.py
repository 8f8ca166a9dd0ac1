"""Strings of libraries' admin pages that our catalogues translate (locale/glossary.tsv), since
the libraries' own catalogues lack them in Chinese: django-axes' models, fields and filters
(docs/SECURITY.md), and the headings Django's admin writes for screen readers. Listed here so
that ``makemessages`` keeps them; nothing imports this module."""

from __future__ import annotations

from django.utils.translation import gettext_noop

AXES = (
    gettext_noop("access failure"),
    gettext_noop("access failures"),
    gettext_noop("access attempt"),
    gettext_noop("access attempts"),
    gettext_noop("Access Attempt"),
    gettext_noop("access attempt expiration"),
    gettext_noop("access attempt expirations"),
    gettext_noop("access log"),
    gettext_noop("access logs"),
    gettext_noop("User Agent"),
    gettext_noop("IP Address"),
    gettext_noop("Username"),
    gettext_noop("HTTP Accept"),
    gettext_noop("Path"),
    gettext_noop("Attempt Time"),
    gettext_noop("Access lock out"),
    gettext_noop("GET Data"),
    gettext_noop("POST Data"),
    gettext_noop("Failed Logins"),
    gettext_noop("Expires At"),
    gettext_noop("The time when access attempt expires and is no longer valid."),
    gettext_noop("Logout Time"),
    gettext_noop("Session key hash (sha256)"),
    gettext_noop("Locked Out"),
    gettext_noop("Form Data"),
    gettext_noop("Meta Data"),
    gettext_noop("Clean up expired attempts"),
    gettext_noop("Not set"),
    gettext_noop("Attempt Remaining"),
)
DJANGO_ADMIN = (
    gettext_noop("Model name"),
    gettext_noop("Add link"),
    gettext_noop("Change or view list link"),
)
