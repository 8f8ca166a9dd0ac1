"""Test settings: base with a fast password hasher."""

from config.settings.base import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
STATIC_ROOT.mkdir(exist_ok=True)  # noqa: F405 - WhiteNoise warns when it is missing

# Tests drive timers themselves (services, time-machine); nothing is left queued on a broker.
GAMES_TIMERS = False
GAMES_START_DELAY = 5  # nothing deals by itself: tests call the services (or the sweeper)
GAMES_NEXT_HAND_DELAY = 5
CELERY_EMBEDDED_WORKER = False  # importing config.asgi in a test must not start a worker
GC_FREEZE = False  # the test process keeps Python's collector as it is (kernel/gc_tuning.py)
HEALTHZ_CACHE_SECONDS = 0  # every probe checks afresh; tests of the cache set it
