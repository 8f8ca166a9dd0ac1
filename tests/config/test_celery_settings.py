"""Celery reads Django's ``CELERY_*`` settings through a plain mapping
(``config.celery_app.DjangoCelerySettings``): each setting reaches Celery as it did through
Django's settings object, and none reads as one of Celery's deprecated names."""

from __future__ import annotations

from django.conf import settings

from config.celery_app import DjangoCelerySettings, app


def test_every_celery_setting_reaches_celery() -> None:
    names = [name for name in dir(settings) if name.startswith("CELERY_")]
    assert "CELERY_BROKER_URL" in names and "CELERY_TASK_ROUTES" in names
    for name in names:
        new_style = name.removeprefix("CELERY_").lower()
        assert app.conf.get(name) == getattr(settings, name)
        assert DjangoCelerySettings()[new_style] == getattr(settings, name)
    assert app.conf.task_routes == settings.CELERY_TASK_ROUTES  # asked for by Celery's own name
    assert app.conf.imports == tuple(settings.CELERY_IMPORTS)


def test_no_setting_reads_as_a_deprecated_name() -> None:
    app.conf.finalize()
    assert not app.conf.deprecated_settings
    assert sorted(DjangoCelerySettings()) == sorted(n.removeprefix("CELERY_").lower() for n in dir(settings)
                                                   if n.startswith("CELERY_"))
