"""Celery tasks of the integrity app, sent by name by the beat (config settings)."""

from celery import shared_task

from integrity.services.cases import cases_open_for_welcome
from integrity.services.signals import signals_update, signals_wait
from kernel.background import at_low_priority


@shared_task(name="integrity.signals_update", ignore_result=True)
def update_signals() -> None:
    """A batch of the signals, below live play's CPU priority (kernel/background.py): no player
    waits for it, and it costs a solver call per seat of every hand. While the machine is busy
    the batch waits (``signals_wait``); the welcome-coin flags, raised as hands settle, still get
    their cases."""
    if signals_wait():
        cases_open_for_welcome()
        return
    at_low_priority(signals_update)
