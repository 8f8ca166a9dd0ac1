"""The platform's Celery app (config/celery_app.py) is the process's default app: the apps send
tasks through ``celery.app.default_app`` and declare them with ``shared_task`` without importing it."""

from __future__ import annotations

import threading

from celery.app import default_app

from config.celery_app import app
from games import tasks


def _default_app_in_a_new_thread() -> object:
    found: list[object] = []
    thread = threading.Thread(target=lambda: found.append(default_app._get_current_object()))
    thread.start()
    thread.join()
    return found[0]


def test_a_thread_that_never_imported_the_celery_app_sees_the_platforms_app_as_the_default() -> None:
    assert _default_app_in_a_new_thread() is app


def test_the_shared_tasks_of_live_play_are_registered_with_the_platforms_app_by_name() -> None:
    assert app.tasks["games.expire_phase"].name == tasks.expire_phase.name == "games.expire_phase"
    assert {"games.start_hand", "games.sweep", "games.lobby_publish"} <= set(app.tasks)
