"""Celery tasks of the integrity app, sent by name by the beat (config settings)."""

from celery import shared_task

from integrity.services.signals import signals_update


@shared_task(name="integrity.signals_update", ignore_result=True)
def update_signals() -> None:
    signals_update()
