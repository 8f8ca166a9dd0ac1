"""The Celery app. Tasks are thin: one call into a service."""

import os
import sys
from pathlib import Path

from celery import Celery

# `celery -A config` runs from platform/: the project root (games, wallet) must be importable too.
_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(1, _ROOT)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
