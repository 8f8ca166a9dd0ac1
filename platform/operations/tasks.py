"""Celery tasks of operations: each one line into a service. Sent by beat, by name."""

from celery import shared_task

from operations.closing import day_figures_close_due
from operations.trail import trail_cash_outs_link


@shared_task(name="operations.close_days", ignore_result=True)
def close_days() -> None:
    day_figures_close_due()


@shared_task(name="operations.trail_links", ignore_result=True)
def trail_links() -> None:
    trail_cash_outs_link()
